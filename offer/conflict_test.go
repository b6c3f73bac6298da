package offer_test

import (
	"errors"
	"testing"

	"github.com/ahpgen/ahpgen/ahprt"
	"github.com/ahpgen/ahpgen/ahprt/ahpimpl"
	"github.com/ahpgen/ahpgen/offer"
)

func TestCheckConflicts(t *testing.T) {
	const (
		deny     = `{"type":"deny","reason":"no"}`
		allow    = `{"type":"allow"}`
		ask      = `{"type":"ask","reason":"sure?"}`
		ret      = `{"type":"return","value":[]}`
		stop     = `{"type":"flow","operation":"stop","reason":"done"}`
		cont     = `{"type":"flow","operation":"continue","instruction":"again"}`
		message  = `{"type":"message","text":"hi"}`
		modifyIn = `{"type":"modify","target":"input","operation":"merge","value":{}}`
	)
	for _, c := range []struct {
		effects []string
		pointer string // "" when there is no conflict
	}{
		{nil, ""},
		{[]string{deny, deny}, ""}, // the same permission twice
		{[]string{deny, message, stop}, ""},
		{[]string{allow, modifyIn, modifyIn, ret}, ""},
		{[]string{stop, stop}, ""},
		{[]string{deny, allow}, "/result/effects/1"},
		{[]string{allow, message, ask}, "/result/effects/2"},
		{[]string{ask, deny}, "/result/effects/1"},
		{[]string{ret, message, ret}, "/result/effects/2"},
		{[]string{deny, ret}, "/result/effects/1"},
		{[]string{ret, deny}, "/result/effects/1"},
		{[]string{stop, cont}, "/result/effects/1"},
		{[]string{message, cont, stop}, "/result/effects/2"},
	} {
		list := "["
		for i, e := range c.effects {
			if i > 0 {
				list += ","
			}
			list += e
		}
		list += "]"
		d, err := ahpimpl.Parse([]byte(list), ahprt.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		err = offer.CheckConflicts(d, d.Root(), "/result/effects")
		var cf *offer.Conflict
		switch {
		case c.pointer == "" && err != nil:
			t.Errorf("%s: %v, want no conflict", list, err)
		case c.pointer != "" && (!errors.Is(err, offer.ErrConflict) || !errors.As(err, &cf) || cf.Pointer != c.pointer || cf.Reason == ""):
			t.Errorf("%s: %v, want a conflict at %s", list, err, c.pointer)
		}
	}
}
