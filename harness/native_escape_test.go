package harness_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/harness"
)

// TestNativeWithheldHoweverWritten: a subscription whose selection
// withholds content never receives native, whatever way the host's
// event writes the member's name: with a space before the colon (a
// one-line event the harness sends as it is) or with an escape in the
// name (JSON text for the same name).
func TestNativeWithheldHoweverWritten(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := raw(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, string(b))
		mu.Unlock()
		d, _ := ahpimpl.Parse(b, ahprt.Limits{})
		n, _ := d.Member(d.Root(), "id")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, result(d.Text(n), ""))
	})
	sub := strings.Replace(intercept(`["tool.before"]`, 2000, "fail-closed"), `{"default":"body"}`, `{"default":"body","reasoning":"omit"}`, 1)
	h := build(t, registration(hook{"com.example.withheld", httpTransport(srv.URL), []string{sub}}))
	base := string(toolCall("e1", "ls", `{}`).AppendJSON(nil))
	native := `{"provider":"test","eventName":"PreToolUse","payload":{"secret":"s3cret"}}}`
	for i, ev := range []harness.Event{
		// One line, as the host wrote it: the harness sends it as it is.
		prettyEvent(strings.TrimSuffix(base, "}") + `,"native" :` + native),
		// Raw JSON with an escape in the name: ahprt.Value keeps it.
		ahprt.Value(strings.TrimSuffix(base, "}") + `,"n\u0061tive":` + native),
	} {
		if _, err := h.Intercept(context.Background(), ev); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		body := got[i]
		mu.Unlock()
		if strings.Contains(body, "s3cret") {
			t.Errorf("native reached a subscription that withholds content: %s", body)
		}
	}
}
