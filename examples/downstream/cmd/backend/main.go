// Command backend reads one AHP message from stdin, decodes it with the
// snapshot its protocolVersion names, and prints what it found, or the
// JSON-RPC error reply it would send.
package main

import (
	"fmt"
	"io"
	"os"

	"example.com/hookbackend/internal/ahp/dispatch"
	"example.com/hookbackend/internal/ahp/draft"
)

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r := dispatch.Decode(data)
	switch {
	case r.Reply != nil:
		fmt.Printf("reply %s\n", r.Reply)
	case r.Dropped:
		fmt.Println("dropped")
	case r.Err != nil:
		fmt.Printf("error %v\n", r.Err)
	default:
		switch m := r.Message.(type) {
		case *draft.InterceptRequest:
			fmt.Printf("intercept %s event %T\n", r.Snapshot, m.Params.Event)
		default:
			fmt.Printf("%s %T\n", r.Snapshot, m)
		}
	}
}
