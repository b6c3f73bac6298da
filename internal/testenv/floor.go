package testenv

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// Floors reads a floor file: lines of words ending in a count, "#"
// comments. A floor is the count below which a test's default run fails
// (agreeing cases, fuzzed schemas); the words before the count name it,
// joined by one space ("required", "upstream draft"). Each line must have
// words words before its count.
func Floors(t testing.TB, path string, words int) map[string]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.Atoi(f[len(f)-1])
		if len(f) != words+1 || err != nil || n < 0 {
			t.Fatalf("%s:%d: want %d words and a count, got %q", path, i+1, words, line)
		}
		out[strings.Join(f[:words], " ")] = n
	}
	return out
}
