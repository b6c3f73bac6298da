// Command harness runs one tool call through the hook backends a
// registration document names (package harness) and prints the decision,
// the tool input as the backends left it, and the audit trail:
//
//	go run ./examples/hookserver -addr 127.0.0.1:8080 &
//	go run ./examples/harness -registration examples/harness/hooks.json -tool Bash -input '{"command":"ls"}'
//
// hooks.json registers examples/hookserver at that address.
//
// It offers deny and a merge into the tool's input, which is what
// examples/hookserver uses; a registration of protocol version 0.1 is
// offered deny only (that snapshot has nothing else).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/gen/draft"
	v01 "github.com/ahpgen/ahpgen/gen/v0_1_0_draft_1"
	"github.com/ahpgen/ahpgen/harness"
	"github.com/ahpgen/ahpgen/offer"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "harness:", err)
		os.Exit(1)
	}
}

// run is the command: flags, then one tool call through the backends.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("harness", flag.ContinueOnError)
	flags.SetOutput(stderr)
	registration := flags.String("registration", "", "the registration document (`file`)")
	tool := flags.String("tool", "Bash", "the tool's `name`")
	input := flags.String("input", `{"command":"ls"}`, "the tool's input (a JSON `object`)")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if *registration == "" {
		return errors.New("-registration is required")
	}
	d, err := call(ctx, *registration, *tool, ahprt.Value(*input))
	if err != nil {
		return err
	}
	print(stdout, d)
	return nil
}

// offered is what this host advertises with a draft tool.before: it
// enforces a deny, and applies a merge into the tool's input (0.1 offers
// deny, the harness's default).
var offered = &draft.Capabilities{
	Effects: []string{string(offer.Deny), string(offer.Modify)},
	Modify:  &draft.CapabilitiesModify{Input: &draft.ModifyOperations{Merge: true}},
}

// call loads the registration and runs the tool call through its backends.
func call(ctx context.Context, file, tool string, input ahprt.Value) (*harness.Decision, error) {
	reg, err := harness.LoadFile(file) // ahpgen's built-in snapshots; a repository's own: LoadFile(file, dispatch.Snapshots...)
	if err != nil {
		return nil, err
	}
	var opts []harness.Option
	if reg.Snapshot.Key == draft.SnapshotKey {
		opts = append(opts, harness.WithCapabilities("tool.before", offered))
	}
	h, err := harness.New(reg, opts...)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	return h.Intercept(ctx, toolCall(reg.Snapshot.Key, tool, input))
}

// toolCall is the tool.before event in the registration's snapshot.
func toolCall(snapshot, tool string, input ahprt.Value) harness.Event {
	id, now := harness.NewEventID(), time.Now().UTC().Format(time.RFC3339)
	if snapshot == v01.SnapshotKey {
		return v01.NewToolBefore(id, "urn:example:harness", now, v01.Session{ID: "session-1"},
			v01.ToolBeforeTool{CallID: "call-" + id, Name: tool, Kind: v01.ToolBeforeToolKindOther, Input: input})
	}
	return draft.NewToolBeforeEvent(id, "urn:example:harness", now,
		draft.Identity{ID: "call-" + id}, draft.ExecutionEventTool{Name: tool, Input: input, Origin: draft.ExecutionEventToolOriginNative}, "native")
}

// print writes the decision, the edited input and the audit trail.
func print(w io.Writer, d *harness.Decision) {
	fmt.Fprintf(w, "decision: %s", d.Permission)
	if d.Denial != nil {
		fmt.Fprintf(w, " (%s: %s)", d.Denial.Backend, d.Denial.Reason)
	}
	fmt.Fprintf(w, "\ninput: %s\naudit:\n", d.Target(offer.TargetInput))
	for _, r := range d.Audit {
		fmt.Fprintf(w, "  %s\n", r)
	}
}
