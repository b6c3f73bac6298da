package schemas_test

// Shared harness of the snapshot equivalence tests. The project keeps its
// own rendition of each AHP schema snapshot (schemas/<snapshot>), and the
// tests in equivalence_test.go (the draft snapshot) and
// legacy_equivalence_test.go (0.1.0-draft.1) prove that each rendition is a
// drop-in replacement for the public upstream documents: same file names,
// $ids and $defs pointers, and the same verdict as upstream on the golden
// fixtures and on deterministic corpora of mutants derived from them. They
// also guard the renditions' authorship rules (no upstream prose, keyword
// allowlist, title/$comment conventions) and manifests.
//
// Everything that does not depend on the snapshot lives here once; what
// does is described by a snapshot value (folders, markers, versions) or
// passed in by the snapshot's own test (corpus construction, mutation
// vocabulary). The mutation engine offers every mutation kind either test
// uses; each snapshot picks its own table of kinds and systematic families.

import (
	"os"
	"path/filepath"
	"testing"
)

const (
	maxReported     = 25 // disagreements spelled out per report
	minSentenceLen  = 20 // shortest upstream sentence TestOwnWording looks for
	maxMutateTrials = 16 // mutation kinds tried before mutate gives up
)

// snapshot describes one AHP schema snapshot: where our rendition and the
// upstream reference documents live, and the conventions the rendition
// follows.
type snapshot struct {
	key           string     // snapshot name: our folder, the fixture folder and the $id segment
	upstreamDir   string     // upstream documents, slash-separated, relative to the reference root
	fixtureField  string     // member of the fixture manifest that names the snapshot
	wireVersion   string     // protocolVersion constant of common.schema.json and of our manifest
	status        string     // status our manifest declares
	titleSuffix   string     // every document's title ends with it
	commentPrefix string     // every document's $comment starts with it
	keywords      []string   // JSON Schema keywords our documents may use
	annotations   bool       // x-* annotations are allowed too (upstream's own excepted)
	summary       string     // start of the summary line: "<summary>: N/M instances agree"
	mutations     []mutation // random mutation kinds; a kind's share is its number of entries
}

func (s *snapshot) idBase() string { return "https://agenthooksprotocol.org/schemas/" + s.key + "/" }

// ourDir is our rendition's folder, relative to this package.
func (s *snapshot) ourDir() string { return s.key }

// referenceRoot locates the upstream reference tree: $AHP_ROOT, else
// ../../shared/ahp-upstream. It skips only when the variable is unset and
// the default folder is absent.
func referenceRoot(t *testing.T, snap *snapshot) string {
	t.Helper()
	if root := os.Getenv("AHP_ROOT"); root != "" {
		return root
	}
	def := filepath.Join("..", "..", "shared", "ahp-upstream")
	if _, err := os.Stat(def); err != nil {
		t.Skipf("AHP_ROOT is unset and the default reference folder %s is absent; skipping the %s checks (snapshot %s)", def, snap.summary, snap.key)
	}
	return def
}
