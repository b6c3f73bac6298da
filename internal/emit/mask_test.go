package emit

import (
	"fmt"
	"testing"
)

// TestMaskLit: presence masks up to the 64th bit are valid Go constants
// for a uint64 (an int literal would overflow at bit 63).
func TestMaskLit(t *testing.T) {
	for _, tc := range []struct {
		mask uint64
		want string
	}{
		{1, "1"},
		{1<<63 - 1, "9223372036854775807"},
		{1 << 63, "uint64(0x8000000000000000)"},
		{1<<64 - 1, "uint64(0xffffffffffffffff)"},
	} {
		if got := fmt.Sprintf("%#v", maskLit(tc.mask)); got != tc.want {
			t.Errorf("maskLit(%#x) = %s, want %s", tc.mask, got, tc.want)
		}
	}
}
