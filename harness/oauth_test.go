package harness_test

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/harness"
)

// authServer is one loopback TLS server playing the authorization server
// (metadata and token endpoint) and the backend, which accepts only the
// tokens the server issued and not revoked.
type authServer struct {
	*httptest.Server
	mu     sync.Mutex
	issued int
	valid  map[string]bool
	forms  []string      // token requests' bodies
	basic  []string      // and their client credentials
	refuse string        // the token endpoint's OAuth error, if set
	broken string        // what the token endpoint writes instead of HTTP, if set
	stop   chan struct{} // closed when the test ends
	typ    string        // the token type it issues ("Bearer" unless set)
	life   string        // its expires_in, as written ("3600" unless set)
	issuer string        // what the metadata says the issuer is
	posts  int
	// metadataAt is the one well-known path that serves the metadata
	// ("": RFC 8414's); gets are the metadata paths asked, in order.
	metadataAt string
	gets       []string
}

func newAuthServer(t *testing.T) *authServer {
	a := &authServer{valid: map[string]bool{}, stop: make(chan struct{})}
	mux := http.NewServeMux()
	metadata := func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.gets = append(a.gets, r.URL.Path)
		at := a.metadataAt
		a.mu.Unlock()
		if at == "" {
			at = "/.well-known/oauth-authorization-server/tenant"
		}
		if r.URL.Path != at {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		iss := a.issuer
		if iss == "" {
			iss = a.URL + "/tenant"
		}
		json.NewEncoder(w).Encode(map[string]string{"issuer": iss, "token_endpoint": a.URL + "/token"})
	}
	mux.HandleFunc("GET /.well-known/oauth-authorization-server/tenant", metadata)
	mux.HandleFunc("GET /.well-known/openid-configuration/tenant", metadata)
	mux.HandleFunc("GET /tenant/.well-known/openid-configuration", metadata)
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		id, secret, _ := r.BasicAuth()
		a.mu.Lock()
		defer a.mu.Unlock()
		a.forms = append(a.forms, string(body))
		a.basic = append(a.basic, id+":"+secret)
		if a.broken != "" {
			// Written as it is, on a connection held open until the
			// test ends, or a minute (a call held by it keeps the
			// harness's Close, a cleanup before the test's end, waiting).
			if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
				io.WriteString(c, a.broken)
				go func() {
					select {
					case <-a.stop:
					case <-time.After(time.Minute):
					}
					c.Close()
				}()
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if a.refuse != "" || secret != "s3cret" {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(map[string]string{"error": cmp.Or(a.refuse, "invalid_client")})
			return
		}
		a.issued++
		tok := fmt.Sprintf("tok-%d", a.issued)
		a.valid[tok] = true
		fmt.Fprintf(w, `{"access_token":%q,"token_type":%q,"expires_in":%s}`, tok, cmp.Or(a.typ, "Bearer"), cmp.Or(a.life, "3600"))
	})
	mux.HandleFunc("POST /hook", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		a.posts++
		ok := a.valid[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		a.mu.Unlock()
		if !ok {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var req struct{ ID string }
		json.Unmarshal(body, &req)
		if req.ID == "" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, result(req.ID, `{"type":"deny","reason":"checked"}`))
	})
	a.Server = httptest.NewTLSServer(mux)
	t.Cleanup(a.Close)
	t.Cleanup(func() { close(a.stop) }) // before Close, which waits for the connections
	return a
}

func (a *authServer) revoke() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.valid)
}

// oauthHarness registers the server's /hook with OAuth client credentials.
func oauthHarness(t *testing.T, a *authServer, policy string) *harness.Harness {
	doc := strings.Replace(string(registration(hook{"com.example.a", httpTransport(a.URL + "/hook"), []string{intercept(`["tool.before"]`, 5000, policy)}})),
		`"subscriptions"`, `"authentication":{"type":"oauth","issuer":"`+a.URL+`/tenant","resource":"https://hooks.example/api","clientId":"hook client","clientSecretRef":"vault:hook","flow":"client_credentials","scopes":["hooks.intercept","hooks.observe"]},"subscriptions"`, 1)
	return build(t, []byte(doc), harness.WithHTTPTransport(a.Client().Transport),
		harness.WithSecrets(func(_ context.Context, ref string) (string, error) {
			if ref != "vault:hook" {
				return "", fmt.Errorf("no secret %s", ref)
			}
			return "s3cret", nil
		}))
}

// TestOAuthClientCredentials: the harness finds the token endpoint in the
// issuer's metadata, asks it for a token for the registered resource and
// scopes with the client's secret, and sends the token while it holds: one
// token for several calls, another once the backend refuses it.
func TestOAuthClientCredentials(t *testing.T) {
	a := newAuthServer(t)
	h := oauthHarness(t, a, "fail-closed")
	deniedTwice(t, h)
	if a.issued != 1 {
		t.Errorf("%d tokens issued for two calls, want 1", a.issued)
	}
	if want := "grant_type=client_credentials&resource=https%3A%2F%2Fhooks.example%2Fapi&scope=hooks.intercept+hooks.observe"; a.forms[0] != want {
		t.Errorf("token request %s, want %s", a.forms[0], want)
	}
	if a.basic[0] != "hook+client:s3cret" {
		t.Errorf("client credentials %q, want the form-encoded id and the secret", a.basic[0])
	}
	a.revoke()
	d, err := h.Intercept(context.Background(), toolCall("e3", "ls", `{}`))
	if err != nil {
		t.Fatal(err)
	}
	if d.Permission != harness.PermissionDeny || d.Denial.Synthetic || a.issued != 2 || d.Audit[0].Attempts != 1 {
		t.Errorf("after a revocation: %d tokens issued, %s", a.issued, recordsString(d.Audit))
	}
}

// TestOAuthNoLifetime: a token issued with expires_in 0 or less is sent
// with the call that asked for it and not kept: each call gets one of
// its own, never one past the lifetime the server gave (it was kept
// until the backend refused it). One with a lifetime is kept. A lifetime
// written as a string or with a fraction counts as the seconds it says
// ("0" was taken for no lifetime, and its token kept); one that says no
// number is no lifetime, and its token is kept until refused.
func TestOAuthNoLifetime(t *testing.T) {
	for _, c := range []struct {
		life   string
		issued int
	}{{"0", 2}, {"-1", 2}, {"3600", 1}, {`"0"`, 2}, {`" -5 "`, 2}, {"0.5", 2}, {"-0.5", 2}, {`"3600"`, 1},
		{"1e3", 1}, {"1e999", 1}, {"null", 1}, {`"soon"`, 1}, {`"null"`, 1}, {"{}", 1}} {
		a := newAuthServer(t)
		a.life = c.life
		h := oauthHarness(t, a, "fail-closed")
		deniedTwice(t, h)
		a.mu.Lock()
		issued, posts := a.issued, a.posts
		a.mu.Unlock()
		if issued != c.issued || posts != 2 {
			t.Errorf("expires_in %s: %d tokens issued, %d posts to the backend for two calls, want %d and 2", c.life, issued, posts, c.issued)
		}
	}
}

// TestOAuthMetadataLocations: the issuer's metadata is looked for at the
// well-known locations MCP 2025-11-25 lists for an issuer with a path, in
// its order (capability-auth.md adopts that discovery), and found at
// whichever serves it.
func TestOAuthMetadataLocations(t *testing.T) {
	const (
		oauth      = "/.well-known/oauth-authorization-server/tenant"
		oidcInsert = "/.well-known/openid-configuration/tenant"
		oidcAppend = "/tenant/.well-known/openid-configuration"
	)
	for _, c := range []struct {
		at   string
		asks []string
	}{
		{oauth, []string{oauth}},
		{oidcInsert, []string{oauth, oidcInsert}},
		{oidcAppend, []string{oauth, oidcInsert, oidcAppend}},
	} {
		t.Run(c.at, func(t *testing.T) {
			a := newAuthServer(t)
			a.metadataAt = c.at
			h := oauthHarness(t, a, "fail-closed")
			d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
			if err != nil {
				t.Fatal(err)
			}
			if d.Permission != harness.PermissionDeny || d.Denial.Synthetic || a.issued != 1 {
				t.Errorf("metadata at %s: %d tokens issued, %s", c.at, a.issued, recordsString(d.Audit))
			}
			if fmt.Sprint(a.gets) != fmt.Sprint(c.asks) {
				t.Errorf("metadata asked at %v, want %v", a.gets, c.asks)
			}
		})
	}
}

// TestOAuthFailures: what goes wrong with the authorization server is an
// authentication failure under the subscription's policy, and names no
// secret.
func TestOAuthFailures(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*authServer)
		want string
	}{
		{"client refused", func(a *authServer) { a.refuse = "invalid_client" }, `refused the token request: "invalid_client"`},
		{"another issuer", func(a *authServer) { a.issuer = "https://evil.example" }, "names another issuer"},
		// The authorization server's words are quoted bounded, and
		// without the secret it echoes in them.
		{"secret echoed", func(a *authServer) { a.refuse = "invalid_client: s3cret is not the secret" }, `refused the token request: "invalid_client: [credential] is not the secret"`},
		{"long error", func(a *authServer) { a.refuse = strings.Repeat("e", 5000) + " s3cret" }, "(the first 200 of "},
		{"secret as type", func(a *authServer) { a.typ = "s3cret" }, `issued a "[credential]" token, not a bearer token`},
		// The HTTP client's error quotes a header line it cannot read
		// whole: bounded, it keeps what follows far into it out.
		{"unreadable answer", func(a *authServer) {
			a.broken = "HTTP/1.1 200 OK\r\nX-Echo" + strings.Repeat("e", 64<<10) + " s3cret\r\n\r\n"
		}, "(the first 400 of "},
		// A 101's body is the connection, which no deadline bounds:
		// the call fails at once, not when the server lets go.
		{"switching protocols", func(a *authServer) {
			a.broken = "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n"
		}, "HTTP 101"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := newAuthServer(t)
			c.set(a)
			h := oauthHarness(t, a, "fail-open")
			var d *harness.Decision
			var err error
			within(t, func() { d, err = h.Intercept(context.Background(), toolCall("e", "ls", `{}`)) })
			if err != nil {
				t.Fatal(err)
			}
			f := d.Audit[0].Failure
			if d.Audit[0].Outcome != harness.OutcomeFailedOpen || f == nil || f.Class != harness.ClassAuth || !strings.Contains(f.Error(), c.want) {
				t.Fatalf("%s", recordsString(d.Audit))
			}
			if strings.Contains(f.Error(), "s3cret") || a.posts != 0 {
				t.Errorf("the failure names the secret, or the backend got the message: %v, %d posts", f, a.posts)
			}
		})
	}
}

// TestAuthorizer: a backend registered without authentication answers
// 401 with a Bearer challenge; the host's authorizer gets the challenge
// and gives a token, which the message carries at once and later calls
// reuse. Without an authorizer, or when it fails, the 401 is an
// authentication failure.
func TestAuthorizer(t *testing.T) {
	var posts atomic.Int32
	backend := raw(t, func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		if r.Header.Get("Authorization") != "Bearer granted-1" {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://hooks.example/.well-known/oauth-protected-resource", scope="hooks.intercept"`)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var req struct{ ID string }
		json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, result(req.ID, `{"type":"deny","reason":"checked"}`))
	})
	doc := registration(hook{"com.example.a", httpTransport(backend.URL), []string{intercept(`["tool.before"]`, 2000, "fail-open")}})
	var challenges []harness.Challenge
	h := build(t, doc, harness.WithAuthorizer(func(_ context.Context, c harness.Challenge) (string, error) {
		challenges = append(challenges, c)
		return "granted-1", nil
	}))
	deniedTwice(t, h)
	want := harness.Challenge{Backend: "com.example.a", URL: backend.URL, ResourceMetadata: "https://hooks.example/.well-known/oauth-protected-resource", Scope: "hooks.intercept"}
	if len(challenges) != 1 || challenges[0] != want || posts.Load() != 3 {
		t.Errorf("challenges %+v (want one, %+v), %d posts (want 3)", challenges, want, posts.Load())
	}

	for name, opts := range map[string][]harness.Option{
		"no authorizer": nil,
		"authorizer fails": {harness.WithAuthorizer(func(context.Context, harness.Challenge) (string, error) {
			return "", fmt.Errorf("the user declined")
		})},
	} {
		h := build(t, doc, opts...)
		d, err := h.Intercept(context.Background(), toolCall("e", "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if f := d.Audit[0].Failure; f == nil || f.Class != harness.ClassAuth {
			t.Errorf("%s: %s", name, recordsString(d.Audit))
		}
	}

	// The challenge is untrusted: a metadata URL that is not https (or
	// plain http to a loopback host) never reaches the authorizer.
	for _, meta := range []string{"http://169.254.169.254/latest/meta-data", "file:///etc/passwd", "/relative", "https://"} {
		backend := raw(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+meta+`"`)
			w.WriteHeader(http.StatusUnauthorized)
		})
		asked := false
		h := build(t, registration(hook{"com.example.a", httpTransport(backend.URL), []string{intercept(`["tool.before"]`, 2000, "fail-open")}}),
			harness.WithAuthorizer(func(context.Context, harness.Challenge) (string, error) { asked = true; return "t", nil }))
		d, _ := h.Intercept(context.Background(), toolCall("e", "ls", `{}`))
		if f := d.Audit[0].Failure; asked || f == nil || f.Class != harness.ClassAuth || !strings.Contains(f.Error(), "resource_metadata") {
			t.Errorf("resource_metadata %q: asked %v, %s", meta, asked, recordsString(d.Audit))
		}
	}
}

// TestBearerParams: the Bearer challenge's parameters, quoted or not,
// among other schemes.
func TestBearerParams(t *testing.T) {
	for _, c := range []struct {
		header []string
		want   map[string]string
	}{
		{[]string{`Bearer resource_metadata="https://r.example/m", scope="a b"`}, map[string]string{"resource_metadata": "https://r.example/m", "scope": "a b"}},
		{[]string{`Basic realm="x"`, `bearer scope=read, error="invalid_token"`}, map[string]string{"scope": "read", "error": "invalid_token"}},
		{[]string{`Bearer realm="a \"q\" b"`}, map[string]string{"realm": `a "q" b`}},
		{[]string{`Basic realm="x"`}, nil},
		// Several challenges in one value (RFC 9110 §11.6.1): "bearer" in
		// another challenge's parameters or scheme is not the Bearer one.
		{[]string{`Basic realm="bearer zone", Bearer resource_metadata="https://r.example/m"`}, map[string]string{"resource_metadata": "https://r.example/m"}},
		{[]string{`Basic realm="x", error="see bearer docs", Bearer scope=read`}, map[string]string{"scope": "read"}},
		{[]string{`Newbearer realm="a", Bearer scope=read, Basic realm="b"`}, map[string]string{"scope": "read"}},
		{[]string{`Negotiate abc==, Bearer resource_metadata = "https://r.example/m"`}, map[string]string{"resource_metadata": "https://r.example/m"}},
		{[]string{`Bearer`}, map[string]string{}},
	} {
		if got := harness.BearerParams(c.header); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: %v, want %v", c.header, got, c.want)
		}
	}
}

// TestAuthorizerOnce: deliveries that meet the challenge together ask the
// authorizer once: eight observations of one backend, in flight at once.
func TestAuthorizerOnce(t *testing.T) {
	var asked atomic.Int32
	release := make(chan struct{})
	backend := raw(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer granted-1" {
			<-release // every delivery meets the challenge before any is answered
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	records := make(chan harness.Record, 8)
	h := build(t, registration(hook{"com.example.o", httpTransport(backend.URL), []string{observe(`["tool.before"]`)}}),
		harness.WithAuthorizer(func(context.Context, harness.Challenge) (string, error) {
			asked.Add(1)
			return "granted-1", nil
		}),
		harness.WithAuditLog(func(_ context.Context, r harness.Record) { records <- r }))
	for i := range 8 {
		if err := h.Observe(context.Background(), toolCall(fmt.Sprint("e", i), "ls", `{}`)); err != nil {
			t.Fatal(err)
		}
	}
	close(release)
	for range 8 {
		select {
		case r := <-records:
			if r.Failure != nil {
				t.Errorf("a delivery failed: %s", r.String())
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the deliveries did not finish")
		}
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the authorizer was asked %d times, want once", n)
	}
}

// deniedTwice makes two calls, which the backend must deny (it was
// reached with a credential it accepts).
func deniedTwice(t *testing.T, h *harness.Harness) {
	t.Helper()
	for i := range 2 {
		d, err := h.Intercept(context.Background(), toolCall(fmt.Sprint("e", i), "ls", `{}`))
		if err != nil {
			t.Fatal(err)
		}
		if d.Permission != harness.PermissionDeny || d.Denial.Synthetic {
			t.Fatalf("call %d: %s", i, recordsString(d.Audit))
		}
	}
}

// TestAuthWithinDeadline: the subscription's deadline bounds the work of
// authenticating, not only the message (AHP-FAIL-002): an authorization
// server whose metadata or token endpoint does not answer, and a host
// authorizer that waits on its context, fail the intercept as a deadline
// failure within about its timeoutMs, under its failure policy; the
// backend never gets the message with a credential.
func TestAuthWithinDeadline(t *testing.T) {
	const timeoutMs = 300
	// hold keeps a request until the client leaves; bounded, should the
	// harness never leave.
	hold := func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body) // then the server notices the client leaving
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	var posts atomic.Int32 // messages that reached a backend
	// hanging is an authorization server whose metadata or token
	// endpoint (hang) never answers, and the backend it guards.
	hanging := func(hang string) (*httptest.Server, []harness.Option) {
		mux := http.NewServeMux()
		var base string
		mux.HandleFunc("GET /.well-known/oauth-authorization-server/tenant", func(w http.ResponseWriter, r *http.Request) {
			if hang == "metadata" {
				hold(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]string{"issuer": base + "/tenant", "token_endpoint": base + "/token"})
		})
		mux.HandleFunc("POST /token", hold) // no token is ever issued
		mux.HandleFunc("POST /hook", func(w http.ResponseWriter, r *http.Request) {
			posts.Add(1)
			w.WriteHeader(http.StatusUnauthorized)
		})
		s := httptest.NewTLSServer(mux)
		base = s.URL
		t.Cleanup(s.Close)
		return s, []harness.Option{harness.WithHTTPTransport(s.Client().Transport),
			harness.WithSecrets(func(context.Context, string) (string, error) { return "s3cret", nil })}
	}
	// challenger asks for a credential its registration does not
	// configure: the host's authorizer is asked.
	challenger := raw(t, func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		if r.Header.Get("Authorization") != "" {
			posts.Add(1)
		}
		w.Header().Set("WWW-Authenticate", `Bearer scope="hooks.intercept"`)
		w.WriteHeader(http.StatusUnauthorized)
	})
	waits := harness.WithAuthorizer(func(ctx context.Context, _ harness.Challenge) (string, error) {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(10 * time.Second): // bounded, should its context never end
			return "granted-late", nil
		}
	})
	for _, policy := range []string{"fail-open", "fail-closed"} {
		sub := intercept(`["tool.before"]`, timeoutMs, policy)
		for _, c := range []string{"token endpoint hangs", "metadata hangs", "authorizer waits"} {
			var doc []byte
			var opts []harness.Option
			switch c {
			case "authorizer waits":
				doc, opts = registration(hook{"com.example.a", httpTransport(challenger.URL), []string{sub}}), []harness.Option{waits}
			default:
				var s *httptest.Server
				s, opts = hanging(strings.Fields(c)[0])
				doc = []byte(strings.Replace(string(registration(hook{"com.example.a", httpTransport(s.URL + "/hook"), []string{sub}})), `"subscriptions"`,
					`"authentication":{"type":"oauth","issuer":"`+s.URL+`/tenant","resource":"https://hooks.example/api","clientId":"c","clientSecretRef":"vault:hook","flow":"client_credentials"},"subscriptions"`, 1))
			}
			posts.Store(0)
			h := build(t, doc, opts...)
			start := time.Now()
			d, err := h.Intercept(context.Background(), toolCall("e1", "ls", `{}`))
			el := time.Since(start)
			if err != nil {
				t.Fatalf("%s, %s: %v", c, policy, err)
			}
			if el > timeoutMs*time.Millisecond+3*time.Second {
				t.Errorf("%s, %s: took %v with timeoutMs %d", c, policy, el, timeoutMs)
			}
			r := d.Audit[0]
			if f := r.Failure; f == nil || f.Class != harness.ClassDeadline || !strings.Contains(f.Error(), fmt.Sprintf("timeoutMs %d", timeoutMs)) {
				t.Errorf("%s, %s: want a deadline failure:\n%s", c, policy, recordsString(d.Audit))
			}
			switch policy {
			case "fail-open":
				if r.Outcome != harness.OutcomeFailedOpen || d.Permission != harness.PermissionNone {
					t.Errorf("%s, %s: %s\n%s", c, policy, d.Permission, recordsString(d.Audit))
				}
			case "fail-closed":
				if r.Outcome != harness.OutcomeFailedClosed || !d.Denied() || !d.Denial.Synthetic {
					t.Errorf("%s, %s: %s\n%s", c, policy, d.Permission, recordsString(d.Audit))
				}
			}
			if n := posts.Load(); n != 0 {
				t.Errorf("%s, %s: the backend got the message %d times with a credential", c, policy, n)
			}
		}
	}
}
