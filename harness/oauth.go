package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/ahpgen/ahpgen/internal/mediatype"
	"github.com/ahpgen/ahpgen/internal/quote"
)

// oauthSource gets a backend's access token by OAuth 2.0 client
// credentials (RFC 6749 §4.4) from the authorization server its
// registration names: the server's metadata (RFC 8414) gives the token
// endpoint, the token is asked for the registered resource (RFC 8707)
// and scopes, with the client's secret from the host's secret store, and
// kept until it expires or the backend refuses it (one whose expires_in
// is 0 or less is used for the call that asked for it, and not kept).
// Nothing of the secret or the token ever reaches a Failure.
type oauthSource struct {
	auth   *Auth
	client *http.Client // no redirects: a credential never follows one
	secret func(ctx context.Context, ref string) (string, error)

	// fetching is held by the one caller asking the authorization
	// server (others wait for its token, each only until its own
	// deadline); mu guards the fields below it.
	fetching chan struct{}
	endpoint string // the token endpoint, once discovered (fetching held)
	mu       sync.Mutex
	token    string
	expiry   time.Time // zero: until the backend refuses it
}

// maxAuthBody bounds what the harness reads of an authorization server's
// answer.
const maxAuthBody = 1 << 20

func newOAuthSource(a *Auth, rt http.RoundTripper, secret func(context.Context, string) (string, error)) *oauthSource {
	return &oauthSource{auth: a, secret: secret, fetching: make(chan struct{}, 1), client: &http.Client{
		Transport:     rt,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// get returns a valid access token, asking for one when it has none;
// fresh says the token was just issued (a refusal of it is final).
func (o *oauthSource) get(ctx context.Context) (tok string, fresh bool, f *Failure) {
	if tok := o.current(); tok != "" {
		return tok, false, nil
	}
	select {
	case o.fetching <- struct{}{}:
	case <-ctx.Done():
		return "", false, &Failure{Class: ClassDeadline, Err: errors.New("OAuth: the deadline passed while another call asked for a token")}
	}
	defer func() { <-o.fetching }()
	if tok := o.current(); tok != "" {
		return tok, false, nil // issued while this call waited
	}
	tok, expiry, f := o.fetch(ctx)
	if f != nil {
		return "", false, f
	}
	o.mu.Lock()
	o.token, o.expiry = tok, expiry
	if !expiry.IsZero() && !time.Now().Before(expiry) {
		// Expired as issued (expires_in <= 0): it is this call's alone.
		o.token, o.expiry = "", time.Time{}
	}
	o.mu.Unlock()
	return tok, true, nil
}

// current is the token kept, if it still holds.
func (o *oauthSource) current() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.token != "" && (o.expiry.IsZero() || time.Now().Before(o.expiry)) {
		return o.token
	}
	return ""
}

// drop forgets tok, which the backend refused, so that the next get asks
// for another; a token issued meanwhile stays.
func (o *oauthSource) drop(tok string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.token == tok {
		o.token, o.expiry = "", time.Time{}
	}
}

func authFailure(format string, args ...any) *Failure {
	return &Failure{Class: ClassAuth, Err: fmt.Errorf("OAuth: "+format, args...)}
}

// fetch asks the token endpoint for a token (discovering it first) and
// returns it with the time to renew it (zero: none given; not after now:
// renew at once, the token is not kept).
func (o *oauthSource) fetch(ctx context.Context) (string, time.Time, *Failure) {
	fail := func(f *Failure) (string, time.Time, *Failure) { return "", time.Time{}, f }
	if o.endpoint == "" {
		ep, f := o.discover(ctx)
		if f != nil {
			return fail(f)
		}
		o.endpoint = ep
	}
	secret, err := o.secret(ctx, o.auth.ClientSecretRef)
	if err != nil || secret == "" {
		return fail(authFailure("resolving the client secret reference %q failed", o.auth.ClientSecretRef))
	}
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {o.auth.Resource}}
	if len(o.auth.Scopes) > 0 {
		form.Set("scope", strings.Join(o.auth.Scopes, " "))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return fail(authFailure("token request: %v", err))
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	// client_secret_basic: each part form-encoded first (RFC 6749 §2.3.1).
	req.SetBasicAuth(url.QueryEscape(o.auth.ClientID), url.QueryEscape(secret))
	var answer struct {
		AccessToken string          `json:"access_token"`
		TokenType   string          `json:"token_type"`
		ExpiresIn   json.RawMessage `json:"expires_in"`
		Error       string          `json:"error"`
	}
	status, f := o.getJSON(req, &answer)
	switch {
	case f != nil:
		return fail(f)
	case status != http.StatusOK && answer.Error != "":
		return fail(authFailure("the authorization server refused the token request: %s (HTTP %d)", peerText(answer.Error, secret), status))
	case status != http.StatusOK:
		return fail(authFailure("the token endpoint answered HTTP %d", status))
	case answer.AccessToken == "" || strings.ContainsAny(answer.AccessToken, "\r\n"):
		return fail(authFailure("the token endpoint issued no usable access token"))
	case !strings.EqualFold(answer.TokenType, "bearer"):
		return fail(authFailure("the token endpoint issued a %s token, not a bearer token", peerText(answer.TokenType, secret, answer.AccessToken)))
	}
	var renew time.Time
	if secs, ok := lifetime(answer.ExpiresIn); ok {
		if secs <= 0 {
			// expires_in is the token's lifetime in seconds from the
			// answer (RFC 6749 §5.1): none is left. The call that
			// asked sends it (whether it still holds is the backend's
			// to judge, and a refusal of a fresh token is final), but
			// it is not kept: kept until the backend refused it, as a
			// token without expires_in is, it would go on past the
			// lifetime the server granted, with every later call.
			renew = time.Now()
		} else {
			// Renew a little early: the token must still hold when
			// the backend reads it.
			life := time.Duration(min(secs, 1<<30)) * time.Second
			renew = time.Now().Add(life - min(30*time.Second, life/4))
		}
	}
	return answer.AccessToken, renew, nil
}

// lifetime reads a token answer's expires_in: seconds as a JSON number
// (its fraction dropped), or as a string holding one, which some
// authorization servers send where RFC 6749 §5.1 asks for a number
// (golang.org/x/oauth2 takes it too). Anything else, null included, is
// no lifetime, as an absent expires_in is: the token is then kept until
// the backend refuses it.
func lifetime(raw json.RawMessage) (int64, bool) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		raw = json.RawMessage(text)
	}
	var secs float64
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) || json.Unmarshal(raw, &secs) != nil {
		return 0, false
	}
	// Bounded before the conversion, which is undefined beyond int64.
	return int64(max(min(math.Floor(secs), 1<<40), -1)), true
}

// peerText quotes text the authorization server sent (an OAuth error
// code, a token type) for a Failure: bounded as a backend's text is
// (quote.Peer), and without the credentials of the exchange, which a
// server may echo there: the client's secret, the token it issued.
func peerText(s string, credentials ...string) string {
	for _, c := range credentials {
		if c != "" {
			s = strings.ReplaceAll(s, c, "[credential]")
		}
	}
	return quote.Peer(s)
}

// discover reads the issuer's authorization server metadata and returns
// its token endpoint: an https URL of a server that names itself the
// registered issuer. The metadata is looked for where MCP 2025-11-25's
// authorization server discovery says, in its order (capability-auth.md
// adopts it): RFC 8414's location, then OpenID Connect's with the
// issuer's path inserted after the well-known prefix, then OpenID
// Connect's with it appended; the last two are one URL for an issuer
// without a path.
func (o *oauthSource) discover(ctx context.Context) (string, *Failure) {
	iss, err := url.Parse(o.auth.Issuer)
	if err != nil || iss.Scheme != "https" || iss.Host == "" {
		return "", authFailure("the issuer is not an https URL")
	}
	path := strings.TrimSuffix(iss.EscapedPath(), "/")
	locations := []string{
		"https://" + iss.Host + "/.well-known/oauth-authorization-server" + path,
		"https://" + iss.Host + "/.well-known/openid-configuration" + path,
	}
	if path != "" {
		locations = append(locations, "https://"+iss.Host+path+"/.well-known/openid-configuration")
	}
	var last *Failure
	for _, where := range locations {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
		if err != nil {
			return "", authFailure("metadata request: %v", err)
		}
		req.Header.Set("Accept", "application/json")
		var meta struct {
			Issuer        string `json:"issuer"`
			TokenEndpoint string `json:"token_endpoint"`
		}
		status, f := o.getJSON(req, &meta)
		switch {
		case f != nil:
			last = f
			continue
		case status != http.StatusOK:
			last = authFailure("no authorization server metadata for the issuer (HTTP %d)", status)
			continue
		case meta.Issuer != o.auth.Issuer:
			return "", authFailure("the authorization server metadata names another issuer")
		}
		ep, err := url.Parse(meta.TokenEndpoint)
		if err != nil || ep.Scheme != "https" || ep.Host == "" {
			return "", authFailure("the authorization server's token endpoint is not an https URL")
		}
		return ep.String(), nil
	}
	return "", last
}

// getJSON sends req and decodes a JSON answer of any status into v.
func (o *oauthSource) getJSON(req *http.Request, v any) (int, *Failure) {
	resp, err := o.client.Do(req)
	if err != nil {
		if req.Context().Err() != nil {
			return 0, &Failure{Class: ClassDeadline, Err: errors.New("OAuth: the authorization server did not answer in time")}
		}
		return 0, authFailure("the authorization server cannot be reached: %v", bounded(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusSwitchingProtocols {
		// Its body is the connection itself, which the request's
		// context no longer bounds: read, it would hold the call past
		// its deadline for as long as the server keeps it open.
		return 0, authFailure("the authorization server switched protocols (HTTP 101)")
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAuthBody+1))
	switch {
	case err != nil:
		return 0, authFailure("reading the authorization server's answer: %v", bounded(err))
	case len(body) > maxAuthBody:
		return 0, authFailure("the authorization server's answer is larger than %d bytes", maxAuthBody)
	case resp.StatusCode == http.StatusOK && !mediatype.JSON(resp.Header):
		return 0, authFailure("the authorization server's answer is not application/json")
	}
	if err := json.Unmarshal(body, v); err != nil && resp.StatusCode == http.StatusOK {
		return 0, authFailure("the authorization server's answer is not the JSON object OAuth defines")
	}
	return resp.StatusCode, nil
}

// Challenge is an HTTP backend's demand for a credential its registration
// does not configure (see WithAuthorizer).
type Challenge struct {
	// Backend is the backend's id, URL the endpoint that answered 401.
	Backend, URL string
	// ResourceMetadata and Scope are the Bearer challenge's parameters
	// in WWW-Authenticate (RFC 9728 §5.1, RFC 6750 §3): where the
	// protected resource's metadata is, and the scope it asks for;
	// empty when it names none.
	ResourceMetadata, Scope string
}

// bearerParams reads the parameters of the Bearer challenge among the
// WWW-Authenticate header values. A value is a list of challenges (RFC
// 9110 §11.6.1): a scheme, then its auth-params (name=token or
// name="quoted string", comma-separated, spaces allowed around =); a
// token not followed by = begins the next challenge. The other schemes'
// parameters are read only to be skipped, so that text in them (a realm
// saying "bearer") is never taken for the Bearer challenge.
func bearerParams(values []string) map[string]string {
	for _, v := range values {
		var params map[string]string // the current challenge's, when it is Bearer's
		bearer := false
		rest := v
		for {
			rest = strings.TrimLeft(rest, " ,\t")
			if rest == "" {
				break
			}
			n := strings.IndexAny(rest, " ,\t=")
			if n < 0 {
				n = len(rest)
			}
			if n == 0 { // a stray =
				rest = rest[1:]
				continue
			}
			name := rest[:n]
			rest = strings.TrimLeft(rest[n:], " \t")
			if !strings.HasPrefix(rest, "=") {
				// A scheme: the challenge before it has ended.
				if bearer {
					return params
				}
				bearer, params = strings.EqualFold(name, "bearer"), map[string]string{}
				continue
			}
			rest = strings.TrimLeft(rest[1:], " \t")
			var val string
			if strings.HasPrefix(rest, `"`) {
				var b strings.Builder
				j := 1
				for ; j < len(rest) && rest[j] != '"'; j++ {
					if rest[j] == '\\' && j+1 < len(rest) {
						j++
					}
					b.WriteByte(rest[j])
				}
				val, rest = b.String(), rest[min(j+1, len(rest)):]
			} else {
				end := strings.IndexAny(rest, ", \t")
				if end < 0 {
					end = len(rest)
				}
				val, rest = rest[:end], rest[end:]
			}
			if bearer {
				params[strings.ToLower(name)] = val
			}
		}
		if bearer {
			return params
		}
	}
	return nil
}
