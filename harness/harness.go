package harness

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/edit"
	"github.com/ahpgen/ahpgen/internal/quote"
	"github.com/ahpgen/ahpgen/offer"
)

const (
	methodIntercept = "hooks/intercept"
	methodObserve   = "hooks/observe"
)

// Event is an event to send: any generated value of the registration's
// snapshot (a *draft.ToolBeforeEvent), or its JSON as an ahprt.Value.
type Event interface{ AppendJSON(b []byte) []byte }

// Harness calls the backends of one registration. It is safe for
// concurrent use: each Intercept runs its own chain (a persistent stdio
// backend still answers one intercept at a time, and the time a call
// waits for another's counts against its subscription's timeoutMs).
type Harness struct {
	reg    *Registration
	snap   *ahpimpl.Snapshot
	opts   options
	edit   *edit.Editor
	conns  map[*Backend]conn
	caps   sync.Map // event type → *offered: configured, or the default
	checks struct {
		// part checks a content part (nil when the snapshot has none):
		// content selection applies only to what it accepts.
		request, notify, part func([]byte, ...ahprt.Option) error
	}
	observers chan struct{} // observer slots
	wg        sync.WaitGroup
	mu        sync.RWMutex // held for reading while sending; Close takes it to write
	closed    atomic.Bool
}

type options struct {
	caps           map[string][]byte
	capsErr        error
	secrets        func(ctx context.Context, ref string) (string, error)
	redirects      map[string]bool
	retries        int
	backoff        time.Duration
	observeWait    time.Duration
	observers      int
	stderr         io.Writer
	env            []string
	roundTripper   http.RoundTripper
	maxReply       int64
	decode         []ahprt.Option
	audit          func(context.Context, Record)
	authorize      func(context.Context, Challenge) (string, error)
	terminateAfter int

	// deadline makes the context of an intercept's deadline (the
	// subscription's timeoutMs): context.WithTimeout. It is not an
	// Option: the tests replace it (export_test.go) so that a deadline
	// passes when they say, not when the clock does, and what happens at
	// the deadline does not depend on how fast a loaded machine gets there.
	deadline func(context.Context, time.Duration) (context.Context, context.CancelFunc)
}

// Option configures a Harness.
type Option func(*options)

// WithCapabilities sets what the host advertises with every event of type
// eventType, unless a call says otherwise (see Offer): a capabilities value
// of the registration's snapshot (a *draft.Capabilities) or its JSON
// (ahprt.Value).
//
// New fails, as does a call given an Offer with the same faults, for
//   - an eventType that is not an interceptable event type of the snapshot
//     (an unknown or observe-only type, a family such as "tool.*");
//   - capabilities the snapshot's capability bounds reject for the event,
//     or, for tool.before, capabilities without deny (AHP-CAP-002);
//   - an offer the harness cannot apply: an experimental effect type, or a
//     modify target or operation, flow operation or delivery point of a
//     snapshot newer than the kit;
//   - flow counters that leave more continuations than maxContinuations
//     less continuationCount allows.
//
// The capabilities must advertise only what the host enforces: the harness
// applies every effect it accepts to the Decision, and the host must then
// honor the Decision. Without this option an event type is offered deny
// where the event allows one, and nothing otherwise.
func WithCapabilities(eventType string, capabilities Event) Option {
	return func(o *options) {
		if o.caps == nil {
			o.caps = map[string][]byte{}
		}
		if capabilities == nil {
			if o.capsErr == nil {
				o.capsErr = fmt.Errorf("harness: capabilities for %s: nil", eventType)
			}
			return
		}
		b, err := compact(capabilities.AppendJSON(nil))
		if err != nil && o.capsErr == nil {
			o.capsErr = fmt.Errorf("harness: capabilities for %s: %w", eventType, err)
		}
		o.caps[eventType] = b
	}
}

// WithSecrets resolves a bearer authentication's tokenRef and an OAuth
// client's clientSecretRef when they are needed. A registration with
// either is refused without it.
func WithSecrets(resolve func(ctx context.Context, ref string) (string, error)) Option {
	return func(o *options) { o.secrets = resolve }
}

// WithRedirects lets the HTTP backends with these ids be redirected (307
// and 308 only, keeping the POST; to https or a loopback host; never to
// another origin while sending a credential; at most 5 hops). Without it a
// redirect is an operational failure (its status is not 200), and so is a
// redirect it does not follow (a 303, say), which is not retried.
func WithRedirects(backendIDs ...string) Option {
	return func(o *options) {
		if o.redirects == nil {
			o.redirects = map[string]bool{}
		}
		for _, id := range backendIDs {
			o.redirects[id] = true
		}
	}
}

// WithRetries resends an intercept request up to n more times after a
// failure a retry can mend (a connection or process failure, a 5xx or 429
// status, -32003 backend unavailable), byte for byte (the same event id
// and request id), waiting backoff between attempts, and only while the
// subscription's deadline leaves time. A reply is never retried: not a
// deny, not an empty one, not one that was refused. The default is no
// retry. Apart from these, a request whose persistent stdio process
// (started before it) ends without answering goes once more, at once, to
// a new process: that process may have ended before reading it.
func WithRetries(n int, backoff time.Duration) Option {
	return func(o *options) { o.retries, o.backoff = n, backoff }
}

// WithObservers bounds observation: at most n hooks/observe deliveries in
// flight (default 64; one more is dropped, and the audit log says so),
// each within timeout (default 5s). An n or a timeout of 0 or less is the
// default.
func WithObservers(n int, timeout time.Duration) Option {
	return func(o *options) { o.observers, o.observeWait = n, timeout }
}

// WithStderr receives what stdio backends write to their standard error
// (default: discarded). Backends that run at once write to it one Write
// at a time, so w need not be safe for concurrent use; an *os.File is
// handed to the processes as it is.
func WithStderr(w io.Writer) Option { return func(o *options) { o.stderr = w } }

// WithEnv is the environment of stdio backend processes. The default is
// small: PATH, HOME, TMPDIR, LANG and the LC_ variables of the harness's
// own environment (stdio.md: the smallest practical environment; never a
// credential).
func WithEnv(env []string) Option { return func(o *options) { o.env = env } }

// WithHTTPTransport is the round tripper HTTP backends are reached with
// (a TLS configuration with the deployment's trust roots, say). The
// default is a clone of http.DefaultTransport that keeps up to 64 idle
// connections a backend and reads at most 1 MiB of a reply's headers.
func WithHTTPTransport(rt http.RoundTripper) Option {
	return func(o *options) { o.roundTripper = rt }
}

// maxReplyHeaderBytes bounds an HTTP reply's header block on the default
// transport.
const maxReplyHeaderBytes = 1 << 20

// The defaults of WithObservers' n and of WithMaxReplyBytes.
const (
	defaultObservers = 64
	defaultMaxReply  = 4 << 20
)

// WithMaxReplyBytes bounds a reply's size (default 4 MiB; 0 or less is the
// default): a longer one is malformed. It is the decoder's byte limit too,
// unless WithDecodeOptions sets one.
func WithMaxReplyBytes(n int64) Option { return func(o *options) { o.maxReply = n } }

// WithDecodeOptions passes options to every decode of a reply
// (ahprt.WithMode(ahprt.StrictAll) refuses unknown members everywhere:
// a test of backends, since AHP-CORE-003 has a receiver ignore unknown
// members of open objects).
func WithDecodeOptions(opts ...ahprt.Option) Option {
	return func(o *options) { o.decode = append(o.decode, opts...) }
}

// WithAuthorizer answers a Challenge: an HTTP backend whose registration
// configures no authentication answered 401. AHP reads a missing
// authentication as OAuth protected-resource discovery (RFC 9728), which
// may need a user at a browser and a client registration: authorize does
// that, within the call's deadline, and returns an access token. The
// message then goes once more with it, and the token is kept for that
// backend until the backend refuses it. An error, or an empty token, is
// an authentication failure. Without an authorizer, such a 401 is one.
// The challenge is the backend's, untrusted: a ResourceMetadata that is
// not an https URL (or plain http to a loopback host) fails the call
// without asking authorize, and which hosts authorize may fetch metadata
// from is the host's policy (capability-auth.md: SSRF).
func WithAuthorizer(authorize func(ctx context.Context, c Challenge) (token string, err error)) Option {
	return func(o *options) { o.authorize = authorize }
}

// WithAuditLog receives every record as it is made: the chain's (which the
// Decision also carries) and the observers' (which it cannot, being sent
// after it).
// f runs on the goroutine that made the record (the call's, or an
// observer's in the background), so concurrently; it must not call Close,
// which waits for that call or observer to end and so would wait forever.
func WithAuditLog(f func(context.Context, Record)) Option {
	return func(o *options) { o.audit = f }
}

// New builds a harness over a registration: a connection per backend
// (HTTP clients; stdio processes start at their first message). It refuses
// what it cannot honor: an authentication it cannot send (oauth, mtls,
// workload; a tokenRef without WithSecrets), observe subscriptions in a
// snapshot without hooks/observe, capabilities for an event type the
// snapshot does not intercept or not valid for their event.
func New(reg *Registration, opts ...Option) (*Harness, error) {
	h := &Harness{reg: reg, snap: reg.Snapshot, conns: map[*Backend]conn{}}
	h.opts = options{observeWait: 5 * time.Second, observers: defaultObservers, maxReply: defaultMaxReply, terminateAfter: 3, deadline: context.WithTimeout}
	for _, o := range opts {
		if o != nil { // an option a program left unset, as the decoders allow
			o(&h.opts)
		}
	}
	if h.opts.capsErr != nil {
		return nil, h.opts.capsErr
	}
	if h.opts.observers <= 0 {
		h.opts.observers = defaultObservers
	}
	if h.opts.maxReply <= 0 {
		// As backend.WithMaxBytes: no limit of 0 or less refuses every reply.
		h.opts.maxReply = defaultMaxReply
	}
	// A reply is read up to one byte past the limit, to tell a longer one:
	// the largest int64 would overflow into a limit that refuses all.
	h.opts.maxReply = min(h.opts.maxReply, math.MaxInt64-1)
	// A reply's decoder has the same byte limit, unless WithDecodeOptions
	// sets one: its own default (ahprt.Limits) would refuse a reply the
	// limit lets through.
	h.opts.decode = append(slices.Clip(h.opts.decode), ahpimpl.MaxBytesUnlessSet(h.opts.maxReply))
	if h.opts.observeWait <= 0 {
		// A delivery with no time at all would fail before it is sent.
		h.opts.observeWait = 5 * time.Second
	}
	if h.opts.env == nil {
		h.opts.env = smallEnv()
	}
	switch w := h.opts.stderr.(type) {
	case nil:
		h.opts.stderr = io.Discard
	case *os.File:
		// The processes write to the file themselves.
	default:
		if w != io.Discard {
			// os/exec copies each process's standard error to w from a
			// goroutine of its own: with backends running at once
			// (observers, several harness calls) those would write to
			// w concurrently.
			h.opts.stderr = &lockedWriter{w: w}
		}
	}
	h.edit = edit.New(h.snap)
	h.observers = make(chan struct{}, h.opts.observers)
	req, ok := h.snap.Entry("intercept-request.schema.json#")
	if !ok {
		return nil, fmt.Errorf("harness: snapshot %s has no intercept request schema", h.snap.Key)
	}
	h.checks.request = req.Check
	if n, ok := h.snap.Entry("observe-notification.schema.json#"); ok && hasNotification(h.snap, methodObserve) {
		h.checks.notify = n.Check
	}
	if p, ok := h.snap.Entry(locPart); ok {
		h.checks.part = p.Check
	}
	cfg := func(pointer, reason string) error {
		return &ConfigError{File: reg.Name, Pointer: pointer, Reason: reason}
	}
	for _, b := range reg.Backends {
		for _, s := range b.Subscriptions {
			if s.Mode == ModeObserve && h.checks.notify == nil {
				return nil, cfg(s.Pointer, "snapshot "+h.snap.Key+" defines no hooks/observe: this subscription cannot be served")
			}
		}
		if a := b.Auth; a != nil {
			switch {
			case a.Type == "oauth" && a.Flow != "client_credentials":
				return nil, cfg(b.Pointer+"/authentication/flow", "OAuth flow "+strconv.Quote(a.Flow)+" needs a user at a browser; this harness runs client_credentials only: nothing would be sent")
			case a.Type == "oauth" && a.ClientSecretRef == "":
				return nil, cfg(b.Pointer+"/authentication", "OAuth client_credentials needs the client's secret: clientSecretRef")
			case a.Type == "oauth" && h.opts.secrets == nil:
				return nil, cfg(b.Pointer+"/authentication/clientSecretRef", "a clientSecretRef needs a secret store: harness.WithSecrets")
			case a.Type != "bearer" && a.Type != "oauth":
				return nil, cfg(b.Pointer+"/authentication", "authentication "+strconv.Quote(a.Type)+" is not supported by this harness (bearer and OAuth client_credentials only): nothing would be sent")
			case a.TokenRef != "" && h.opts.secrets == nil:
				return nil, cfg(b.Pointer+"/authentication/tokenRef", "a tokenRef needs a secret store: harness.WithSecrets")
			}
		}
	}
	for _, typ := range slices.Sorted(maps.Keys(h.opts.caps)) {
		caps := h.opts.caps[typ]
		if err := h.interceptable(typ); err != nil {
			return nil, err
		}
		if err := h.checkCaps(typ, caps); err != nil {
			return nil, err
		}
		o, err := offer.Parse(caps)
		if err != nil {
			return nil, fmt.Errorf("harness: the capabilities for %s: %w", typ, err)
		}
		h.caps.Store(typ, &offered{raw: caps, offer: o})
	}
	rt := h.opts.roundTripper
	if rt == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		// net/http's default (10 MiB) would let each attempt hold ten
		// megabytes of a backend's headers, outside WithMaxReplyBytes;
		// an AHP reply needs a few hundred bytes of them.
		t.MaxResponseHeaderBytes = maxReplyHeaderBytes
		rt = t
	}
	for _, b := range reg.Backends {
		switch {
		case b.HTTP != nil:
			h.conns[b] = newHTTPConn(h, b, rt)
		case b.Stdio.PerEvent:
			h.conns[b] = &perEventConn{h: h, b: b}
		default:
			h.conns[b] = newPersistentConn(h, b)
		}
	}
	return h, nil
}

// offered is capabilities to advertise, read.
type offered struct {
	raw   []byte
	offer offer.Offer
}

// capabilities is what an event type is offered: what the host
// configured, or deny where the event allows it and nothing otherwise.
func (h *Harness) capabilities(typ string) *offered {
	if o, ok := h.caps.Load(typ); ok {
		return o.(*offered)
	}
	raw := []byte(`{"effects":["deny"]}`)
	if en, ok := h.snap.Entry(edit.Bounds + typ); ok && en.Check(raw) != nil {
		raw = []byte(`{"effects":[]}`)
	}
	o, _ := offer.Parse(raw)
	got, _ := h.caps.LoadOrStore(typ, &offered{raw: raw, offer: o})
	return got.(*offered)
}

// interceptable checks the event type of WithCapabilities: one the
// snapshot intercepts, where it says which (the event types its
// hooks/intercept request takes). Capabilities for another type would
// never be sent: a misspelt type would leave its events the default offer.
func (h *Harness) interceptable(typ string) error {
	m, ok := h.snap.Request(methodIntercept)
	if !ok || m.Events == nil || slices.Contains(m.Events, typ) {
		return nil
	}
	if n, ok := h.snap.Notification(methodObserve); ok && slices.Contains(n.Events, typ) {
		return fmt.Errorf("harness: WithCapabilities(%q): %s is not interceptable in snapshot %s (observe only): no request would carry these capabilities", typ, typ, h.snap.Key)
	}
	return fmt.Errorf("harness: WithCapabilities(%q): snapshot %s has no event type %q", typ, h.snap.Key, typ)
}

// checkCaps checks capabilities configured for an event type: a request
// carrying them must be valid but for the event (the snapshot's bounds for
// the event type, or its capabilities schema when it has none).
func (h *Harness) checkCaps(typ string, caps []byte) error {
	loc := edit.Bounds + typ
	en, ok := h.snap.Entry(loc)
	if !ok {
		loc = "capabilities.schema.json#"
		en, ok = h.snap.Entry(loc)
	}
	if !ok {
		return nil
	}
	if err := en.Check(caps); err != nil {
		return fmt.Errorf("harness: the capabilities for %s are not valid (%s): %w", typ, loc, err)
	}
	// An offer is a promise to apply: what this harness has no meaning
	// for (an experimental effect type, a modify target or operation, a
	// flow operation or delivery point of a snapshot newer than the kit)
	// would fail every reply that took the offer up.
	if o, err := offer.Parse(caps); err == nil {
		for _, t := range o.Effects() {
			if !t.Standard() {
				return fmt.Errorf("harness: the capabilities for %s offer effect %s, which this harness cannot apply (it applies the standard effect types: package offer's): every reply using it would fail", typ, quote.Peer(string(t)))
			}
		}
		if u := o.Unknown(); len(u) > 0 {
			return fmt.Errorf("harness: the capabilities for %s offer %s, which this harness cannot apply (package offer does not know it): every reply using it would fail", typ, strings.Join(u, ", "))
		}
		// The schema asks of the flow counters only that each be an
		// integer >= 0, and AHP's text gives them no relation. Read as
		// what they name, maxContinuations bounds the continuations,
		// continuationCount is how many there were, and at most their
		// difference can remain: counters beyond it (a count at the
		// maximum with continuations still remaining) promise a backend
		// a continue the maximum forbids. Which counter the host meant is
		// not the harness's to guess, and the offer would take a continue
		// up past the maximum: it is refused as any invalid or ambiguous
		// configuration is (conformance base profile).
		if remaining, count, max := o.Continuations(); max >= 0 && remaining > 0 && (count >= uint64(max) || remaining > uint64(max)-count) {
			return fmt.Errorf("harness: the capabilities for %s are not consistent: remainingContinuations %d is more than maxContinuations %d less continuationCount %d allows", typ, remaining, max, count)
		}
	}
	// AHP-CAP-002: a harness that intercepts tool.before advertises (and
	// enforces) deny there, wherever its snapshot lets it.
	if typ == "tool.before" && en.Check([]byte(`{"effects":["deny"]}`)) == nil {
		if o, err := offer.Parse(caps); err == nil && !o.Offers(offer.Deny) {
			return fmt.Errorf("harness: the capabilities for %s do not offer deny: a harness intercepting %s must advertise and enforce it (AHP-CAP-002)", typ, typ)
		}
	}
	return nil
}

// smallEnv is the default environment of stdio backends.
func smallEnv() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "SYSTEMROOT"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// Registration is the registration the harness runs.
func (h *Harness) Registration() *Registration { return h.reg }

// ErrClosed is what Intercept and Observe return once Close has begun.
var ErrClosed = errors.New("harness: closed")

// Close stops the harness: it waits for the observers in flight (each
// bounded by its timeout), ends every persistent stdio backend process
// and reaps it. A backend gets EOF on its standard input and 2 s to exit;
// then its process group is killed (see StdioTransport), and what is
// left of its output is read until it has been idle for 250 ms: a backend
// that ignores EOF holds Close about 2.25 s. Backends are ended side by
// side, so several such backends hold it about as long as one.
// Calls made once Close has begun, an audit callback's included, return
// ErrClosed; Close waits for the calls in flight. It does not cancel them:
// each runs its chain to the end, within its subscriptions' timeouts (on a
// persistent stdio backend, behind the intercepts queued before it), so
// Close may wait as long as the slowest; a host that must stop sooner
// cancels the calls' contexts first (ErrInterrupted).
func (h *Harness) Close() error {
	if h.closed.Swap(true) {
		return nil
	}
	h.mu.Lock() // no call is sending anymore
	defer h.mu.Unlock()
	h.wg.Wait()
	// The backends end side by side: each may take its grace period.
	errs := make([]error, len(h.reg.Backends))
	var wg sync.WaitGroup
	for i, b := range h.reg.Backends {
		wg.Go(func() {
			if err := h.conns[b].close(); err != nil {
				errs[i] = fmt.Errorf("backend %s: %w", b.ID, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// enter starts a call (Intercept, Observe): it takes h.mu for reading
// and reports true, or reports false, holding nothing, when the harness
// is closed or closing. Only Close takes h.mu for writing, so a read lock
// that cannot be had now means Close holds it or waits for it; waiting
// too would deadlock a call made from an audit callback of an observer
// or of a chain in flight, which Close waits for (and Go's read locks
// are not reentrant once a writer waits).
func (h *Harness) enter() bool {
	if !h.mu.TryRLock() {
		return false
	}
	if h.closed.Load() { // Close begins by setting it, then takes h.mu
		h.mu.RUnlock()
		return false
	}
	return true
}

func (h *Harness) log(ctx context.Context, r Record) {
	if h.opts.audit != nil {
		h.opts.audit(ctx, r)
	}
}

// hasNotification reports whether snap decodes notifications of method.
func hasNotification(snap *ahpimpl.Snapshot, method string) bool {
	_, ok := snap.Notification(method)
	return ok
}

// lockedWriter serializes the Writes to w.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
