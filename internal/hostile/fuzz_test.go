package hostile

import (
	"errors"
	"testing"
	"time"

	"github.com/ahpgen/ahpgen/ahprt"
)

// The fuzz targets: one per top-level decoder of gen/draft. Each is seeded
// with every fixture of fixtures/draft (whatever its schema) and with the
// committed corpus in testdata/fuzz/<FuzzName>/; `go test` runs those
// seeds, `go test -fuzz FuzzInterceptRequest ./internal/hostile` searches
// for more. For every input:
//
//   - no panic, and no hang (a watchdog crashes the worker after 10 s);
//   - bounded memory: the decode allocates at most allocBudget(len(input));
//   - a rejection is an *ahprt.Error of one class and returns no value,
//     the Check function agrees with Decode, and StrictAll never accepts
//     what the default mode rejects;
//   - an accepted input round-trips: decode → AppendJSON → decode gives a
//     reflect.DeepEqual value whose encoding is ahpimpl.EqualJSON to the
//     first, which is itself JSON-equal to the input;
//   - the decoder agrees with santhosh (see the package documentation for
//     the intended differences).

func FuzzWireMessage(f *testing.F)         { fuzzTarget(f, aggregate) }
func FuzzInterceptRequest(f *testing.F)    { fuzzTarget(f, "intercept-request.schema.json#") }
func FuzzInterceptResponse(f *testing.F)   { fuzzTarget(f, "intercept-response.schema.json#") }
func FuzzObserveNotification(f *testing.F) { fuzzTarget(f, "observe-notification.schema.json#") }
func FuzzRegistration(f *testing.F)        { fuzzTarget(f, "registration.schema.json#") }

// extraSeeds are small hostile documents every target starts from.
var extraSeeds = []string{
	``, `null`, `{}`, `[]`, `"x"`, `0`, `{"jsonrpc":"2.0"}`,
	`{"a":1,"a":2}`, "\"\xff\"", `[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]`,
	`{"jsonrpc":"2.0","id":1.0,"result":{}}`,
	`{"jsonrpc":"2.0","id":"e","method":"hooks/intercept","params":"{}"}`,
}

// maxAllocRatio records the largest bytes-allocated-per-input-byte seen
// by checkInput for inputs of 1 KiB or more (reported by
// TestOracleMutations).
var maxAllocRatio struct {
	ratio float64
	used  uint64
	size  int
}

func fuzzTarget(f *testing.F, loc string) {
	fs, note, err := loadFixtures()
	if err != nil {
		f.Fatal(err)
	}
	if note != "" {
		f.Logf("%s: seeding from the committed corpus only", note)
	}
	for _, x := range fs {
		f.Add(x.Data)
	}
	for _, s := range extraSeeds {
		f.Add([]byte(s))
	}
	theOracle(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if c := checkInput(t, loc, data); c.Outcome == disagree {
			t.Errorf("decoder and santhosh disagree: %s\ninput: %s", c, clip(data))
		}
	})
}

// checkInput runs every per-input property but the oracle's verdict, which
// it returns for the caller to judge.
func checkInput(t testing.TB, loc string, data []byte) comparison {
	t.Helper()
	stop := watchdog(10*time.Second, "decoding "+loc)
	defer stop()
	e := entry(t, loc)

	before := allocated()
	v, err := e.Decode(data)
	used := allocated() - before
	if used > allocBudget(len(data)) {
		t.Errorf("%s: decoding %d bytes allocated %d bytes (budget %d)", loc, len(data), used, allocBudget(len(data)))
	}
	if r := float64(used) / float64(len(data)+1); len(data) >= 1024 && r > maxAllocRatio.ratio {
		maxAllocRatio.ratio, maxAllocRatio.used, maxAllocRatio.size = r, used, len(data)
	}
	cerr := e.Check(data)
	if (err == nil) != (cerr == nil) {
		t.Errorf("%s: Decode says %v but Check says %v", loc, errText(err), errText(cerr))
	}
	_, serr := e.Decode(data, ahprt.WithMode(ahprt.StrictAll))
	if err != nil && serr == nil && !knownStrictAllIfBug {
		t.Errorf("%s: StrictAll accepts what the default mode rejects (%v)", loc, err)
	}
	if err != nil {
		var ae *ahprt.Error
		if !errors.As(err, &ae) {
			t.Fatalf("%s: error %v is %T, not *ahprt.Error", loc, err, err)
		}
		_ = ae.Error() // rendering never panics
		n := 0
		for _, class := range []error{ahprt.ErrMalformed, ahprt.ErrLimit, ahprt.ErrInvalid, ahprt.ErrUnsupported} {
			if errors.Is(err, class) {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: error %v belongs to %d classes", loc, err, n)
		}
		if !isNil(v) {
			t.Errorf("%s: rejected (%v) but returned a partial value %T", loc, err, v)
		}
	} else if rerr := roundTrip(loc, data, v); rerr != nil {
		t.Error(rerr)
	}
	return compare(t, loc, data)
}
