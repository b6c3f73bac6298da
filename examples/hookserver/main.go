// Command hookserver is an AHP hook backend built on package backend: it
// denies the tools -deny names, asks for a sandbox wherever the host lets
// it merge into a tool's input, and logs what it observes (to standard
// error). It serves every snapshot in gen/ (draft and 0.1.0-draft.1).
//
//	go run ./examples/hookserver -addr 127.0.0.1:8080   # HTTP: POST one JSON-RPC message per request
//	go run ./examples/hookserver -stdio                 # persistent stdio: one message per line
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/ahpgen/ahpgen/backend"
)

func main() {
	if err := run(signalContext(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "hookserver:", err)
		os.Exit(1)
	}
}

// signalContext is done at the first SIGINT or SIGTERM, which starts a
// clean shutdown; then the signals get their default handling back, so
// that a second one kills the process should the shutdown hang.
func signalContext() context.Context {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx
}

// run is the command: flags, the policy, and one transport until ctx is
// done (or stdin ends, with -stdio).
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("hookserver", flag.ContinueOnError)
	flags.SetOutput(stderr)
	addr := flags.String("addr", "", "serve HTTP on `HOST:PORT` (plain HTTP: use a loopback address)")
	stdio := flags.Bool("stdio", false, "serve the persistent stdio lifecycle on stdin and stdout")
	deny := flags.String("deny", "rm,Bash", "comma-separated tool `names` to deny")
	if err := flags.Parse(args); err != nil {
		return err
	}
	if (*addr == "") == !*stdio {
		return errors.New("give one of -addr HOST:PORT and -stdio")
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	p := &policy{deny: map[string]bool{}, log: log}
	for _, name := range strings.Split(*deny, ",") {
		if name != "" {
			p.deny[name] = true
		}
	}
	srv := backend.New(backend.WithErrorLog(func(ctx context.Context, e *backend.Error) {
		// At the error's level: a notification nobody handles is routine
		// (Debug, not shown by default), a handler's failure is an Error.
		log.Log(ctx, e.Level(), "refused", "error", e)
	}))
	p.register(srv)
	if *stdio {
		if err := srv.ServeStdio(ctx, stdin, stdout); !errors.Is(err, context.Canceled) {
			return err
		}
		return nil
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	log.Info("listening", "addr", l.Addr().String(), "versions", srv.Supported())
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,                               // a body of up to 4 MiB
		WriteTimeout:      backend.DefaultHandlerTimeout + 10*time.Second, // runs from the headers' end: the handler's time and the reply
		IdleTimeout:       2 * time.Minute,
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shutdown)
	}()
	if err := hs.Serve(l); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
