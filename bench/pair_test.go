package bench

import (
	"slices"
	"strings"
	"testing"
)

// TestPairerAlternates: the halves of successive pairs swap order, so the
// work a slice leaves behind falls on each side alike, and every pair
// runs each function the same number of times.
func TestPairerAlternates(t *testing.T) {
	var log []string
	p := &Pairer{work: func() { log = append(log, "w") }, ref: func() { log = append(log, "r") }, reps: 2}
	for range 3 {
		p.Pair()
	}
	if got, want := strings.Join(log, ""), "wwrr"+"rrww"+"wwrr"; got != want {
		t.Fatalf("call order %q, want %q", got, want)
	}
	if p.Pairs() != 3 || len(p.ratios) != 3 {
		t.Fatalf("%d pairs, %d ratios; want 3 of each", p.Pairs(), len(p.ratios))
	}
}

// TestPairerQuantile: quantiles of the pairs' ratios, whatever order the
// pairs came in; none before the first pair.
func TestPairerQuantile(t *testing.T) {
	p := &Pairer{}
	if q := p.Quantile(0.5); q != 0 {
		t.Fatalf("median of no pairs: %v, want 0", q)
	}
	p.ratios = []float64{3, 1, 5, 2, 4}
	for _, c := range []struct{ q, want float64 }{{0, 1}, {0.25, 2}, {0.5, 3}, {0.75, 4}, {1, 5}} {
		if got := p.Quantile(c.q); got != c.want {
			t.Errorf("Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if !slices.Equal(p.ratios, []float64{3, 1, 5, 2, 4}) {
		t.Fatalf("Quantile reordered the ratios: %v", p.ratios)
	}
}
