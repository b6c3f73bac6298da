package emit

import (
	"go/format"
	"strings"
	"testing"
)

// TestTailReturns: a test after which the check only returns true becomes
// the check's result, in a switch's cases, an if's branches and blocks;
// the final return goes exactly when what precedes it is terminating (so
// the output compiles and vet finds nothing unreachable), and a block
// that is then last loses its braces unless a name it declares is
// declared before it; anything else, a switch with a break, a multi-line
// condition, a test that is not last, a function of another result,
// stays as it was. The output is as gofmt prints it.
func TestTailReturns(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"last test", `
func f(c *C) bool {
	d := c.D
	if !a(d) {
		return false
	}
	if !b(d) {
		return false
	}
	return true
}`, `
func f(c *C) bool {
	d := c.D
	if !a(d) {
		return false
	}
	return b(d)
}`},
		{"switch with default", `
func f(c *C) bool {
	switch c.T() {
	case "a":
		if !a(c) {
			return false
		}
	case "b":
		x := 1
		if !b(c, x) {
			return false
		}
	default:
		return c.Fail()
	}
	return true
}`, `
func f(c *C) bool {
	switch c.T() {
	case "a":
		return a(c)
	case "b":
		x := 1
		return b(c, x)
	default:
		return c.Fail()
	}
}`},
		{"switch without default", `
func f(c *C) bool {
	switch c.T() {
	case "a":
		if !a(c) {
			return false
		}
	}
	return true
}`, `
func f(c *C) bool {
	switch c.T() {
	case "a":
		return a(c)
	}
	return true
}`},
		{"switch with a break", `
func f(c *C) bool {
	switch c.T() {
	case "a":
		if c.X {
			break
		}
		if !a(c) {
			return false
		}
	default:
		return false
	}
	return true
}`, `
func f(c *C) bool {
	switch c.T() {
	case "a":
		if c.X {
			break
		}
		return a(c)
	default:
		return false
	}
	return true
}`},
		{"if and else in a block", `
func f(c *C) bool {
	{
		if c.X {
			if !(a(c) || b(c)) {
				return false
			}
		} else if !b(c) {
			return false
		}
	}
	return true
}`, `
func f(c *C) bool {
	{
		if c.X {
			return (a(c) || b(c))
		} else if !b(c) {
			return false
		}
	}
	return true
}`},
		{"final block unwrapped", `
func f(c *C, n N) bool {
	d := c.D
	{
		// the last keyword
		m := d.M(n)
		switch m.T() {
		case "a":
			if !a(m) {
				return false
			}
		default:
			return false
		}
	}
	return true
}`, `
func f(c *C, n N) bool {
	d := c.D
	// the last keyword
	m := d.M(n)
	switch m.T() {
	case "a":
		return a(m)
	default:
		return false
	}
}`},
		{"final block kept: its name is declared before it", `
func f(c *C, n N) bool {
	m := c.M(n)
	{
		m := m.Sub()
		switch m.T() {
		case "a":
			if !a(m) {
				return false
			}
		default:
			return false
		}
	}
	return true
}`, `
func f(c *C, n N) bool {
	m := c.M(n)
	{
		m := m.Sub()
		switch m.T() {
		case "a":
			return a(m)
		default:
			return false
		}
	}
}`},
		{"final block kept: it declares a parameter's name", `
func f(c *C, n N) bool {
	{
		n := c.Next(n)
		if !a(n) {
			return false
		}
		return b(n)
	}
	return true
}`, `
func f(c *C, n N) bool {
	{
		n := c.Next(n)
		if !a(n) {
			return false
		}
		return b(n)
	}
}`},
		{"if and else", `
func f(c *C) bool {
	if c.X {
		if !a(c) {
			return false
		}
	} else {
		if !b(c) {
			return false
		}
	}
	return true
}`, `
func f(c *C) bool {
	if c.X {
		return a(c)
	} else {
		return b(c)
	}
}`},
		{"if without else", `
func f(c *C) bool {
	if c.X {
		if !a(c) {
			return false
		}
	}
	return true
}`, `
func f(c *C) bool {
	if c.X {
		return a(c)
	}
	return true
}`},
		{"left alone", `
func f(c *C) bool {
	if !a(c,
		1) {
		return false
	}
	return true
}

func g(c *C) bool {
	if !a(c) {
		return false
	}
	c.Done()
	return true
}

func h(c *C) (bool, error) {
	if !a(c) {
		return false, nil
	}
	return true, nil
}

func k(c *C) bool {
	if n := c.N(); !a(n) {
		return false
	}
	for c.Next() {
		if !a(c) {
			return false
		}
	}
	return true
}`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := "package p\n" + c.in + "\n"
			want := in
			if c.want != "" {
				want = "package p\n" + c.want + "\n"
			}
			got, err := tailReturns([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			if formatted, err := format.Source(got); err != nil || string(formatted) != string(got) {
				t.Errorf("not as gofmt prints it (%v):\n%s", err, got)
			}
		})
	}
	if _, err := tailReturns([]byte("package p\nfunc (")); err == nil || !strings.Contains(err.Error(), "expected") {
		t.Errorf("source that does not parse: %v", err)
	}
}
