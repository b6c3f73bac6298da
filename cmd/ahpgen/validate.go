//go:build !ahpgen_bootstrap

package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/ahprt/router"
	"github.com/ahpgen/ahpgen/gen/dispatch"
)

func init() {
	validateCommand = &command{"validate", "check AHP messages against the snapshots built into ahpgen", runValidate}
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ahpgen validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	only := fs.String("snapshot", "", "use only this snapshot (key, e.g. draft); default: route by protocolVersion over all")
	strict := fs.Bool("strict", false, "reject every member no schema declares (ahprt.StrictAll)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: ahpgen validate [-snapshot KEY] [-strict] FILE...")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Decodes each AHP message with the snapshots built into this ahpgen, chosen")
		fmt.Fprintln(stderr, "by protocolVersion, and prints per message \"ok <snapshot> <type>\", or the")
		fmt.Fprintln(stderr, "error (JSON Pointer and code) and the JSON-RPC error reply it maps to.")
		fmt.Fprintln(stderr, "A FILE holds one message (HTTP body, registration document); a .jsonl file")
		fmt.Fprintln(stderr, "or - (stdin, once) holds one message per line (stdio framing); an empty one")
		fmt.Fprintln(stderr, "fails. Exit status 0 only if every message is valid.")
		fmt.Fprintln(stderr, "Built-in snapshots:", strings.Join(keys(), ", "))
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitForParse(err)
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	stdin := 0
	for _, name := range fs.Args() {
		if name == "-" {
			stdin++
		}
	}
	if stdin > 1 {
		fmt.Fprintln(stderr, "ahpgen validate: - (standard input) is named more than once; it can be read once")
		return 2
	}
	// Flags end at the first file (Go's flag package): a flag after a
	// file would be read as a file and fail as one that does not exist.
	for _, name := range fs.Args() {
		flagName, _, _ := strings.Cut(strings.TrimLeft(name, "-"), "=")
		if strings.HasPrefix(name, "-") && name != "-" && fs.Lookup(flagName) != nil {
			if _, err := os.Lstat(name); err != nil {
				fmt.Fprintf(stderr, "ahpgen validate: %s comes after a file, where it would be read as one: give the flags before the files\n", name)
				return 2
			}
		}
	}
	d := dispatch.Dispatcher
	if *only != "" {
		var snap *ahpimpl.Snapshot
		for _, s := range dispatch.Snapshots {
			if s.Key == *only {
				snap = s
			}
		}
		if snap == nil {
			fmt.Fprintf(stderr, "ahpgen validate: no built-in snapshot %q (have %s)\n", *only, strings.Join(keys(), ", "))
			return 2
		}
		var err error
		if d, err = router.New(snap); err != nil {
			fmt.Fprintln(stderr, "ahpgen validate:", err)
			return 1
		}
	}
	var opts []ahprt.Option
	if *strict {
		opts = append(opts, ahprt.WithMode(ahprt.StrictAll))
	}
	v := validator{d: d, opts: opts, out: stdout}
	for _, name := range fs.Args() {
		if err := v.file(name); err != nil {
			fmt.Fprintf(stderr, "ahpgen validate: %v\n", err)
			v.failed = true
		}
	}
	if v.failed {
		return 1
	}
	return 0
}

func keys() []string {
	var out []string
	for _, s := range dispatch.Snapshots {
		out = append(out, s.Key)
	}
	return out
}

type validator struct {
	d      *router.Dispatcher
	opts   []ahprt.Option
	out    io.Writer
	failed bool
}

// maxMessage bounds what validate reads of one message (a file, or a
// line of a stream): the decoders' default limit, past which they refuse
// a document anyway. Reading stops there, so /dev/zero or a runaway
// capture costs a bounded buffer, not the memory to hold it.
const maxMessage = ahprt.DefaultMaxBytes

func (v *validator) file(name string) error {
	var in io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	// A stream is named as such whatever the extension's case (STREAM.JSONL
	// from a tool that writes capitals).
	if name != "-" && !strings.EqualFold(filepath.Ext(name), ".jsonl") {
		data, err := io.ReadAll(io.LimitReader(in, maxMessage+1))
		if err != nil {
			return err
		}
		if len(data) > maxMessage {
			v.fail(name, tooLarge)
			return nil
		}
		v.message(name, data)
		return nil
	}
	// stdio framing: each message is one line ending in one LF.
	r := bufio.NewReaderSize(in, 64<<10)
	var buf []byte
	for line := 1; ; line++ {
		text, long, err := readLine(r, &buf)
		if err != nil && err != io.EOF {
			return err
		}
		if len(text) == 0 && !long && err == io.EOF {
			if line == 1 {
				// Zero messages are not all valid: an empty capture is a
				// mistake upstream of validate, which must not pass unseen.
				v.fail(name, "no messages: the stream is empty")
			}
			return nil
		}
		where := fmt.Sprintf("%s:%d", name, line)
		switch {
		case long:
			// The rest may never end (/dev/zero): stop at the limit.
			v.fail(where, tooLarge)
			return nil
		case err == io.EOF:
			v.fail(where, "framing: the last message does not end with a line feed")
		case bytes.IndexByte(text, '\r') >= 0:
			v.fail(where, "framing: CR is not allowed (stdio messages end with a single LF)")
		default:
			v.message(where, text[:len(text)-1])
			if line == 1 && len(bytes.TrimSpace(text)) == 1 && (text[0] == '{' || text[0] == '[') {
				// Not a message but the start of one written over many
				// lines: every line after it fails too, and says less.
				fmt.Fprintf(v.out, "%s: hint: this looks like one JSON document over several lines; stdio framing (a .jsonl file, or -) wants one message per line: validate it as a .json file\n", name)
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

var tooLarge = fmt.Sprintf("too_large: more than %d bytes (the decoders' limit); nothing after it is read", maxMessage)

// readLine reads one line with its LF into *buf; a line longer than
// maxMessage+1 bytes is not read past that (long). At the end of the
// input, err is io.EOF and the line is what came before it, without an
// LF.
func readLine(r *bufio.Reader, buf *[]byte) (line []byte, long bool, err error) {
	*buf = (*buf)[:0]
	for {
		chunk, err := r.ReadSlice('\n')
		if len(*buf)+len(chunk) > maxMessage+1 {
			return nil, true, nil
		}
		*buf = append(*buf, chunk...)
		if err != bufio.ErrBufferFull {
			return *buf, false, err
		}
	}
}

func (v *validator) fail(where, msg string) {
	v.failed = true
	fmt.Fprintf(v.out, "%s: %s\n", where, msg)
}

func (v *validator) message(where string, data []byte) {
	if snap, ok, why := v.registration(data); ok {
		if snap == nil {
			v.fail(where, "invalid: "+why)
			return
		}
		e, found := snap.Entry("registration.schema.json#")
		if !found {
			v.fail(where, "snapshot "+snap.Key+" has no registration document")
			return
		}
		m, err := e.Decode(data, v.opts...)
		if err != nil {
			v.fail(where, describe(err, data))
			return
		}
		fmt.Fprintf(v.out, "%s: ok %s %s\n", where, snap.Key, typeName(m))
		return
	}
	r := v.d.Decode(data, v.opts...)
	if r.Err == nil {
		snap, name := r.Snapshot, typeName(r.Message)
		if snap == "" {
			// An error response: it carries no version, and the first
			// snapshot whose schema accepts it gives its type, which
			// the package then names.
			snap, name = "-", strings.TrimPrefix(fmt.Sprintf("%T", r.Message), "*")
		}
		fmt.Fprintf(v.out, "%s: ok %s %s\n", where, snap, name)
		return
	}
	msg := describe(r.Err, data)
	switch {
	case r.Reply != nil:
		msg += "\n  reply: " + string(r.Reply)
	case r.Dropped:
		msg += "\n  notification: no reply; dropped"
	}
	v.fail(where, msg)
}

// registration recognises a registration document: an object without a
// jsonrpc member and with a protocolVersion or hooks member. It gives
// the snapshot of its wire version, or nil and why there is none (no
// protocolVersion, or one of no snapshot in use), rather than let the
// dispatcher call it no JSON-RPC message.
func (v *validator) registration(data []byte) (snap *ahpimpl.Snapshot, ok bool, why string) {
	doc, err := ahpimpl.Parse(data, ahprt.Limits{})
	if err != nil || doc.Kind(0) != ahpimpl.KindObject {
		return nil, false, ""
	}
	if _, rpc := doc.Member(0, "jsonrpc"); rpc {
		return nil, false, ""
	}
	ver, versioned := doc.Member(0, "protocolVersion")
	if _, hooks := doc.Member(0, "hooks"); !versioned && !hooks {
		return nil, false, ""
	}
	supported := "(supported: " + strings.Join(quoted(v.d.Supported()), ", ") + ")"
	switch {
	case !versioned:
		return nil, true, "(document): required: a registration document without protocolVersion " + supported
	case doc.Kind(ver) != ahpimpl.KindString:
		return nil, true, "/protocolVersion: type: a registration's protocolVersion is a string " + supported
	}
	if snap, found := v.d.Snapshot(doc.Text(ver)); found {
		return snap, true, ""
	}
	return nil, true, "/protocolVersion: unsupported_protocol_version: a registration document of version " + strconv.Quote(doc.Text(ver)) + ", which no snapshot in use has " + supported
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// describe says why data was refused: the JSON Pointer, code and message
// of the failure that explains err, and for a syntax error where in data
// it is (line and column, counted in bytes from 1).
func describe(err error, data []byte) string {
	var e *ahprt.Error
	if errors.As(err, &e) {
		root := e.Root()
		ptr := root.Pointer
		if ptr == "" {
			ptr = "(document)"
		}
		at := ""
		// Only the parse step's errors (ErrMalformed) carry the byte
		// offset where the input went wrong; a schema's rejection has none.
		if o := root.Offset; root.Class() == ahprt.ErrMalformed && o >= 0 && o <= int64(len(data)) {
			before := data[:o]
			column := len(before) - bytes.LastIndexByte(before, '\n')
			if bytes.IndexByte(data, '\n') < 0 {
				at = fmt.Sprintf(" (column %d)", column) // a line of a stream, or a file of one line
			} else {
				at = fmt.Sprintf(" (line %d, column %d)", bytes.Count(before, []byte("\n"))+1, column)
			}
		}
		return fmt.Sprintf("invalid: %s: %s: %s%s", ptr, root.Code, root.Message, at)
	}
	return "invalid: " + err.Error()
}

func typeName(v any) string {
	s := fmt.Sprintf("%T", v)
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
