package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
)

// TestTerminatedNotReused: once the harness has decided to terminate a
// persistent backend (here: too many lines that are no replies), no call
// is handed that process, though its kill has not been reaped yet: the
// next call waits for its run to end and starts another. Handed the dying
// process, the call failed with how it ended ("signal: killed"), a failure
// of the run before it.
func TestTerminatedNotReused(t *testing.T) {
	doc := fmt.Sprintf(`{"protocolVersion":"draft","hooks":[{"id":"com.example.kit","transport":{"type":"stdio","command":%q,"args":["-test.run=^$","kit"],"lifecycle":"persistent"},"subscriptions":[{"events":["tool.before"],"mode":"intercept","timeoutMs":5000,"failurePolicy":"fail-closed","content":{"default":"body"}}]}]}`, os.Args[0])
	reg, err := Load("kit.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	// HARNESS_FAKE makes this test binary the fake backend (fake_test.go).
	h, err := New(reg, WithEnv([]string{"HARNESS_FAKE=1", "PATH=" + os.Getenv("PATH")}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	c := h.conns[reg.Backends[0]].(*persistentConn)
	for i := range 5 {
		p, _, f := c.get(context.Background(), true)
		if f != nil {
			t.Fatal(f)
		}
		for range h.opts.terminateAfter {
			p.malformed(errors.New("not a reply"), h.opts.terminateAfter)
		}
		q, _, f := c.get(context.Background(), true)
		if f != nil {
			t.Fatal(f)
		}
		if q == p {
			t.Fatalf("run %d: the next call was handed the process being terminated", i)
		}
		select {
		case <-p.ended:
		default:
			t.Fatalf("run %d: another process started before the terminated one ended", i)
		}
	}
}
