// Command hook is a process-per-event hook backend on ahpgen's backend
// kit, written against this module's own generated packages: it reads one
// message from stdin and writes at most one reply to stdout. It denies
// shell commands when the host offers deny.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/ahpgen/ahpgen/backend"
	"github.com/ahpgen/ahpgen/offer"

	"example.com/hookbackend/internal/ahp/draft"
)

func main() {
	srv := backend.New()
	backend.OnIntercept(srv, draft.Snapshot, func(ctx context.Context, req *draft.InterceptRequest) ([]draft.Effect, error) {
		if call, ok := req.Params.Event.(*draft.ToolBeforeEvent); ok && call.Tool.Name == "Bash" && backend.Offered(ctx).Offers(offer.Deny) {
			return []draft.Effect{draft.NewDenyEffect("no shell here")}, nil
		}
		return nil, nil
	})
	if err := srv.ServeOne(context.Background(), os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hook:", err)
		os.Exit(1)
	}
}
