package gentest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ahpgen/ahpgen/gen/dispatch"
	"github.com/ahpgen/ahpgen/gen/draft"
	"github.com/ahpgen/ahpgen/internal/testenv"
)

// TestEventAccessors: on every upstream draft fixture that decodes to an
// intercept request or an observe notification, the event's accessors
// (the Event interface's methods) read what the JSON says, and every
// effect of a valid intercept response reads its type.
func TestEventAccessors(t *testing.T) {
	root, _ := testenv.AHPRoot(t)
	files, err := filepath.Glob(filepath.Join(root, "fixtures", "draft", "*", "*.json*"))
	if err != nil {
		t.Fatal(err)
	}
	events, effects := 0, 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(file)
		var raw struct {
			Params struct {
				Event struct {
					ID, Type, Time, Source, ParentEventID string
					Session                               *struct{ ID string }
				}
			}
			Result struct {
				Effects []struct{ Type string }
			}
		}
		if err := json.Unmarshal(data, &raw); err != nil {
			continue // not one JSON document (a multi-line stdio fixture)
		}
		var ev draft.Event
		switch m := dispatch.Decode(data).Message.(type) {
		case *draft.InterceptRequest:
			ev = m.Params.Event
		case *draft.ObserveNotification:
			ev = m.Params.Event
		case *draft.InterceptResponse:
			for i, e := range m.Result.Effects {
				if e.GetType() != raw.Result.Effects[i].Type {
					t.Errorf("%s: effect %d: GetType %q, JSON %q", name, i, e.GetType(), raw.Result.Effects[i].Type)
				}
				effects++
			}
			continue
		default:
			continue
		}
		want := raw.Params.Event
		if ev.GetID() != want.ID || ev.GetType() != want.Type || ev.GetTime() != want.Time || ev.GetSource() != want.Source {
			t.Errorf("%s: accessors read id %q type %q time %q source %q; the JSON has %+v", name, ev.GetID(), ev.GetType(), ev.GetTime(), ev.GetSource(), want)
		}
		if s := ev.GetSession(); (s == nil) != (want.Session == nil) || s != nil && s.ID != want.Session.ID {
			t.Errorf("%s: GetSession %+v; the JSON has %+v", name, s, want.Session)
		}
		if p := ev.GetParentEventID(); p != nil && *p != want.ParentEventID || p == nil && want.ParentEventID != "" {
			t.Errorf("%s: GetParentEventID %v; the JSON has %q", name, p, want.ParentEventID)
		}
		events++
	}
	if events < 30 || effects < 10 {
		t.Errorf("only %d events and %d effects read", events, effects)
	}
	t.Logf("%d events and %d effects read through their accessors", events, effects)
}

// TestAccessorsOfNil: a typed nil in an interface reads as absent, as its
// encoding (null) does.
func TestAccessorsOfNil(t *testing.T) {
	var ev draft.Event = (*draft.SessionStartEvent)(nil)
	if ev.GetID() != "" || ev.GetSession() != nil || ev.GetType() != "session.start" {
		t.Errorf("nil SessionStart reads id %q session %v type %q", ev.GetID(), ev.GetSession(), ev.GetType())
	}
	s := &draft.SessionStartEvent{ID: "e"}
	s.Session.ID = "sess"
	if ev = s; ev.GetSession() != &s.Session || !strings.HasPrefix(ev.GetSession().ID, "sess") {
		t.Errorf("a required session is not read in place: %p, field at %p", ev.GetSession(), &s.Session)
	}
}
