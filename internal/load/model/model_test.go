package model

import "testing"

func TestFragment(t *testing.T) {
	for ptr, want := range map[string]string{
		"":                     "u#",
		"/$defs/a":             "u#/$defs/a",
		"/$defs/percent%field": "u#/$defs/percent%25field",
		"/$defs/foo\"bar":      "u#/$defs/foo%22bar",
		"/$defs/~1slash/é":     "u#/$defs/~1slash/%C3%A9",
	} {
		if got := Fragment("u", ptr); got != want {
			t.Errorf("Fragment(u, %q) = %q, want %q", ptr, got, want)
		}
	}
}
