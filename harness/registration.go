package harness

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/dispatch"
)

// Registration is a registration document that was read and checked: the
// snapshot its protocolVersion names, and its backends in document order
// (the order interceptors run in).
type Registration struct {
	// Name is where the document came from (its file name), for errors.
	Name string
	// Snapshot is the generated package the document's protocolVersion
	// names: requests to its backends carry that version.
	Snapshot *ahpimpl.Snapshot
	// Backends are the document's hooks, in order.
	Backends []*Backend
}

// Backend is one entry of a registration's hooks.
type Backend struct {
	// ID is the backend's reverse-DNS id, unique in the document.
	ID string
	// Pointer is the backend's JSON Pointer in the document ("/hooks/0").
	Pointer string
	// Exactly one of HTTP and Stdio is set.
	HTTP  *HTTPTransport
	Stdio *StdioTransport
	// Auth is the backend's authentication, nil when it has none.
	Auth *Auth
	// Subscriptions are the backend's subscriptions, in order.
	Subscriptions []*Subscription
}

// HTTPTransport is a backend reached by HTTP POST.
type HTTPTransport struct {
	URL *url.URL
}

// StdioTransport is a backend run as a local process: Command with Args,
// run directly (never through a shell), in Dir when it is set.
//
// On Unix each backend process is the leader of a process group of its
// own, and the harness kills the whole group: what the backend starts ends
// with it, when a per-event backend has exited (its reply read) or missed
// its deadline, and when a persistent backend ends (it crashed, was
// terminated, or Close ended it: after EOF, or by a kill after the grace
// period). A process that leaves the group (setsid, setpgid) is beyond
// its reach, and a backend in a group of its own gets no signal meant for
// the harness's (a Ctrl-C at a terminal). Elsewhere only the backend
// process itself is killed.
type StdioTransport struct {
	Command string
	Args    []string
	Dir     string
	// PerEvent is the per_event lifecycle (a process per message);
	// otherwise persistent (one process for many messages).
	PerEvent bool
}

// Auth is an HTTP backend's authentication. The harness sends a bearer
// token: for type "bearer", one read at dispatch from the environment
// (TokenEnv) or from the host's secret store (TokenRef, see WithSecrets);
// for type "oauth" with the client_credentials flow, one it obtains from
// the issuer's token endpoint with the client secret ClientSecretRef names
// in the secret store. Other types and flows (authorization_code_pkce,
// which needs a user) are refused when the harness is built.
type Auth struct {
	Type     string // "bearer", "oauth", ...
	TokenEnv string
	TokenRef string
	// OAuth: the authorization server's issuer URL, the resource the
	// token is for, the client's id and the reference of its secret, the
	// grant ("client_credentials", "authorization_code_pkce") and the
	// scopes asked for.
	Issuer, Resource, ClientID, ClientSecretRef, Flow string
	Scopes                                            []string
}

// Mode is how a subscription receives events.
type Mode string

// The subscription modes.
const (
	ModeIntercept Mode = "intercept" // hooks/intercept: the backend decides
	ModeObserve   Mode = "observe"   // hooks/observe: the backend is told
)

// Policy is what an intercept subscription's operational failure does to
// the operation: fail-open continues without the backend, fail-closed
// denies it (AHP-FAIL-001). A registration always names one: there is no
// default.
type Policy string

// The failure policies.
const (
	FailOpen   Policy = "fail-open"
	FailClosed Policy = "fail-closed"
)

// Subscription is one of a backend's subscriptions.
type Subscription struct {
	// Backend is the subscription's backend.
	Backend *Backend
	// Pointer is its JSON Pointer ("/hooks/0/subscriptions/1"): what the
	// audit names it by.
	Pointer string
	Mode    Mode
	// Events are its event names: exact types, families ("tool.*") or
	// "*", as written.
	Events []string
	// Timeout and Policy are an intercept subscription's deadline and
	// failure policy (zero for observe).
	Timeout time.Duration
	Policy  Policy
	// IncludeNative is whether events keep their native member; without
	// it, or with a content selection that withholds any part, the
	// harness leaves native out of what it sends: native is opaque, and
	// may hold copies of the content withheld (AHP-CONTENT-002).
	IncludeNative bool
	// Content is the subscription's content selection (nil in snapshots
	// without one): each content part of an event it receives is sent
	// whole, as metadata or omitted, by its category.
	Content *ContentSelection
	// UploadEndpoint is where the subscription's receiver takes attachment
	// bytes (upload.endpoint; "" without). This harness does not upload
	// (content-upload.md): each attachment the subscription would get
	// whole is sent as a gap instead, since the only reference it could
	// carry is one this receiver never allocated.
	UploadEndpoint string
}

// Matches reports whether the subscription names event type typ: exactly,
// by its family ("tool.*" names every "tool." type), or by "*".
func (s *Subscription) Matches(typ string) bool {
	for _, e := range s.Events {
		if matches(e, typ) {
			return true
		}
	}
	return false
}

func matches(pattern, typ string) bool {
	switch {
	case pattern == "*":
		return true
	case strings.HasSuffix(pattern, ".*"):
		return strings.HasPrefix(typ, pattern[:len(pattern)-1])
	}
	return pattern == typ
}

// overlap reports whether two event names can match one event type.
func overlap(a, b string) bool {
	family := func(p string) (string, bool) {
		if strings.HasSuffix(p, ".*") {
			return p[:len(p)-1], true
		}
		return "", false
	}
	if a == "*" || b == "*" || a == b {
		return true
	}
	fa, wa := family(a)
	fb, wb := family(b)
	switch {
	case wa && wb:
		return fa == fb
	case wa:
		return strings.HasPrefix(b, fa)
	case wb:
		return strings.HasPrefix(a, fb)
	}
	return false
}

// ConfigError is a registration the harness refuses: the file, the JSON
// Pointer of the offending member and why.
type ConfigError struct {
	File    string
	Pointer string
	Reason  string
	// Err is the cause, when there is one (the generated check's
	// *ahprt.Error, a read error).
	Err error
}

func (e *ConfigError) Error() string {
	p := e.Pointer
	if p == "" {
		p = "(document)"
	}
	s := e.File + ": " + p + ": " + e.Reason
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *ConfigError) Unwrap() error { return e.Err }

// LoadFile reads and checks the registration document at path (see Load).
func LoadFile(path string, snapshots ...*ahpimpl.Snapshot) (*Registration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ConfigError{File: path, Reason: "cannot read the registration", Err: err}
	}
	return Load(path, data, snapshots...)
}

// Load checks a registration document (name is its file name, for errors)
// and reads it. Its protocolVersion picks the snapshot, among snapshots
// (by default every snapshot built into ahpgen, gen/dispatch.Snapshots),
// whose generated registration check must accept the whole document.
// Then, what no schema states: backend ids are unique; no backend has two
// subscriptions of one mode that can match the same event (the spec's
// ambiguous duplicates: "tool.*" and "tool.before" are); plain http
// URLs name a loopback host; and no authentication object holds a literal
// credential (token, bearerToken, value, password, clientSecret: secrets
// are named by tokenEnv, tokenRef or clientSecretRef). Every refusal is a *ConfigError naming the
// file and the member's JSON Pointer; nothing is skipped.
func Load(name string, data []byte, snapshots ...*ahpimpl.Snapshot) (*Registration, error) {
	if len(snapshots) == 0 {
		snapshots = dispatch.Snapshots
	}
	fail := func(pointer, reason string, err error) (*Registration, error) {
		return nil, &ConfigError{File: name, Pointer: pointer, Reason: reason, Err: err}
	}
	d, err := ahpimpl.Parse(data, ahprt.Limits{})
	if err != nil {
		var ae *ahprt.Error
		p := ""
		if errors.As(err, &ae) {
			p = ae.Pointer
		}
		return fail(p, "not a JSON document", err)
	}
	vn, ok := d.Member(d.Root(), "protocolVersion")
	if !ok || d.Kind(vn) != ahpimpl.KindString {
		return fail("/protocolVersion", "missing or not a string", nil)
	}
	version := d.Text(vn)
	var snap *ahpimpl.Snapshot
	var supported []string
	for _, s := range snapshots {
		supported = append(supported, strconv.Quote(s.WireVersion))
		if s.WireVersion == version {
			snap = s
		}
	}
	if snap == nil {
		return fail("/protocolVersion", "unsupported protocol version "+strconv.Quote(version)+" (supported: "+strings.Join(supported, ", ")+")", nil)
	}
	entry, ok := snap.Entry("registration.schema.json#")
	if !ok {
		return fail("", "snapshot "+snap.Key+" has no registration schema", nil)
	}
	if err := entry.Check(data); err != nil {
		var ae *ahprt.Error
		p := ""
		if errors.As(err, &ae) {
			p = ae.Root().Pointer
		}
		return fail(p, "not a valid "+snap.Key+" registration", err)
	}
	r := &Registration{Name: name, Snapshot: snap}
	hooks, _ := d.Member(d.Root(), "hooks")
	ids := map[string]string{}
	for it := d.Items(hooks); it.Next(); {
		b, err := readBackend(d, it.Item(), "/hooks/"+strconv.Itoa(it.Index()))
		if err != nil {
			err.File = name
			return nil, err
		}
		if first, dup := ids[b.ID]; dup {
			return fail(b.Pointer+"/id", "backend id "+strconv.Quote(b.ID)+" is already used by "+first, nil)
		}
		ids[b.ID] = b.Pointer
		r.Backends = append(r.Backends, b)
	}
	return r, nil
}

// readBackend reads a backend the generated check accepted; what it
// refuses is what no schema states.
func readBackend(d *ahpimpl.Doc, n ahpimpl.Node, at string) (*Backend, *ConfigError) {
	b := &Backend{Pointer: at}
	idn, _ := d.Member(n, "id")
	b.ID = d.Text(idn)
	tn, _ := d.Member(n, "transport")
	typ, _ := d.Member(tn, "type")
	switch d.Text(typ) {
	case "http":
		un, _ := d.Member(tn, "url")
		u, err := url.Parse(d.Text(un))
		if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
			return nil, &ConfigError{Pointer: at + "/transport/url", Reason: "not an absolute http or https URL", Err: err}
		}
		if u.User != nil {
			return nil, &ConfigError{Pointer: at + "/transport/url", Reason: "credentials in a URL are not allowed (use authentication)"}
		}
		if u.Scheme == "http" && !loopback(u.Hostname()) {
			return nil, &ConfigError{Pointer: at + "/transport/url", Reason: "plain http is for loopback hosts only: use https"}
		}
		b.HTTP = &HTTPTransport{URL: u}
	case "stdio":
		s := &StdioTransport{}
		cn, _ := d.Member(tn, "command")
		s.Command = d.Text(cn)
		if an, ok := d.Member(tn, "args"); ok {
			for it := d.Items(an); it.Next(); {
				s.Args = append(s.Args, d.Text(it.Item()))
			}
		}
		if dn, ok := d.Member(tn, "cwd"); ok {
			s.Dir = d.Text(dn)
		}
		ln, _ := d.Member(tn, "lifecycle")
		s.PerEvent = d.Text(ln) == "per_event"
		b.Stdio = s
	default:
		return nil, &ConfigError{Pointer: at + "/transport/type", Reason: "unknown transport"}
	}
	if an, ok := d.Member(n, "authentication"); ok {
		if b.Stdio != nil {
			return nil, &ConfigError{Pointer: at + "/authentication", Reason: "authentication applies to http transports only"}
		}
		a := &Auth{}
		for m := d.Members(an); m.Next(); {
			switch m.Key() {
			case "type":
				a.Type = d.Text(m.Value())
			case "tokenEnv":
				a.TokenEnv = d.Text(m.Value())
			case "tokenRef":
				a.TokenRef = d.Text(m.Value())
			case "issuer":
				a.Issuer = d.Text(m.Value())
			case "resource":
				a.Resource = d.Text(m.Value())
			case "clientId":
				a.ClientID = d.Text(m.Value())
			case "clientSecretRef":
				a.ClientSecretRef = d.Text(m.Value())
			case "flow":
				a.Flow = d.Text(m.Value())
			case "scopes":
				for it := d.Items(m.Value()); it.Next(); {
					a.Scopes = append(a.Scopes, d.Text(it.Item()))
				}
			case "token", "bearerToken", "value", "password", "clientSecret":
				// A literal credential: the members the 0.1 schema banned
				// (token, bearerToken, value) and the obvious others. The
				// draft schema leaves authentication open, so its check
				// accepts them, but a registration must not hold a secret
				// (upstream fixture registration.literal-token.invalid,
				// AHP-SEC-001): it is a file meant to be shared and
				// reviewed. The value is neither read nor echoed.
				return nil, &ConfigError{Pointer: at + "/authentication/" + m.Key(),
					Reason: "a literal credential in a registration is not allowed: name it with tokenEnv or tokenRef (clientSecretRef for OAuth)"}
			}
		}
		b.Auth = a
	}
	sn, _ := d.Member(n, "subscriptions")
	for it := d.Items(sn); it.Next(); {
		s, err := readSubscription(d, it.Item(), at+"/subscriptions/"+strconv.Itoa(it.Index()))
		if err != nil {
			return nil, err
		}
		s.Backend = b
		// Ambiguous duplicates: the same backend twice for one event and
		// mode (composition.md). Both modes together are allowed.
		for _, prev := range b.Subscriptions {
			if prev.Mode != s.Mode {
				continue
			}
			for i, e := range s.Events {
				for _, f := range prev.Events {
					if overlap(e, f) {
						return nil, &ConfigError{Pointer: s.Pointer + "/events/" + strconv.Itoa(i),
							Reason: fmt.Sprintf("%q overlaps %q of %s: backend %s would get one %s event twice", e, f, prev.Pointer, b.ID, s.Mode)}
					}
				}
			}
		}
		b.Subscriptions = append(b.Subscriptions, s)
	}
	return b, nil
}

func readSubscription(d *ahpimpl.Doc, n ahpimpl.Node, at string) (*Subscription, *ConfigError) {
	s := &Subscription{Pointer: at}
	for m := d.Members(n); m.Next(); {
		v := m.Value()
		switch m.Key() {
		case "mode":
			s.Mode = Mode(d.Text(v))
		case "events":
			for it := d.Items(v); it.Next(); {
				s.Events = append(s.Events, d.Text(it.Item()))
			}
		case "timeoutMs":
			ms, ok := ahprt.Number(d.Raw(v)).Int64()
			if !ok || ms < 1 {
				return nil, &ConfigError{Pointer: at + "/timeoutMs", Reason: "not a positive integer of milliseconds"}
			}
			s.Timeout = time.Duration(min(ms, math.MaxInt64/int64(time.Millisecond))) * time.Millisecond
		case "failurePolicy":
			s.Policy = Policy(d.Text(v))
		case "includeNative":
			s.IncludeNative = d.Bool(v)
		case "upload":
			if e, ok := d.Member(v, "endpoint"); ok {
				s.UploadEndpoint = d.Text(e)
			}
		case "content":
			s.Content = &ContentSelection{Categories: map[string]Disposition{}}
			for c := d.Members(v); c.Next(); {
				if c.Key() == "default" {
					s.Content.Default = Disposition(d.Text(c.Value()))
				} else {
					s.Content.Categories[c.Key()] = Disposition(d.Text(c.Value()))
				}
			}
		}
	}
	switch s.Mode {
	case ModeIntercept:
		if s.Timeout == 0 || (s.Policy != FailOpen && s.Policy != FailClosed) {
			return nil, &ConfigError{Pointer: at, Reason: "an intercept subscription needs timeoutMs and failurePolicy"}
		}
	case ModeObserve:
		if s.Timeout != 0 || s.Policy != "" {
			return nil, &ConfigError{Pointer: at, Reason: "an observe subscription takes neither timeoutMs nor failurePolicy"}
		}
	default:
		return nil, &ConfigError{Pointer: at + "/mode", Reason: "unknown mode"}
	}
	return s, nil
}

// loopback reports whether host (a URL's host name, without port) is a
// loopback address or "localhost": the only hosts the harness reaches over
// plain http.
func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
