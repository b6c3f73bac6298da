package schemas_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Comparison bookkeeping.

type job struct {
	group string // counted under this heading in the report
	ref   string
	v     any
	what  string
	ptr   string // where the instance was changed, if it is a mutant
}

type verdicts struct{ ourOK, upOK bool }

type disagreement struct {
	job
	verdicts
	why      string
	instance string
}

type tally struct {
	jobs     []job
	seen     map[string]bool   // ref + instance text queued through addOnce
	groups   map[string][2]int // group -> {agree, total}
	total    int
	agree    int
	accepted int // instances upstream accepts
	bad      []disagreement
}

// add queues v for validation against ref on both sides.
func (tl *tally) add(group, ref string, v any, what, ptr string) {
	tl.jobs = append(tl.jobs, job{group: group, ref: ref, v: v, what: what, ptr: ptr})
}

// addOnce is add unless addOnce already queued the same instance against
// ref (fragments and mutants repeat across bases).
func (tl *tally) addOnce(t *testing.T, group, ref string, v any, what, ptr string) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	key := ref + "\x00" + string(b)
	if tl.seen == nil {
		tl.seen = map[string]bool{}
	}
	if tl.seen[key] {
		return
	}
	tl.seen[key] = true
	tl.add(group, ref, v, what, ptr)
}

// count records one compared instance.
func (tl *tally) count(group string, v verdicts) {
	if tl.groups == nil {
		tl.groups = map[string][2]int{}
	}
	g := tl.groups[group]
	g[1]++
	tl.total++
	if v.upOK {
		tl.accepted++
	}
	if v.ourOK == v.upOK {
		g[0]++
		tl.agree++
	}
	tl.groups[group] = g
}

// run validates every queued instance on both sides, spreading the work over
// the available CPUs, records the disagreements in queue order and returns
// the verdicts in queue order.
func (tl *tally) run(t *testing.T, sd *sides) []verdicts {
	t.Helper()
	for _, j := range tl.jobs { // compile serially; the caches are not locked
		for _, side := range []*schemaSide{sd.ours, sd.upstream} {
			if _, err := side.schema(j.ref); err != nil {
				t.Fatal(err)
			}
		}
	}
	results := make([]verdicts, len(tl.jobs))
	errs := make([]error, len(tl.jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < max(1, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := tl.jobs[i]
				var err1, err2 error
				results[i].ourOK, _, err1 = sd.ours.verdict(j.ref, j.v, false)
				results[i].upOK, _, err2 = sd.upstream.verdict(j.ref, j.v, false)
				errs[i] = errors.Join(err1, err2)
			}
		}()
	}
	for i := range tl.jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, j := range tl.jobs {
		r := results[i]
		if errs[i] != nil {
			t.Fatalf("%s: %v", j.what, errs[i])
		}
		tl.count(j.group, r)
		if r.ourOK == r.upOK {
			continue
		}
		side := sd.ours
		if r.ourOK {
			side = sd.upstream
		}
		_, why, _ := side.verdict(j.ref, j.v, true)
		tl.bad = append(tl.bad, disagreement{job: j, verdicts: r, why: side.name + ": " + why, instance: jsonText(j.v, 200)})
	}
	tl.jobs = nil
	return results
}

// report logs the per-group and total counts, prints the summary line
// "<summary>: N/M instances agree" and fails on any disagreement or on a
// degenerate corpus (upstream accepting all or none of it).
func (tl *tally) report(t *testing.T, summary, label string) {
	t.Helper()
	if len(tl.groups) > 1 {
		for _, g := range sortedKeys(anyMap(tl.groups)) {
			t.Logf("  %-22s %d/%d agree", g, tl.groups[g][0], tl.groups[g][1])
		}
	}
	title := summary
	if label != "" {
		title += " (" + label + ")"
	}
	t.Logf("%s: %d/%d instances agree (upstream accepts %d, rejects %d)", title, tl.agree, tl.total, tl.accepted, tl.total-tl.accepted)
	fmt.Printf("%s: %d/%d instances agree\n", summary, tl.agree, tl.total)
	if tl.accepted == 0 || tl.accepted == tl.total {
		t.Errorf("%s: the corpus is degenerate: upstream accepts %d of %d", title, tl.accepted, tl.total)
	}
	if len(tl.bad) == 0 {
		return
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d of %d instances disagree (%s); first %d:\n", len(tl.bad), tl.total, title, min(len(tl.bad), maxReported))
	for i, d := range tl.bad {
		if i == maxReported {
			break
		}
		fmt.Fprintf(&sb, "  - %s at %q vs %s: ours valid=%v, upstream valid=%v\n      instance: %s\n      rejection by %s\n",
			d.what, d.ptr, d.ref, d.ourOK, d.upOK, d.instance, d.why)
	}
	t.Error(sb.String())
}
