package emit

import (
	"bytes"
	"strings"
	"testing"
)

// TestWrapComments: a comment line over 80 columns (a tab counting 4)
// breaks between words into lines within 80, keeping its indentation
// and its words in order; a word longer than a line stands on a line of
// its own; code lines and short comments are left as they are.
func TestWrapComments(t *testing.T) {
	long := "draft/capabilities-response.schema.json#/allOf/1/properties/result/properties/manifest/properties/events"
	src := "package p\n\n" +
		"// F checks " + long + " (a named type: one run per node, see ahpimpl.Ctx.Memo) and more words after it.\n" +
		"func F() {\n" +
		"\t// " + strings.Repeat("inner ", 30) + "end\n" +
		"\tx := \"" + strings.Repeat("y", 90) + "\" // a code line stays whole\n" +
		"}\n"
	got := wrapComments([]byte(src))
	var words, wantWords []string
	for _, line := range strings.Split(string(got), "\n") {
		indent := len(line) - len(strings.TrimLeft(line, "\t"))
		text, comment := strings.CutPrefix(line[indent:], "// ")
		if !comment {
			continue
		}
		width := 4*indent + len(line) - indent
		switch {
		case text == long:
		case strings.Contains(text, long):
			t.Errorf("the long word shares a line: %q", line)
		case width > 80:
			t.Errorf("%d columns: %q", width, line)
		}
		if strings.Contains(text, "inner") && indent != 1 {
			t.Errorf("indentation lost: %q", line)
		}
		words = append(words, strings.Fields(text)...)
	}
	for _, line := range strings.Split(src, "\n") {
		if text, ok := strings.CutPrefix(strings.TrimLeft(line, "\t"), "// "); ok {
			wantWords = append(wantWords, strings.Fields(text)...)
		}
	}
	if strings.Join(words, " ") != strings.Join(wantWords, " ") {
		t.Errorf("words changed:\n%s", got)
	}
	if !bytes.Contains(got, []byte(strings.Repeat("y", 90)+"\" // a code line stays whole\n")) {
		t.Errorf("a code line changed:\n%s", got)
	}
}
