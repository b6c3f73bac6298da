// Package mediatype reads the media type an HTTP message declares for
// its body, as the AHP HTTP binding requires it: application/json, UTF-8.
// The backend kit checks requests with it and the harness kit replies
// (and OAuth token responses), so both ends accept the same headers.
package mediatype

import (
	"mime"
	"net/http"
	"strings"
)

// JSON reports whether h declares its body application/json in UTF-8:
// exactly one Content-Type field line, of type application/json (any
// case) with no charset or charset utf-8 (charset names are
// case-insensitive, RFC 2046 section 4.1.2). Content-Type is a singleton
// field (RFC 9110, section 5.3): a message with two lines of it declares
// no one type, even when the first is JSON, so it is refused rather than
// read by its first line as http.Header.Get would.
func JSON(h http.Header) bool {
	v := h["Content-Type"]
	if len(v) != 1 {
		return false
	}
	ct := v[0]
	if ct == "application/json" {
		return true // the common case, without parsing
	}
	t, params, err := mime.ParseMediaType(ct)
	if err != nil || t != "application/json" {
		return false
	}
	cs, ok := params["charset"]
	return !ok || strings.EqualFold(cs, "utf-8")
}
