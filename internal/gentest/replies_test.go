package gentest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/gen/dispatch"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestReplyChecks: on every upstream response fixture of both snapshots,
// a snapshot's ReplyChecks (hooks/intercept's and hooks/capabilities')
// accept exactly what its Responses decoders accept.
func TestReplyChecks(t *testing.T) {
	root, _ := testenv.AHPRoot(t)
	judged := 0
	for _, snap := range dispatch.Snapshots {
		files, _ := filepath.Glob(filepath.Join(root, "fixtures", snap.Key, "*", "*.json*"))
		for _, file := range files {
			data, _ := os.ReadFile(file)
			var env struct{ Result *json.RawMessage }
			if json.Unmarshal(data, &env) != nil || env.Result == nil {
				continue
			}
			c, err := ahpimpl.Begin(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			byResponses := false
			for _, dec := range snap.Responses {
				c.Forget()
				if _, err := dec.Decode(c); err == nil {
					byResponses = true
				}
			}
			byReplies := false
			for _, r := range snap.ReplyChecks {
				for _, f := range r.Checks {
					c.Forget()
					if c.Run(f) == nil {
						byReplies = true
					}
				}
			}
			c.Release()
			if byResponses != byReplies {
				t.Errorf("%s: Responses say %v, ReplyChecks %v", file, byResponses, byReplies)
			}
			judged++
		}
		if len(snap.Replies("hooks/intercept")) == 0 {
			t.Errorf("%s: no checks of intercept replies", snap.Key)
		}
	}
	if judged < 20 {
		t.Errorf("only %d responses judged", judged)
	}
	t.Logf("%d responses judged", judged)
}
