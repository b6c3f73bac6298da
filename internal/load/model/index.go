package model

import (
	"strconv"
	"sync"

	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
)

// indexFrom is how many members or items a lookup passes in an object or
// array before the index maps all of them: smaller ones are scanned, as
// most schema objects are, without a map each.
const indexFrom = 32

// index maps the members of a document's large objects by name and the
// items of its large arrays by position, each built on the first lookup
// that passes indexFrom of them. A lookup through it finds what Member
// and a walk of the items find: the first member of that name (a
// document holds one), the item whose decimal index is the token.
// The mutex lets documents be read from several goroutines, as they are.
type index struct {
	mu      sync.Mutex
	members map[ahpimpl.Node]map[string]ahpimpl.Node
	items   map[ahpimpl.Node][]ahpimpl.Node
}

// member is d.Member(obj, name), through x when it is not nil.
func (x *index) member(d *ahpimpl.Doc, obj ahpimpl.Node, name string) (ahpimpl.Node, bool) {
	if x == nil {
		return d.Member(obj, name)
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if m, ok := x.members[obj]; ok {
		v, ok := m[name]
		return v, ok
	}
	passed := 0
	for it := d.Members(obj); it.Next(); passed++ {
		if it.Key() == name {
			if passed >= indexFrom {
				x.indexMembers(d, obj)
			}
			return it.Value(), true
		}
	}
	if passed >= indexFrom {
		x.indexMembers(d, obj)
	}
	return 0, false
}

func (x *index) indexMembers(d *ahpimpl.Doc, obj ahpimpl.Node) {
	m := map[string]ahpimpl.Node{}
	for it := d.Members(obj); it.Next(); {
		if _, dup := m[it.Key()]; !dup {
			m[it.Key()] = it.Value()
		}
	}
	if x.members == nil {
		x.members = map[ahpimpl.Node]map[string]ahpimpl.Node{}
	}
	x.members[obj] = m
}

// item is the item of array arr at the position tok spells in decimal
// (as strconv.Itoa writes it: "01" names none), through x when it is not
// nil.
func (x *index) item(d *ahpimpl.Doc, arr ahpimpl.Node, tok string) (ahpimpl.Node, bool) {
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || strconv.Itoa(i) != tok {
		return 0, false
	}
	if x != nil {
		x.mu.Lock()
		defer x.mu.Unlock()
		if items, ok := x.items[arr]; ok {
			if i < len(items) {
				return items[i], true
			}
			return 0, false
		}
	}
	for it := d.Items(arr); it.Next(); {
		if it.Index() == i {
			if x != nil && i >= indexFrom {
				x.indexItems(d, arr)
			}
			return it.Item(), true
		}
	}
	if x != nil && d.Len(arr) >= indexFrom {
		x.indexItems(d, arr)
	}
	return 0, false
}

func (x *index) indexItems(d *ahpimpl.Doc, arr ahpimpl.Node) {
	var items []ahpimpl.Node
	for it := d.Items(arr); it.Next(); {
		items = append(items, it.Item())
	}
	if x.items == nil {
		x.items = map[ahpimpl.Node][]ahpimpl.Node{}
	}
	x.items[arr] = items
}
