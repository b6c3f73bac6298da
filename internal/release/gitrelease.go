package release

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// gitRelease is upstream's immutability check (check_immutable_release):
// when the tree is the top of a git checkout with a date tag reachable
// from HEAD, every file of every dated snapshot the newest such tag holds
// must be in the tree unchanged (same blob, same mode), and no file may
// have been added to those folders. The manifests' hashes cannot see an
// edit of a manifest itself (a case's expected validity, say); this can.
// A tree that is not a checkout, or has no date tag, is checked by its
// manifests alone; without git on PATH the check is skipped.
func (v *verifier) gitRelease() {
	git := func(stdin []byte, args ...string) ([]byte, error) {
		cmd := exec.Command("git", append([]string{"-C", v.tree}, args...)...)
		cmd.Stdin = bytes.NewReader(stdin)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
		}
		return out.Bytes(), nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return
	}
	top, err := git(nil, "rev-parse", "--show-toplevel")
	if err != nil || !sameDir(strings.TrimSpace(string(top)), v.tree) {
		return
	}
	out, err := git(nil, "tag", "--merged", "HEAD", "--list")
	if err != nil {
		v.bad("", "", "%v", err)
		return
	}
	var tags []string
	for _, tag := range strings.Fields(string(out)) {
		if !datePattern.MatchString(tag) {
			continue
		}
		if !ValidDate(tag) {
			v.bad("", "", "release tag %q is not a calendar date", tag)
			return
		}
		tags = append(tags, tag)
	}
	if len(tags) == 0 {
		return
	}
	sort.Strings(tags)
	tag := tags[len(tags)-1]
	commit, err := git(nil, "rev-parse", "--verify", tag+"^{commit}")
	if err != nil {
		v.bad("", "", "%v", err)
		return
	}
	at := fmt.Sprintf("released at %s (%s)", tag, strings.TrimSpace(string(commit))[:12])
	listing, err := git(nil, append([]string{"ls-tree", "-r", "--full-tree", "-z", tag, "--"}, SnapshotRoots...)...)
	if err != nil {
		v.bad("", "", "%v", err)
		return
	}
	type entry struct{ mode, oid string }
	released := map[string]entry{}
	versions := map[string]bool{}
	roots := map[string]bool{}
	for _, rec := range bytes.Split(listing, []byte{0}) {
		meta, p, ok := strings.Cut(string(rec), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			continue
		}
		parts := strings.Split(p, "/")
		if len(parts) < 3 || !ValidDate(parts[1]) {
			continue
		}
		released[p] = entry{f[0], f[2]}
		versions[parts[1]] = true
		roots[parts[0]+"/"+parts[1]] = true
	}
	for _, root := range presentRoots(v.tree) {
		if !roots[root+"/"+tag] {
			v.bad(rel(root, tag), "", "release tag %s does not hold this folder of its own snapshot", tag)
		}
	}
	// The files of those dated folders now.
	var paths []string
	modes := map[string]string{}
	for _, root := range SnapshotRoots {
		for ver := range versions {
			filepath.WalkDir(filepath.Join(v.tree, root, ver), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return nil
				}
				r, _ := filepath.Rel(v.tree, p)
				r = filepath.ToSlash(r)
				info, err := os.Lstat(p)
				if err != nil {
					return nil
				}
				switch {
				case info.Mode()&fs.ModeSymlink != 0:
					modes[r] = "120000"
				case info.Mode()&0o100 != 0:
					modes[r] = "100755"
				default:
					modes[r] = "100644"
				}
				paths = append(paths, r)
				return nil
			})
		}
	}
	sort.Strings(paths)
	oids := map[string]string{}
	if len(paths) > 0 {
		out, err := git([]byte(strings.Join(paths, "\n")+"\n"), "hash-object", "--no-filters", "--stdin-paths")
		if err != nil {
			v.bad("", "", "%v", err)
			return
		}
		got := strings.Fields(string(out))
		if len(got) != len(paths) {
			v.bad("", "", "git hash-object gave %d ids for %d files", len(got), len(paths))
			return
		}
		for i, p := range paths {
			oids[p] = got[i]
		}
	}
	var names []string
	for p := range released {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		want := released[p]
		oid, ok := oids[p]
		switch {
		case !ok:
			v.bad(p, "", "deleted from the snapshot %s", at)
		case oid != want.oid:
			v.bad(p, "", "modified since the snapshot was %s", at)
		case modes[p] != want.mode:
			v.bad(p, "", "mode %s, was %s when %s", modes[p], want.mode, at)
		}
	}
	for _, p := range paths {
		if _, ok := released[p]; !ok {
			v.bad(p, "", "added to the snapshot %s", at)
		}
	}
}

// sameDir reports whether two paths name one folder.
func sameDir(a, b string) bool {
	x, err1 := os.Stat(a)
	y, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(x, y)
}
