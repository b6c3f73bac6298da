package mediatype

import (
	"net/http"
	"testing"
)

func TestJSON(t *testing.T) {
	for _, c := range []struct {
		lines []string
		want  bool
	}{
		{[]string{"application/json"}, true},
		{[]string{"Application/JSON"}, true},
		{[]string{"application/json; charset=utf-8"}, true},
		{[]string{"application/json;charset=UTF-8"}, true},
		{[]string{"application/json; charset=latin1"}, false},
		{[]string{"text/plain"}, false},
		{[]string{"application/json, text/plain"}, false},
		{[]string{"application/json;"}, true}, // mime accepts a trailing ;
		{[]string{""}, false},
		{nil, false},
		{[]string{"application/json", "text/plain"}, false},
		{[]string{"application/json", "application/json"}, false},
		{[]string{"text/plain", "application/json"}, false},
	} {
		h := http.Header{}
		for _, l := range c.lines {
			h.Add("content-type", l)
		}
		if got := JSON(h); got != c.want {
			t.Errorf("%q: %v, want %v", c.lines, got, c.want)
		}
	}
}
