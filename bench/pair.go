package bench

import (
	"slices"
	"time"
)

// PairSlice is how long each half of a pair runs: long enough that the
// clock's resolution and the switch between the two halves do not count,
// short enough that the host's speed barely changes within a pair.
const PairSlice = 2 * time.Millisecond

// Pairer times one piece of work (a decode of a kind's messages) against
// a reference (the scan of the same messages) in tightly interleaved
// pairs: each pair runs a slice of one and then a slice of the other,
// alternating which goes first, and the ratio of the two halves is one
// sample.
//
// Why: on the machines these benchmarks run on (shared virtual cores), the
// speed of the whole machine drifts by up to two times within a minute.
// Measured separately, seconds apart, two cases see different machines,
// and their ratio moves with the drift: in one bench/run the scan of the
// intercept requests took from 7.0 to 12.7 µs over the passes, and six
// runs of the same binary put the strict decode at 2.37 to 3.09 scans.
// Both halves of a pair see nearly the same machine: four pairratio runs
// between those put it at 2.17 to 2.31.
//
// Alternating the order matters: work a decode leaves behind (the
// collector's marking of what it allocated) spills into whatever runs
// next, and with the order alternating it falls on each half alike.
type Pairer struct {
	work, ref func()
	reps      int // runs of work and of ref per half pair
	pairs     int
	ratios    []float64
}

// Batch returns a function that runs run on every message of msgs, for
// one slice of a pair, after running it once on each: the first error,
// if any, is returned instead, and the timed runs then need no checks.
func Batch(msgs [][]byte, run func([]byte) error) (func(), error) {
	for _, m := range msgs {
		if err := run(m); err != nil {
			return nil, err
		}
	}
	return func() {
		for _, m := range msgs {
			_ = run(m) // each passed above; the steps are deterministic
		}
	}, nil
}

// NewPairer sizes the halves: as many runs of ref as take PairSlice.
func NewPairer(work, ref func()) *Pairer {
	reps := 1
	for timeOf(ref, reps) < PairSlice {
		reps *= 2
	}
	return &Pairer{work: work, ref: ref, reps: reps}
}

// Reps is the number of runs of each function per half pair.
func (p *Pairer) Reps() int { return p.reps }

// Pair times one pair and keeps its ratio (work over ref).
func (p *Pairer) Pair() {
	var w, r time.Duration
	if p.pairs%2 == 0 {
		w, r = timeOf(p.work, p.reps), timeOf(p.ref, p.reps)
	} else {
		r, w = timeOf(p.ref, p.reps), timeOf(p.work, p.reps)
	}
	p.pairs++
	p.ratios = append(p.ratios, float64(w)/float64(r))
}

// Quantile is the q-quantile (0.5: the median) of the ratios of the pairs
// so far, 0 before the first pair.
func (p *Pairer) Quantile(q float64) float64 {
	if len(p.ratios) == 0 {
		return 0
	}
	s := slices.Clone(p.ratios)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

// Pairs is the number of pairs timed.
func (p *Pairer) Pairs() int { return p.pairs }

func timeOf(f func(), reps int) time.Duration {
	start := time.Now()
	for range reps {
		f()
	}
	return time.Since(start)
}
