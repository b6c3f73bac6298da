package ahpimpl

import (
	"strconv"
	"strings"
	"sync"

	"github.com/ahpgen/ahpgen/ahprt"
)

// CheckFunc is the shape of every generated schema check: it reports whether
// node n satisfies one schema location. When ev is not nil the check also
// records which members and items it evaluated (for unevaluatedProperties,
// unevaluatedItems and the fully strict mode).
type CheckFunc func(c *Ctx, n Node, ev *Eval) bool

// Ctx carries one decode: the parsed document, the options, and (only while
// explaining a rejection) the errors found.
type Ctx struct {
	Doc  *Doc
	opts ahprt.Options

	explain bool
	quiet   int
	errs    []*ahprt.Error
	// at is where each recorded failure is (see Fail): its pointer is
	// computed only for the error returned.
	at    map[*ahprt.Error]Node
	evals []*Eval
	// scope is the dynamic scope: the schema resources (declaring
	// $dynamicAnchors) that the evaluation entered, outermost first.
	scope []int32
	// cycle lists the checks of schemas on an in-place cycle that are
	// running, and on which node, innermost last (see EnterCycle).
	cycle []cycleEntry
	// arena holds the bytes of the strings and numbers built so far (see
	// Text); the built values alias it, so it is never reused.
	arena []byte
	// strs holds the items of the lists of strings built so far (see
	// StringList); like the arena, never reused.
	strs []string
	// memo holds results of named-type checks (see Memo).
	memo memoTable
	// anns, in StrictAll mode, records which members of which objects the
	// schemas applied so far evaluated, on every path that has not failed.
	anns []annotation
	// serial numbers the annotations ever appended (see Memo).
	serial uint64
	// first is strictCheck's scratch, one entry per node.
	first []int32
	// unrepeated: bit i set when the memoized check with id i never runs
	// twice on one node of this document (see Unrepeated).
	unrepeated uint64
}

// annotation is what one successful check of object n evaluated.
type annotation struct {
	n      Node
	ev     *Eval
	serial uint64
}

var ctxPool = sync.Pool{New: func() any { return &Ctx{Doc: &Doc{}} }}

// maxPooledNodes is the largest node table a pooled context keeps: 1<<18
// nodes (5 MiB) covers a 1 MiB message; larger ones allocate their own.
const maxPooledNodes = 1 << 18

// Begin parses data with the given options. On success the caller owns the
// returned Ctx and must call [Ctx.Release] when done with it.
func Begin(data []byte, opts []ahprt.Option) (*Ctx, error) {
	c := ctxPool.Get().(*Ctx)
	c.opts = ahprt.Options{}
	for _, o := range opts {
		if o != nil { // an option a program left unset
			o(&c.opts) // into the pooled context: a local would escape
		}
	}
	return c.start(data)
}

// MaxBytesUnlessSet is a decode option giving the byte limit n unless an
// earlier option gave one: how a kit makes its transport's limit
// (backend.WithMaxBytes, harness.WithMaxReplyBytes) the decoder's, while
// the program's WithDecodeOptions may still choose another.
func MaxBytesUnlessSet(n int64) ahprt.Option {
	return func(o *ahprt.Options) {
		if o.Limits.MaxBytes <= 0 {
			o.Limits.MaxBytes = n
		}
	}
}

// start parses data into c with c.opts (their limits' defaults filled in)
// for Begin and BeginHeld; on error it releases c.
func (c *Ctx) start(data []byte) (*Ctx, error) {
	c.opts.Limits = c.opts.Limits.WithDefaults()
	if err := c.Doc.parse(data, c.opts.Limits); err != nil {
		c.Release()
		return nil, err
	}
	return c, nil
}

// BeginHeld is Begin for data a caller already holds (see Reparse): the
// data's size is no limit of its own, nesting and member counts keep the
// defaults, and there are no other options.
func BeginHeld(data []byte) (*Ctx, error) {
	c := ctxPool.Get().(*Ctx)
	c.opts = ahprt.Options{Limits: ahprt.Limits{MaxBytes: int64(len(data))}}
	return c.start(data)
}

// Release returns c to the pool. Nothing derived from c.Doc may be used after.
func (c *Ctx) Release() {
	c.Doc.data = nil
	if cap(c.Doc.nodes) > maxPooledNodes {
		c.Doc.nodes = nil // do not pin a huge table in the pool
	}
	if cap(c.first) > maxPooledNodes {
		c.first = nil
	}
	clear(c.at)
	c.explain, c.quiet, c.errs, c.scope, c.cycle, c.unrepeated = false, 0, c.errs[:0], c.scope[:0], c.cycle[:0], 0
	c.dropAnnotations(0)
	c.arena, c.strs = nil, nil
	c.resetMemo()
	ctxPool.Put(c)
}

// Unrepeated tells c which memoized checks cannot run twice on one node
// of the document about to be checked (bit i: memo id i): the generator
// proved it for the type's schema (internal/ir's MarkMemo), so their
// lookups would all miss, and Memo runs them directly. Generated entry
// points call it before Run; it lasts until Release.
func (c *Ctx) Unrepeated(mask uint64) { c.unrepeated = mask }

// Mode is the decode's unknown-member mode.
func (c *Ctx) Mode() ahprt.Mode { return c.opts.Mode }

// Run checks the root against f. On rejection it runs the check again in
// explaining mode to build a precise error; the fast path never allocates
// errors.
func (c *Ctx) Run(f CheckFunc) error {
	return c.RunAt(0, f)
}

// RunFirst validates the document's root with the first of checks that
// accepts it, as Run does with one (in StrictAll mode, that check's
// annotations leave no member unevaluated), and returns nil; when none
// does, the error Run gives for the first. The kits judge a reply with
// the checks of the replies its method may get (Snapshot.Replies).
func (c *Ctx) RunFirst(checks []CheckFunc) error {
	for _, f := range checks {
		c.Forget()
		if c.Child(0, f) && c.strictCheck() == nil { // Run's fast path: no error is built
			return nil
		}
	}
	c.Forget()
	if len(checks) == 0 {
		return &ahprt.Error{Code: ahprt.CodeSemantic, Message: "no check to run", Offset: -1}
	}
	return c.Run(checks[0])
}

// RunAt is Run for node n.
func (c *Ctx) RunAt(n Node, f CheckFunc) error {
	if c.Child(n, f) {
		return c.strictCheck()
	}
	c.dropAnnotations(0)
	c.resetMemo()
	c.explain, c.errs = true, c.errs[:0]
	c.Child(n, f)
	c.explain = false
	if len(c.errs) == 0 {
		// A check that returned false without saying why: a generator bug,
		// reported rather than hidden.
		p, name := c.Doc.PointerTo(n)
		return &ahprt.Error{Pointer: p, Name: name, Code: ahprt.CodeSemantic, Message: "rejected without a recorded reason", Offset: -1}
	}
	err := c.errs[len(c.errs)-1]
	for e := err; e != nil; e = e.Cause {
		if n, ok := c.at[e]; ok {
			e.Pointer, e.Name = c.Doc.PointerTo(n)
		}
	}
	clear(c.at)
	return err
}

// Child checks a value nested in the instance being checked (a member, an
// item, the root). In StrictAll mode it records what the check evaluated
// of an object; RunAt decides once the whole document passed, over every
// schema applied to each object on the paths that succeeded.
func (c *Ctx) Child(n Node, f CheckFunc) bool {
	if c.opts.Mode != ahprt.StrictAll || c.Doc.Kind(n) != KindObject {
		return f(c, n, nil)
	}
	ev := c.NewEval(n)
	if !f(c, n, ev) {
		c.FreeEval(ev)
		return false
	}
	c.annotate(n, ev)
	return true
}

// Forget drops what the checks run so far remembered about the document:
// memoized results and union choices (keyed by ids that each generated
// package numbers on its own), StrictAll annotations, recorded errors and
// the Unrepeated mask. A dispatcher calls it before running the checks of
// another generated package on the same parse.
func (c *Ctx) Forget() {
	c.dropAnnotations(0)
	c.resetMemo()
	clear(c.at)
	c.explain, c.quiet, c.errs, c.scope, c.cycle, c.unrepeated = false, 0, c.errs[:0], c.scope[:0], c.cycle[:0], 0
}

// annotate records ev as what a successful check evaluated of object n.
func (c *Ctx) annotate(n Node, ev *Eval) {
	c.serial++
	c.anns = append(c.anns, annotation{n, ev, c.serial})
}

// ChildAll is Child for a schema that evaluates every member of an
// object it accepts (it has additionalProperties, so each member is
// either declared, matched by a pattern or checked against it): in
// StrictAll mode the check runs without a record of its own, and its
// annotation says "every member".
func (c *Ctx) ChildAll(n Node, f CheckFunc) bool {
	if c.opts.Mode != ahprt.StrictAll || c.Doc.Kind(n) != KindObject {
		return f(c, n, nil)
	}
	if !f(c, n, nil) {
		return false
	}
	c.annotate(n, c.allEval())
	return true
}

// PathEvaluated records what a passing `if` of nested properties (a
// condition chain's: {properties: {P: {properties: {Q: {const: …}}}}})
// evaluated, without running it again: the chain found the value at the
// path, so each object on the path declared its members and evaluated
// the next one. n's record is ev; in StrictAll mode the objects below get
// records of their own, as Child gives them (unevaluatedProperties sees
// only its own object's annotations, so other modes keep none). Only for
// a path the caller found whole. A nil ev (annotations not collected)
// records nothing: generated checks call it unguarded since GenVersion 17.
func (c *Ctx) PathEvaluated(n Node, ev *Eval, path ...string) {
	if ev != nil {
		c.pathEvaluated(n, ev, path)
	}
}

func (c *Ctx) pathEvaluated(n Node, ev *Eval, path []string) {
	cur, rec := n, ev
	for _, name := range path {
		value, index, ok := c.Doc.MemberIndex(cur, name)
		if !ok {
			return // unreachable: the caller found the path
		}
		if rec == nil { // below n
			if c.opts.Mode != ahprt.StrictAll {
				return // a record here would have strictCheck judge an object no mode asked for
			}
			rec = c.NewEval(cur)
			c.annotate(cur, rec)
		}
		rec.Declared = true
		rec.Set(index)
		cur, rec = value, nil
	}
}

// dropAnnotations forgets what was recorded since mark: the checks that
// recorded it belong to a branch that failed (or to a `not`).
func (c *Ctx) dropAnnotations(mark int) {
	for _, a := range c.anns[mark:] {
		c.FreeEval(a.ev)
	}
	c.anns = c.anns[:mark]
}

// strictCheck, after a successful StrictAll run, rejects the first member
// (in document order) of an object that some applied schema declared
// members of, that no applied schema evaluated.
func (c *Ctx) strictCheck() error {
	anns := c.anns
	if len(anns) == 0 {
		return nil
	}
	// Merge each object's records into its first: first[n] is 1 + the
	// index of node n's first record (0: none yet). Between runs every
	// entry is 0: the loop below puts back each entry it reads, which
	// costs one store per object where clearing the table cost one per
	// node.
	first := c.first
	if size := len(c.Doc.nodes); cap(first) < size {
		first = make([]int32, size)
	} else {
		first = first[:size]
	}
	c.first = first
	for i, a := range anns {
		if j := first[a.n]; j != 0 {
			anns[j-1].ev.Merge(a.ev)
		} else {
			first[a.n] = int32(i + 1)
		}
	}
	var bad Node
	found := false
	for i, a := range anns {
		n, acc := a.n, a.ev
		if int(first[n]) != i+1 {
			continue // merged into n's first record
		}
		first[n] = 0 // put back (the later records of n are not first either way)
		if !acc.Declared || acc.AllItems || found && n > bad || acc.count() == c.Doc.Len(n) {
			continue
		}
		for m := c.Doc.Members(n); m.Next(); {
			if !acc.Has(m.Index()) {
				if !found || m.Name() < bad {
					bad, found = m.Name(), true
				}
				break
			}
		}
	}
	c.dropAnnotations(0)
	if !found {
		return nil
	}
	return &ahprt.Error{Pointer: c.Doc.Pointer(bad), Name: true, Code: ahprt.CodeUnknownMember, Offset: -1,
		Message: "member " + quoteName(c.Doc.Text(bad)) + " is not declared by any schema applied to this object (StrictAll)"}
}

// Explaining reports whether failures are being recorded. Generated code
// uses it to skip building messages on the fast path.
func (c *Ctx) Explaining() bool { return c.explain && c.quiet == 0 }

// Fail records a failure (when explaining) and returns false, so generated
// code can write `return c.Fail(...)`.
//
// It is kept out of line on purpose: generated checks call it from
// hundreds of sites, and inlined each site carried an allocation and an
// append (about 200 bytes of machine code) into the middle of the hot
// member loops, where it only crowded the instruction cache.
//
//go:noinline
func (c *Ctx) Fail(n Node, code ahprt.Code, schema, msg string) bool {
	if c.explain && c.quiet == 0 {
		// The pointer is filled in only for the error that is returned:
		// computing it walks from the root, and an explaining pass records
		// (and drops) a failure per rejected branch.
		c.record(n, &ahprt.Error{Schema: schema, Code: code, Message: msg, Offset: -1})
	}
	return false
}

// Reason is why a generated check rejects a value: the error's code,
// schema location and message. Generated packages declare one variable
// per reason and pass its address to FailWith or FailTypeWith.
type Reason struct {
	Code    ahprt.Code
	Schema  string
	Message string // for FailTypeWith: the kinds wanted ("object")
}

// FailWith is Fail with its reason in a variable. A rejecting branch sits
// in the middle of the hot check it belongs to, and passing one pointer
// instead of a code and two strings halves the machine code it takes
// there.
//
//go:noinline
func (c *Ctx) FailWith(n Node, r *Reason) bool {
	return c.Fail(n, r.Code, r.Schema, r.Message)
}

// Required is an object schema's required keyword as a member walk
// tests it: the keyword's location and the names, numbered as the bits of
// the walk's mask (Names[i] is bit 1<<i), in the schema's order.
// Generated packages declare one variable per object schema.
type Required struct {
	Schema string
	Names  []string
}

// FailMissing rejects object n for the first member of r its walk did
// not see (its bit in seen is 0), with the message MissingMember writes.
// It keeps the search out of the hot check, which tests all of an
// object's required members with one comparison of its walk's mask.
//
//go:noinline
func (c *Ctx) FailMissing(n Node, seen uint64, r *Required) bool {
	for i, name := range r.Names {
		if seen&(1<<i) == 0 {
			if !c.Explaining() {
				return false // the message is built only for an error that is kept
			}
			return c.Fail(n, ahprt.CodeRequired, r.Schema, MissingMember(name))
		}
	}
	return true // every bit set: nothing is missing (not reached from generated checks)
}

// FailNotMembers rejects node n for a `not` whose schema only requires
// members, in groups (AHP's "none of these members": not: {required: […]}
// or an anyOf of such): on an object, the failure is at the value of the
// first member of the first group n has whole, and names the group's
// members; a node that is not an object (which every required accepts, so
// not rejects) fails at n with r as it is. Out of line: only a rejection
// calls it, and the walk and the message are made only for an error that
// is kept.
//
//go:noinline
func (c *Ctx) FailNotMembers(n Node, r *Reason, groups [][]string) bool {
	if !c.Explaining() {
		return false
	}
	d := c.Doc
	if d.Kind(n) == KindObject {
		for _, g := range groups {
			at, all := Node(0), true
			for _, name := range g {
				v, _, ok := d.MemberIndex(n, name)
				if !ok {
					all = false
					break
				}
				if at == 0 {
					at = v
				}
			}
			if all && at != 0 {
				return c.Fail(at, r.Code, r.Schema, r.Message+": "+NotMembers(g))
			}
		}
	}
	return c.FailWith(n, r)
}

// NotMembers says which members a `not` of required members forbids, for
// FailNotMembers' message.
func NotMembers(group []string) string {
	if len(group) == 1 {
		return "member " + strconv.Quote(group[0]) + " must not be present"
	}
	q := make([]string, len(group))
	for i, name := range group {
		q[i] = strconv.Quote(name)
	}
	return "members " + strings.Join(q, ", ") + " must not be present together"
}

// MissingMember is the message of the failure of a required member: the
// runtime's (FailMissing) and the generator's reasons alike.
func MissingMember(name string) string { return "missing member " + strconv.Quote(name) }

// FailTypeWith is FailType with its schema location and wanted kinds in
// a variable (r.Code is not used: the kind found decides it), for the
// same reason as FailWith.
//
//go:noinline
func (c *Ctx) FailTypeWith(n Node, r *Reason) bool {
	return c.FailType(n, r.Schema, r.Message)
}

// Mark starts a group of tentative checks (union branches, if conditions).
func (c *Ctx) Mark() int { return len(c.errs) }

// Discard drops the failures recorded since mark: the tentative checks
// did not decide the outcome.
func (c *Ctx) Discard(mark int) { c.errs = c.errs[:mark] }

// FailBranches replaces the failures recorded since mark (one per rejected
// branch) by one union failure whose cause is the branch that came closest:
// one that failed only an AHP rule beyond JSON Schema (code semantic:
// rules run after the schema of their location held), else the one whose
// error points deepest into the instance. Out of line, as Fail is.
//
//go:noinline
func (c *Ctx) FailBranches(mark int, n Node, code ahprt.Code, schema, msg string) bool {
	if !(c.explain && c.quiet == 0) {
		return false
	}
	var best *ahprt.Error
	for _, e := range c.errs[mark:] {
		switch {
		case best == nil:
			best = e
		case (e.Root().Code == ahprt.CodeSemantic) != (best.Root().Code == ahprt.CodeSemantic):
			if e.Root().Code == ahprt.CodeSemantic {
				best = e
			}
		case c.at[e] > c.at[best]: // the branch that got furthest into the document
			best = e
		}
	}
	c.errs = c.errs[:mark]
	c.record(n, &ahprt.Error{Schema: schema, Code: code, Message: msg, Offset: -1, Cause: best})
	return false
}

// record appends failure e of node n. Explaining runs only on rejection,
// so a map is cheap enough, and it keeps Error free of decoder state.
func (c *Ctx) record(n Node, e *ahprt.Error) {
	if c.at == nil {
		c.at = make(map[*ahprt.Error]Node)
	}
	c.at[e] = n
	c.errs = append(c.errs, e)
}

// Quiet runs a check whose failure is not an error (an `if` condition, a
// `not` operand) without recording anything.
func (c *Ctx) Quiet(n Node, ev *Eval, f CheckFunc) bool {
	mark := len(c.anns)
	c.quiet++
	ok := f(c, n, ev)
	c.quiet--
	c.dropAnnotations(mark)
	return ok
}

// Matches runs a check whose failure is not an error and whose success
// counts as evaluation (contains): quiet, keeping annotations on success.
func (c *Ctx) Matches(n Node, f CheckFunc) bool {
	mark := len(c.anns)
	c.quiet++
	ok := c.Child(n, f)
	c.quiet--
	if !ok {
		c.dropAnnotations(mark)
	}
	return ok
}

// Enter pushes schema resource r onto the dynamic scope; generated checks
// of schemas that enter a resource declaring $dynamicAnchors call it, and
// Leave when they return.
func (c *Ctx) Enter(r int32) { c.scope = append(c.scope, r) }

// Leave pops the resource Enter pushed.
func (c *Ctx) Leave() { c.scope = c.scope[:len(c.scope)-1] }

type cycleEntry struct {
	id int32
	n  Node
}

// EnterCycle is called by the check of a schema that can apply itself
// to the value it checks without descending into it (a $ref cycle, such
// as {"$ref": "#"} beside other keywords): id names the schema. It
// reports false when that schema is already being checked on node n by
// the checks applied in place since (JSON Schema's infinite-loop
// detection, which fails that inner application); otherwise it records
// the entry, which LeaveCycle removes.
func (c *Ctx) EnterCycle(id int32, n Node) bool {
	for i := len(c.cycle) - 1; i >= 0 && c.cycle[i].n == n; i-- {
		if c.cycle[i].id == id {
			return false
		}
	}
	c.cycle = append(c.cycle, cycleEntry{id, n})
	return true
}

// LeaveCycle removes the entry EnterCycle recorded.
func (c *Ctx) LeaveCycle() { c.cycle = c.cycle[:len(c.cycle)-1] }

// DynamicRef checks n against the target of a $dynamicRef: the schema
// that the outermost resource of the dynamic scope declaring the
// reference's anchor provides (find maps a resource to it, or nil), or
// the reference's initial target when no resource in scope declares it.
func (c *Ctx) DynamicRef(n Node, ev *Eval, find func(resource int32) CheckFunc, initial CheckFunc) bool {
	for _, r := range c.scope {
		if f := find(r); f != nil {
			return f(c, n, ev)
		}
	}
	return initial(c, n, ev)
}
