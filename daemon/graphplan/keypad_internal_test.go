package graphplan

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestKeyOf(t *testing.T) {
	for _, tc := range []struct {
		label string
		want  rune // 0: no key
	}{
		{"9", '9'}, {"9 WXYZ", '9'}, {"0 +", '0'}, {"Nine", '9'}, {"zero", '0'}, {"Asterisk", '*'}, {"#", '#'},
		{"10", 0}, {"9:00", 0}, {"5 minutes", 0}, {"1 Jul", 0}, {"Ninety", 0}, {"", 0}, {"One more thing", 0},
	} {
		got, ok := keyOf(tc.label)
		if !ok {
			got = 0
		}
		if got != tc.want {
			t.Errorf("keyOf(%q) = %q, want %q", tc.label, got, tc.want)
		}
	}
}

func TestDialable(t *testing.T) {
	for _, tc := range []struct{ v, want string }{
		{"999", "999"}, {"+1 (555) 010-0100", "+15550100100"}, {"*123#", "*123#"}, {"12:30", ""}, {"Dora", ""}, {"--", ""},
	} {
		got, ok := dialable(tc.v)
		if !ok {
			got = ""
		}
		if got != tc.want {
			t.Errorf("dialable(%q) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// keypadScreen is a dialpad: keys named in content-desc, a number field,
// a call button.
func keypadScreen(t *testing.T) *screen.Snapshot {
	names := []string{"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"}
	var b strings.Builder
	b.WriteString(`{"id":1,"parent":0,"class":"android.widget.EditText","bounds":[0,100,1080,200],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},`)
	for i, n := range names {
		fmt.Fprintf(&b, `{"id":%d,"parent":0,"class":"android.widget.RelativeLayout","content_desc":%q,"bounds":[%d,1000,%d,1100],"clickable":true,"enabled":true,"visible_to_user":true},`, i+2, n, i*100, i*100+90)
	}
	b.WriteString(`{"id":20,"parent":0,"class":"android.widget.ImageView","content_desc":"Place the call","bounds":[400,2000,600,2100],"clickable":true,"enabled":true,"visible_to_user":true}`)
	return screenOf(t, b.String())
}

// TestNumberKeyedOnAKeypad: on a keypad the number a verb gives is keyed
// digit by digit, each tap counted, then it is done; a number naming a
// field's value or a quantity with its unit is not keyed, a number the
// command calls is, wherever it stands; a key that did
// nothing stops the keying.
func TestNumberKeyedOnAKeypad(t *testing.T) {
	s := keypadScreen(t)
	els := screen.Elements(s)
	st := &daemon.PlanState{Screen: s, Elements: els, Print: "pad"}
	rs := newRunState("dial 505", "")
	var tapped []string
	for range 3 {
		c, ok := rs.keypadKey(st)
		if !ok {
			t.Fatalf("no key to tap after %v", tapped)
		}
		label := els[c.element].Label
		tapped = append(tapped, label)
		rs.foldStep(daemon.StepRecord{Action: "tap", Target: screen.Describe(s, els[c.element].NodeID), Screen: "pad", After: "pad", OK: true})
	}
	if strings.Join(tapped, " ") != "Five Zero Five" || !rs.values[0].done || rs.keys != 3 {
		t.Errorf("tapped %v, value done %v, keys %d; want Five Zero Five, done, 3", tapped, rs.values[0].done, rs.keys)
	}
	if _, ok := rs.keypadKey(st); ok {
		t.Error("a key proposed once the number is entered")
	}
	if _, ok := newRunState("save Dora's mobile number 505", "").keypadKey(st); ok {
		t.Error("a field's value keyed on the keypad")
	}
	if _, ok := newRunState("set the timer to 5 minutes", "").keypadKey(st); ok {
		t.Error("a quantity keyed on the keypad")
	}
	if _, ok := newRunState("call 505 now", "").keypadKey(st); !ok {
		t.Error("a number to call, then 'now', not keyed")
	}
	if _, ok := newRunState("call the front desk 505", "").keypadKey(st); !ok {
		t.Error("a number to call, after the words that name it, not keyed")
	}
	st.History = []daemon.StepRecord{{Action: "tap", Screen: "pad", After: "pad", OK: false}}
	if _, ok := newRunState("dial 505", "").keypadKey(st); ok {
		t.Error("keying goes on after a key did nothing")
	}
	if isKeypad([]string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}) {
		t.Error("nine digits make a keypad")
	}
}

// FuzzKeyOf: any label and any value are read without a panic; a key is
// a digit, * or #, and a dialable value holds only keys and +.
func FuzzKeyOf(f *testing.F) {
	f.Add("9 WXYZ", "+1 (555) 010-0100")
	f.Add("Nine", "*123#")
	f.Add("0 +", "")
	f.Add("é", "٣")
	f.Fuzz(func(t *testing.T, label, value string) {
		if k, ok := keyOf(label); ok && !strings.ContainsRune("0123456789*#", k) {
			t.Fatalf("keyOf(%q) = %q", label, k)
		}
		if keys, ok := dialable(value); ok && strings.Trim(keys, "0123456789*#+") != "" {
			t.Fatalf("dialable(%q) = %q", value, keys)
		}
	})
}

// TestNoKeyWithoutANumber: a keypad's key is passed over for a command
// with no number to enter ("hide the digits on the keypad"), not for one
// that dials.
func TestNoKeyWithoutANumber(t *testing.T) {
	s := keypadScreen(t)
	els := screen.Elements(s)
	st := &daemon.PlanState{Screen: s, Elements: els}
	nine := -1
	for i, e := range els {
		if r, ok := keyOf(e.Label); ok && r == '9' {
			nine = i
		}
	}
	if nine < 0 {
		t.Fatal("no key 9 on the keypad screen")
	}
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"hide the digits on the keypad", true},
		{"dial 911", false},
	} {
		if got := newRunState(tc.cmd, "").keyWithoutNumber(st, candidate{action: device.Tap, element: nine}); got != tc.want {
			t.Errorf("%q: passed over %v, want %v", tc.cmd, got, tc.want)
		}
	}
}

// TestKeypadKeysAreNotExplored: exploration never taps a keypad's key (it
// enters a digit); a key-like label elsewhere is no key.
func TestKeypadKeysAreNotExplored(t *testing.T) {
	s := keypadScreen(t)
	st := &daemon.PlanState{Screen: s, Elements: screen.Elements(s), Print: "pad"}
	for i := range st.Elements {
		if e := &st.Elements[i]; explorable(st, e) {
			if _, key := keyOf(e.Label); key {
				t.Errorf("key %q may be explored", e.Label)
			}
		}
	}
	one := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"One","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true}`)
	st = &daemon.PlanState{Screen: one, Elements: screen.Elements(one), Print: "p"}
	if !explorable(st, &st.Elements[0]) {
		t.Error(`a lone "One" button, on no keypad, is not explorable`)
	}
}

// TestKeypadOpenedByItsActivityName: a number to call, and a keypad the
// graph recorded on a screen of its own activity that no known path
// reaches: the element named as that activity ("Touch tones" for
// "….TouchTonesActivity") opens it. Not when the keypad is reachable, not
// for a command with no number to key, not when nothing is so named.
func TestKeypadOpenedByItsActivityName(t *testing.T) {
	ctx := context.Background()
	const main = `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Ledger","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Touch tones","bounds":[900,2000,1060,2150],"clickable":true,"enabled":true,"visible_to_user":true}`
	const unnamed = `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Ledger","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Go on","bounds":[900,2000,1060,2150],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct {
		name, cmd, nodes string
		linked           bool // the graph knows the tap that opens the keypad
		want             bool
	}{
		{"named as the keypad's activity", "call 505", main, false, true},
		{"the keypad is reachable", "call 505", main, true, false},
		{"no number to key", "call my sister", main, false, false},
		{"nothing so named", "call 505", unnamed, false, false},
	} {
		store, appID := storeWithApp(t, "org.example.phone", "Ringer")
		home, homeEls := recordScreen(t, store, appID, "main", "org.example.phone/.MainActivity", screen.Descriptor{Text: "Ledger"}, screen.Descriptor{Desc: "Touch tones"})
		var keys []screen.Descriptor
		for _, n := range []string{"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"} {
			keys = append(keys, screen.Descriptor{Desc: n})
		}
		pad, _ := recordScreen(t, store, appID, "pad", "org.example.phone/.TouchTonesActivity", keys...)
		if tc.linked {
			if _, err := store.RecordTransition(ctx, knowledge.Transition{From: home.ID, To: pad.ID, Action: "tap", ElementID: homeEls[1].ID}); err != nil {
				t.Fatal(err)
			}
		}
		s := screenOf(t, tc.nodes)
		s.Package, s.Activity = "org.example.phone", "org.example.phone/.MainActivity"
		st := &daemon.PlanState{Command: tc.cmd, Package: "org.example.phone", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "main"}
		d, err := New(store).Next(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		got := d.Action == device.Tap && d.Element >= 0 && strings.Contains(d.Reason, "named as the screen")
		if got != tc.want {
			t.Errorf("%s: %s %d (%s); want the keypad's opener: %v", tc.name, d.Action, d.Element, d.Reason, tc.want)
		}
	}
}

// TestNoPathToAKeyWithoutANumber: with no number to enter, a keypad's
// key is no target of a path either ("hide the digits on the pad" heads
// for the setting that hides them, not for the key "Nine" whose word
// "digit" it shares); a command that dials still heads for the keypad.
func TestNoPathToAKeyWithoutANumber(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		cmd  string
		want bool // a candidate heads for the keypad's key
	}{
		{"hide the digits on the pad", false},
		{"dial 909", true},
	} {
		store, appID := storeWithApp(t, "org.example.phone", "Ringer")
		s := screenOf(t, `
	 {"id":1,"parent":0,"class":"android.widget.Button","text":"Pad","bounds":[0,200,540,300],"clickable":true,"enabled":true,"visible_to_user":true}`)
		home, homeEls := recordScreen(t, store, appID, "main", "org.example.phone/.MainActivity", screen.Describe(s, 1))
		var keys []screen.Descriptor
		for _, n := range []string{"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine"} {
			keys = append(keys, screen.Descriptor{Desc: n})
		}
		pad, _ := recordScreen(t, store, appID, "pad", "org.example.phone/.MainActivity", keys...)
		if _, err := store.RecordTransition(ctx, knowledge.Transition{From: home.ID, To: pad.ID, Action: device.Tap, ElementID: homeEls[0].ID}); err != nil {
			t.Fatal(err)
		}
		s.Package = "org.example.phone"
		st := &daemon.PlanState{Command: tc.cmd, Package: "org.example.phone", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "main"}
		p := New(store)
		g, err := p.graph(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		rs := newRunState(st.Command, "Ringer")
		cands := p.graphCandidates(ctx, rs, st, g, nil, g.weights(rs, st))
		got := slices.ContainsFunc(cands, func(c candidate) bool {
			_, key := keyOf(strings.TrimSuffix(strings.TrimPrefix(c.reason, `on the way to "`), `" (1 steps away in the UI graph)`))
			return c.via == 1 && key
		})
		if got != tc.want {
			t.Errorf("%q: candidates %+v; heads for a key: %v, want %v", tc.cmd, cands, got, tc.want)
		}
	}
}
