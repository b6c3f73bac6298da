package harness

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"

	"github.com/ahpgen/ahpgen/internal/mediatype"
	"github.com/ahpgen/ahpgen/internal/quote"
)

// conn is how the harness reaches one backend.
type conn interface {
	// call sends a request and returns its reply (one JSON-RPC message,
	// owned by the caller), or the failure, and how many times it sent
	// the request: 1, or 2 when resend lets a persistent stdio backend's
	// request go once more to a new run (see persistentConn.call).
	call(ctx context.Context, id string, msg []byte, resend bool) (reply []byte, sent int, f *Failure)
	// notify sends a notification; no reply is read.
	notify(ctx context.Context, msg []byte) *Failure
	close() error
}

// httpConn is the HTTP binding: one POST per message.
type httpConn struct {
	h      *Harness
	b      *Backend
	client *http.Client
	oauth  *oauthSource // nil unless the backend authenticates by OAuth

	// granted is the token the host's authorizer gave for a backend
	// without configured authentication (see WithAuthorizer); asking is
	// held by the one call asking the authorizer for it.
	asking  chan struct{}
	mu      sync.Mutex
	granted string
	// sent are the last tokens sent to the backend (mu guards it): what
	// a backend echoes of one is taken out of a Failure (see redact).
	sent [4]string
}

func newHTTPConn(h *Harness, b *Backend, rt http.RoundTripper) *httpConn {
	c := &httpConn{h: h, b: b, asking: make(chan struct{}, 1)}
	c.client = &http.Client{Transport: rt, CheckRedirect: c.redirect}
	if b.Auth != nil && b.Auth.Type == "oauth" {
		c.oauth = newOAuthSource(b.Auth, rt, h.opts.secrets)
	}
	return c
}

// redirect follows a redirect only where WithRedirects enabled it, and
// only one that keeps the POST and its body (307, 308), to https or a
// loopback host, within the origin when a credential goes with it.
func (c *httpConn) redirect(req *http.Request, via []*http.Request) error {
	if !c.h.opts.redirects[c.b.ID] {
		return http.ErrUseLastResponse
	}
	switch {
	case len(via) >= 5:
		return errors.New("more than 5 redirects")
	case req.Method != http.MethodPost:
		return errors.New("a redirect that turns the POST into " + req.Method)
	case req.URL.Scheme != "https" && !(req.URL.Scheme == "http" && loopback(req.URL.Hostname())):
		return errors.New("a redirect to plain http on a host that is not loopback")
	case via[0].Header.Get("Authorization") != "" && (req.URL.Scheme != via[0].URL.Scheme || req.URL.Host != via[0].URL.Host):
		return errors.New("a redirect to another origin while sending a credential")
	}
	return nil
}

// token is the Authorization header value, or the authentication failure
// (nothing is sent without the configured credential); with OAuth, the
// access token in it and whether it was just issued.
func (c *httpConn) token(ctx context.Context) (header, tok string, fresh bool, f *Failure) {
	a := c.b.Auth
	if a == nil {
		c.mu.Lock()
		tok = c.granted
		c.mu.Unlock()
		if tok == "" {
			return "", "", false, nil
		}
		return "Bearer " + tok, tok, false, nil
	}
	if c.oauth != nil {
		if tok, fresh, f = c.oauth.get(ctx); f != nil {
			return "", "", false, f
		}
		return "Bearer " + tok, tok, fresh, nil
	}
	switch {
	case a.TokenEnv != "":
		tok = os.Getenv(a.TokenEnv)
		if tok == "" {
			return "", "", false, &Failure{Class: ClassAuth, Err: errors.New("the token's environment variable " + a.TokenEnv + " is empty or unset")}
		}
	default:
		var err error
		if tok, err = c.h.opts.secrets(ctx, a.TokenRef); err != nil || tok == "" {
			if err == nil {
				err = errors.New("empty token")
			}
			return "", "", false, &Failure{Class: ClassAuth, Err: fmt.Errorf("resolving the token reference: %w", err)}
		}
	}
	if strings.ContainsAny(tok, "\r\n") {
		return "", "", false, &Failure{Class: ClassAuth, Err: errors.New("the token holds a line break")}
	}
	return "Bearer " + tok, "", false, nil
}

// send posts msg and returns the response, its body not read. A backend
// that refuses an OAuth token the harness kept (expired early, revoked)
// gets the message once more with a token just issued.
//
// A backend without configured authentication that answers 401 is asked
// the host's authorizer for a token (WithAuthorizer), and gets the message
// once more with it.
func (c *httpConn) send(ctx context.Context, msg []byte) (*http.Response, *Failure) {
	resp, tok, fresh, f := c.post(ctx, msg)
	if f != nil || resp.StatusCode != http.StatusUnauthorized {
		return resp, f
	}
	switch {
	case c.oauth != nil && !fresh:
		drain(resp)
		resp.Body.Close()
		c.oauth.drop(tok)
	case c.b.Auth == nil && c.h.opts.authorize != nil:
		params := bearerParams(resp.Header.Values("WWW-Authenticate"))
		drain(resp)
		resp.Body.Close()
		if f := c.authorize(ctx, tok, params); f != nil {
			return nil, f
		}
	default:
		return resp, nil
	}
	resp, _, _, f = c.post(ctx, msg)
	return resp, f
}

// authorize asks the host's authorizer for a token in place of refused,
// the token the backend refused ("" for none), and keeps it. Calls that
// meet the challenge together ask once: the others wait (until their
// deadline) and use the token it gave.
func (c *httpConn) authorize(ctx context.Context, refused string, params map[string]string) *Failure {
	select {
	case c.asking <- struct{}{}:
	case <-ctx.Done():
		return &Failure{Class: ClassDeadline, Err: errors.New("the deadline passed while another call asked the host's authorizer")}
	}
	defer func() { <-c.asking }()
	c.mu.Lock()
	if c.granted == refused {
		c.granted = ""
	}
	got := c.granted
	c.mu.Unlock()
	if got != "" {
		return nil // given while this call waited
	}
	// The challenge is the backend's word, untrusted (capability-auth.md):
	// a metadata URL reaches the authorizer only as https, or plain http
	// to a loopback host, as the harness reaches backends. Which hosts
	// may be asked for metadata is the host's policy, in its authorizer.
	meta := params["resource_metadata"]
	if meta != "" {
		u, err := url.Parse(meta)
		if err != nil || !u.IsAbs() || u.Host == "" || u.Scheme != "https" && !(u.Scheme == "http" && loopback(u.Hostname())) {
			return &Failure{Class: ClassAuth, Status: http.StatusUnauthorized, Err: errors.New("the 401's resource_metadata is no https URL: the host's authorizer was not asked")}
		}
	}
	tok, err := c.h.opts.authorize(ctx, Challenge{Backend: c.b.ID, URL: c.b.HTTP.URL.String(),
		ResourceMetadata: meta, Scope: params["scope"]})
	switch {
	case err != nil:
		return &Failure{Class: ClassAuth, Status: http.StatusUnauthorized, Err: fmt.Errorf("the host's authorizer: %w", err)}
	case tok == "" || strings.ContainsAny(tok, "\r\n"):
		return &Failure{Class: ClassAuth, Status: http.StatusUnauthorized, Err: errors.New("the host's authorizer gave no usable token")}
	}
	c.mu.Lock()
	c.granted = tok
	c.mu.Unlock()
	return nil
}

// post sends msg once, with the credential, and returns the response
// (its body not read) and the OAuth token it carried.
func (c *httpConn) post(ctx context.Context, msg []byte) (resp *http.Response, tok string, fresh bool, f *Failure) {
	auth, tok, fresh, f := c.token(ctx)
	if f != nil {
		return nil, "", false, f
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.b.HTTP.URL.String(), bytes.NewReader(msg))
	if err != nil {
		return nil, "", false, &Failure{Class: ClassConnection, Err: err}
	}
	req.Header["Content-Type"] = jsonType
	req.Header["Accept"] = jsonType
	if auth != "" {
		req.Header["Authorization"] = []string{auth}
		c.remember(strings.TrimPrefix(auth, "Bearer "))
	}
	resp, err = c.client.Do(req)
	if err != nil {
		err = bounded(withoutQuery(err))
		switch {
		case ctx.Err() != nil:
			return nil, "", false, &Failure{Class: ClassDeadline, Err: err}
		case resp != nil:
			// A redirect that c.redirect refused: the client returns it
			// (its body closed) with the refusal. The backend answered
			// with a status that is not the success one, which a retry
			// cannot mend; the connection was fine.
			return nil, "", false, &Failure{Class: ClassHTTPStatus, Status: resp.StatusCode, Err: err}
		}
		return nil, "", false, &Failure{Class: ClassConnection, Err: err}
	}
	return resp, tok, fresh, nil
}

var jsonType = []string{"application/json"}

// remember notes tok as sent to the backend.
func (c *httpConn) remember(tok string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.sent {
		if t == tok {
			return
		}
	}
	copy(c.sent[1:], c.sent[:])
	c.sent[0] = tok
}

// redact takes the tokens sent to the backend out of f: a backend may
// echo the credential it was sent into what a Failure quotes (a JSON-RPC
// error's message, a name in its reply), and a Failure goes to logs.
func (c *httpConn) redact(f *Failure) {
	c.mu.Lock()
	sent := c.sent
	c.mu.Unlock()
	for _, tok := range sent {
		if tok != "" {
			f.redact(tok)
		}
	}
}

// withoutQuery keeps the query and fragment of a request's URL out of its
// error, which the audit records keep and logs print: an endpoint may
// carry a token there, though AHP keeps secrets out of registrations.
// (The user-info part, a registration may not carry at all.)
func withoutQuery(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	u, perr := url.Parse(ue.URL)
	if perr != nil || (u.RawQuery == "" && u.Fragment == "" && u.User == nil) {
		return err
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment, u.User = "", false, "", "", nil
	return &url.Error{Op: ue.Op, URL: u.String(), Err: ue.Err}
}

// maxErrText bounds the text of an HTTP client's error in a Failure. The
// error may quote what the peer sent: a status or header line the client
// could not read, whole (up to its 10 MiB header limit), or the names in
// a certificate it refused. A peer's text is quoted bounded (SECURITY.md),
// so that one echoing what it was sent gets little of it into the host's
// logs; 400 bytes leave room for the client's own words and the URL
// before it.
const maxErrText = 2 * quote.Max

// bounded is err with its text cut to maxErrText bytes; errors.Is still
// finds what err wraps.
func bounded(err error) error {
	s := err.Error()
	if len(s) <= maxErrText {
		return err
	}
	return &redacted{text: quote.Within(s, maxErrText, nil), err: err}
}

func (c *httpConn) call(ctx context.Context, _ string, msg []byte, _ bool) ([]byte, int, *Failure) {
	r, f := c.intercept(ctx, msg)
	return r, 1, f
}

func (c *httpConn) intercept(ctx context.Context, msg []byte) ([]byte, *Failure) {
	resp, f := c.send(ctx, msg)
	if f != nil {
		return nil, f
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized:
		drain(resp)
		why := "the backend refused the credential"
		if c.b.Auth == nil && c.h.opts.authorize == nil {
			why = "the backend asks for a credential, and the registration configures none (harness.WithAuthorizer can answer it)"
		}
		return nil, &Failure{Class: ClassAuth, Status: resp.StatusCode, Err: errors.New(why)}
	case resp.StatusCode != http.StatusOK:
		drain(resp)
		return nil, c.statusFailure(resp.StatusCode)
	case !mediatype.JSON(resp.Header):
		drain(resp)
		return nil, &Failure{Class: ClassMalformed, Status: resp.StatusCode, Err: errors.New("the reply is not application/json")}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.h.opts.maxReply+1))
	if err != nil {
		err = bounded(err)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, &Failure{Class: ClassDeadline, Err: err}
	case err != nil && undecodable(err):
		return nil, &Failure{Class: ClassMalformed, Err: fmt.Errorf("the reply does not decode by its Content-Encoding: %w", err)}
	case err != nil:
		return nil, &Failure{Class: ClassConnection, Err: err}
	case int64(len(body)) > c.h.opts.maxReply:
		return nil, &Failure{Class: ClassMalformed, Err: fmt.Errorf("the reply is larger than %d bytes", c.h.opts.maxReply)}
	}
	return body, nil
}

// undecodable reports whether err is the HTTP client's failure to decode
// a body by its Content-Encoding (gzip, which the client asks for unless
// told not to): the reply came whole, and is malformed, as its bytes would
// be. It is no connection failure, which a retry may mend.
func undecodable(err error) bool {
	var corrupt flate.CorruptInputError
	return errors.Is(err, gzip.ErrHeader) || errors.Is(err, gzip.ErrChecksum) || errors.As(err, &corrupt)
}

// notify: accepted is 202 or 204, without a body.
func (c *httpConn) notify(ctx context.Context, msg []byte) *Failure {
	resp, f := c.send(ctx, msg)
	if f != nil {
		return f
	}
	defer resp.Body.Close()
	drain(resp)
	if resp.StatusCode != http.StatusAccepted && resp.StatusCode != http.StatusNoContent {
		return c.statusFailure(resp.StatusCode)
	}
	return nil
}

// statusFailure is a status that is not the success one. A redirect the
// harness did not follow says what would have it followed: a 307 or 308
// (a path registered without its trailing slash, say) is followed once
// WithRedirects names the backend; a 301, 302 or 303 never is, as it
// would turn the POST into a GET.
func (c *httpConn) statusFailure(status int) *Failure {
	f := &Failure{Class: ClassHTTPStatus, Status: status}
	switch status {
	case http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		if !c.h.opts.redirects[c.b.ID] {
			f.Err = fmt.Errorf("a redirect, not followed: correct the registered url, or name %q in harness.WithRedirects", c.b.ID)
		}
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther:
		f.Err = errors.New("a redirect that would turn the POST into a GET, never followed: correct the registered url")
	}
	return f
}

func (c *httpConn) close() error {
	c.client.CloseIdleConnections()
	return nil
}

// drain reads a little of a response's body so that its connection can be
// reused. A 101's body is the connection itself, switched to another
// protocol: it goes back to no pool, and the request's context no longer
// bounds a read of it, which a backend holding it open would hold past
// the deadline (and an observer's, Close). It is not read.
func drain(resp *http.Response) {
	if resp.StatusCode != http.StatusSwitchingProtocols {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	}
}
