package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/ahpgen/ahpgen/bench/internal/checkout"
)

// sample is one run of `ahpgen generate`: its wall and CPU time and its
// peak resident memory.
type sample struct {
	wall, cpu time.Duration
	maxRSS    int64 // bytes
}

// timeRun builds ahpgen at base and head and times `ahpgen generate` of
// each synthetic root and of the repository's schemas, the builds in
// turn.
func timeRun(base, head string, sizes []int, rounds int) error {
	sides, cleanup, err := exportBoth(base, head)
	if err != nil {
		return err
	}
	defer cleanup()
	tmp := filepath.Dir(sides[0].dir)
	var bins []string
	for _, s := range sides {
		bin := filepath.Join(tmp, "ahpgen-"+s.name)
		if _, err := checkout.Output(s.dir, "go", "build", "-tags", "ahpgen_bootstrap", "-o", bin, "./cmd/ahpgen"); err != nil {
			return err
		}
		bins = append(bins, bin)
	}
	roots := []string{filepath.Join(sides[1].dir, "schemas")}
	synth, err := writeSynth(filepath.Join(tmp, "synth"), sizes)
	if err != nil {
		return err
	}
	roots = append(roots, synth...)
	fmt.Printf("%-12s %8s %8s %8s   %8s %8s %8s   %6s %6s\n", "root", "base s", "cpu s", "peak MB", "head s", "cpu s", "peak MB", "wall×", "peak×")
	for _, root := range roots {
		var got [2][]sample
		for r := 0; r < rounds; r++ {
			for i, bin := range bins {
				s, err := generateOnce(bin, root, filepath.Join(tmp, "out"))
				if err != nil {
					return err
				}
				got[i] = append(got[i], s)
			}
		}
		b, h := medians(got[0]), medians(got[1])
		fmt.Printf("%-12s %8.2f %8.2f %8.0f   %8.2f %8.2f %8.0f   %6.2f %6.2f\n", filepath.Base(root),
			b.wall.Seconds(), b.cpu.Seconds(), float64(b.maxRSS)/1e6,
			h.wall.Seconds(), h.cpu.Seconds(), float64(h.maxRSS)/1e6,
			h.wall.Seconds()/b.wall.Seconds(), float64(h.maxRSS)/float64(b.maxRSS))
	}
	return nil
}

// generateOnce runs `ahpgen generate` of root into out.
func generateOnce(bin, root, out string) (sample, error) {
	if err := os.RemoveAll(out); err != nil {
		return sample{}, err
	}
	cmd := exec.Command(bin, "generate", "-schemas", root, "-out", out, "-import", "genscale.test/gen")
	start := time.Now()
	if b, err := cmd.CombinedOutput(); err != nil {
		return sample{}, fmt.Errorf("%s generate -schemas %s: %v\n%s", bin, root, err, b)
	}
	s := sample{wall: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		s.cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		s.maxRSS = int64(ru.Maxrss) * 1024
	}
	return s, nil
}

// medians is the median of each figure, taken separately.
func medians(ss []sample) sample {
	med := func(f func(sample) int64) int64 {
		v := make([]int64, len(ss))
		for i, s := range ss {
			v[i] = f(s)
		}
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		return v[len(v)/2]
	}
	return sample{
		wall:   time.Duration(med(func(s sample) int64 { return int64(s.wall) })),
		cpu:    time.Duration(med(func(s sample) int64 { return int64(s.cpu) })),
		maxRSS: med(func(s sample) int64 { return s.maxRSS }),
	}
}
