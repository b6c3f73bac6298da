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
// encoding (null) does, through the getters the type declares itself.
// (SessionStartEvent requires its session, so it embeds no event core;
// see TestEmbeddedCore for the types that do.)
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

// TestEmbeddedCore: an event type that embeds the event core (here
// through the open envelope, two levels down) reads and writes its
// members through promoted fields and getters, its constructor fills the
// core, it round-trips through its encoding (written comma first, the
// envelope coming before the type), and the core's own encoder and
// decoder agree with it. A promoted getter on a nil pointer to the event
// panics, as Go's promotion does; the event's own getters (GetType)
// still read a nil receiver.
func TestEmbeddedCore(t *testing.T) {
	attention := draft.UserAttentionEventAttention{Kind: "example", Message: draft.TextParts{}, Title: draft.TextParts{}}
	ev := draft.NewUserAttentionEvent("e1", "urn:h", "2026-12-02T00:00:00Z", attention)
	parent := "e0"
	ev.ParentEventID = &parent // promoted field
	var e draft.Event = ev
	if e.GetID() != "e1" || e.GetSource() != "urn:h" || *e.GetParentEventID() != "e0" || ev.EventCore.ID != "e1" || ev.Envelope.EventCore.Time != "2026-12-02T00:00:00Z" {
		t.Errorf("promoted members read id %q source %q parent %v; core %+v", e.GetID(), e.GetSource(), e.GetParentEventID(), ev.EventCore)
	}
	enc := string(ev.AppendJSON(nil))
	const want = `{"id":"e1","source":"urn:h","time":"2026-12-02T00:00:00Z","parentEventId":"e0","type":"user.attention","attention":{"kind":"example","message":[],"title":[]}}`
	if enc != want {
		t.Errorf("encoding\n got %s\nwant %s", enc, want)
	}
	var back draft.UserAttentionEvent
	if err := json.Unmarshal([]byte(enc), &back); err != nil {
		t.Fatalf("decode %s: %v", enc, err)
	}
	if again := string(back.AppendJSON(nil)); again != enc || back.GetID() != "e1" {
		t.Errorf("round trip:\n got %s\nwant %s", again, enc)
	}
	core := string(ev.EventCore.AppendJSON(nil))
	if want := `{"id":"e1","source":"urn:h","time":"2026-12-02T00:00:00Z","parentEventId":"e0"}`; core != want {
		t.Errorf("EventCore encodes as %s, want %s", core, want)
	}
	dc, err := draft.DecodeEventCore([]byte(`{"type":"x.y","id":"e1","source":"urn:h","time":"2026-12-02T00:00:00Z"}`))
	if err != nil || dc.ID != "e1" || string(dc.AppendJSON(nil)) != `{"id":"e1","source":"urn:h","time":"2026-12-02T00:00:00Z","type":"x.y"}` {
		t.Errorf("DecodeEventCore: %+v, %v; encodes as %s", dc, err, dc.AppendJSON(nil))
	}

	var nilEv draft.Event = (*draft.UserAttentionEvent)(nil)
	if nilEv.GetType() != "user.attention" {
		t.Errorf("a nil UserAttentionEvent's own getter reads %q", nilEv.GetType())
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("GetID, promoted from the embedded EventCore, read a nil *UserAttentionEvent without panicking")
			}
		}()
		_ = nilEv.GetID()
	}()
}
