package graphplan

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestCreatedName: a proper name right after the noun of what a command
// creates names the new thing; a name sent somewhere ("to favorites"), a
// name after a word other than a creating one, or a name after a verb
// alone does not.
func TestCreatedName(t *testing.T) {
	for _, tc := range []struct {
		cmd, name string
		want      bool
	}{
		{"create a new contact Ada Lovelace, mobile number 5550100", "Ada Lovelace", true},
		{"new contact Ada Lovelace", "Ada Lovelace", true},
		{"add a contact Grace Hopper", "Grace Hopper", true},
		{"create a new album 'Summer'", "'Summer'", true},
		{"add contact Ada to favorites", "Ada", false},
		{"call contact Ada Lovelace", "Ada Lovelace", false},
		{"open the contact Ada Lovelace", "Ada Lovelace", false},
		{"add Ada Lovelace", "Ada Lovelace", false},
	} {
		i := strings.Index(tc.cmd, tc.name)
		kind := intent.KindWord
		if strings.HasPrefix(tc.name, "'") {
			kind = intent.KindQuoted
		}
		v := intent.Value{Text: strings.Trim(tc.name, "'"), Kind: kind, Start: i, End: i + len(tc.name)}
		if got := createdName(tc.cmd, v); got != tc.want {
			t.Errorf("createdName(%q, %q) = %v, want %v", tc.cmd, tc.name, got, tc.want)
		}
	}
}

// TestNameParts: a person's name of two to four capitalised words splits
// into its given names and its family name; a word in lower case, a
// digit or one word is no person's name.
func TestNameParts(t *testing.T) {
	for _, tc := range []struct {
		in, given, family string
		ok                bool
	}{
		{"Ada Lovelace", "Ada", "Lovelace", true},
		{"Mary Ann O'Neil", "Mary Ann", "O'Neil", true},
		{"Ada", "", "", false},
		{"Ada lovelace", "", "", false},
		{"Room 101", "", "", false},
	} {
		g, f, ok := nameParts(tc.in)
		if g != tc.given || f != tc.family || ok != tc.ok {
			t.Errorf("nameParts(%q) = %q, %q, %v; want %q, %q, %v", tc.in, g, f, ok, tc.given, tc.family, tc.ok)
		}
	}
}

// TestPersonNameIntoItsFields: on a contact form that asks for the given
// and the family name apart, "create a new contact Ada Lovelace …" types
// "Ada" into the first and "Lovelace" into the second, and the number,
// even where the app shows a row named like the new contact; a form with
// one name field takes the name whole.
func TestPersonNameIntoItsFields(t *testing.T) {
	ctx := context.Background()
	type field struct {
		id        int
		hint, rid string
	}
	// form builds the form with each field showing its text in held (by
	// id), else its hint as text (as dumps of empty fields report it)
	form := func(t *testing.T, fields []field, held map[int]string) *screen.Snapshot {
		var b strings.Builder
		for _, f := range fields {
			text := held[f.id]
			if text == "" {
				text = f.hint
			}
			fmt.Fprintf(&b, `{"id":%d,"parent":0,"class":"android.widget.EditText","text":%q,"resource_id":"org.example.people:id/%s","bounds":[0,%d,800,%d],"clickable":true,"editable":true,"enabled":true,"visible_to_user":true},`, f.id, text, f.rid, f.id*100, f.id*100+90)
		}
		b.WriteString(`{"id":9,"parent":0,"class":"android.widget.Button","text":"Save","bounds":[800,2000,1000,2100],"clickable":true,"enabled":true,"visible_to_user":true}`)
		s := screenOf(t, b.String())
		s.Package = "org.example.people"
		return s
	}
	const cmd = "create a new contact Ada Lovelace, mobile number 5550100"
	for _, tc := range []struct {
		name   string
		fields []field
		want   []string // the texts typed, sorted
	}{
		{"given and family name", []field{{1, "First name", "first_name"}, {2, "Surname", "surname"}, {3, "Mobile number", "mobile_number"}},
			[]string{"5550100", "Ada", "Lovelace"}},
		{"one name field", []field{{1, "Name", "name"}, {3, "Mobile number", "mobile_number"}},
			[]string{"5550100", "Ada Lovelace"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, appID := storeWithApp(t, "org.example.people", "People")
			// a row named like the new contact elsewhere in the app
			recordScreen(t, store, appID, "list", ".List", screen.Descriptor{Text: "Ada Lovelace", Class: "android.widget.TextView"})
			p := New(store)
			var history []daemon.StepRecord
			var typed []string
			held := map[int]string{}
			for step := 0; step < 6; step++ {
				s := form(t, tc.fields, held)
				st := &daemon.PlanState{Command: cmd, Package: "org.example.people", AppID: appID, Screen: s, Elements: screen.Elements(s), Print: "form", Step: step, History: history}
				d, err := p.Next(ctx, st)
				if err != nil {
					t.Fatal(err)
				}
				if d.Action != device.Input {
					t.Logf("step %d: %s %d (%s)", step, d.Action, d.Element, d.Reason)
					break
				}
				e := st.Elements[d.Element]
				typed = append(typed, d.Text)
				history = append(history, daemon.StepRecord{Action: device.Input, Target: screen.Descriptor{Text: e.Label, ResourceID: e.Resource, Class: "android.widget.EditText", Editable: true}, Text: d.Text, Label: e.Label, Screen: "form", After: "form", OK: true, Changed: true})
				held[e.NodeID] = d.Text
			}
			slices.Sort(typed)
			if fmt.Sprint(typed) != fmt.Sprint(tc.want) {
				t.Errorf("typed %q, want %q", typed, tc.want)
			}
		})
	}
}

// TestNumberReplacesANumber: an unquoted number goes into a field that
// shows no name but holds a number, when the field's resource-id words
// fit the words before it (a form being edited: the dump leaves the hint
// out once the field holds a value); not into one holding a name, one
// whose resource-id says something else or only something alike ("image"
// for "photo"), or for a time of day.
func TestNumberReplacesANumber(t *testing.T) {
	field := func(text, rid string) *screen.Element {
		return &screen.Element{Kind: screen.KindInput, Label: text, Value: text, Resource: "org.example.people:id/" + rid}
	}
	for _, tc := range []struct {
		name, cmd string
		e         *screen.Element
		want      string
	}{
		{"a number field", "change the home number to 5550100", field("5550123", "home_number"), "5550100"},
		{"a number written with signs", "change the home number to +1 555-0100", field("(555) 0123", "home_number"), "+1 555-0100"},
		{"a field holding a name", "change the home number to 5550100", field("Dora", "home_number"), ""},
		{"another field's id", "change the home number to 5550100", field("5550123", "postal_code"), ""},
		{"a time of day", "set the countdown to 7:30", field("5:00", "countdown_label"), ""},
		{"an id sharing only a concept", "scale the photo to 1000", field("1920", "image_width"), ""},
	} {
		rs := newRunState(tc.cmd, "")
		got := ""
		if v := rs.nextValueFor(tc.e); v >= 0 {
			got = rs.values[v].text
		}
		if got != tc.want {
			t.Errorf("%s: %q typed %q, want %q", tc.name, tc.cmd, got, tc.want)
		}
	}
}

// TestValueToTypeKeepsTheRunGoing: the photo the command names is open
// (its words covered), and the value it gives is still to type: the path
// to the element its verb names is taken, though it covers little of the
// command's weight (the bar for the last part of a command, which stops
// overshooting, is for a command with nothing left to type).
func TestValueToTypeKeepsTheRunGoing(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.go", "Go")
	main, opener := recordScreen(t, store, appID, "main", "org.example.go/.MainActivity", screen.Descriptor{Desc: "View the newest picture of the beach"})
	viewer, els := recordScreen(t, store, appID, "viewer", "org.example.go/.MainActivity",
		screen.Descriptor{Text: "More options"}, screen.Descriptor{Text: "Share"}, screen.Descriptor{Text: "Delete"})
	menu, items := recordScreen(t, store, appID, "menu", "org.example.go/.MainActivity",
		screen.Descriptor{Text: "Stretch"}, screen.Descriptor{Text: "Rotate"}, screen.Descriptor{Text: "Print"})
	form, _ := recordScreen(t, store, appID, "form", "org.example.go/.MainActivity",
		screen.Descriptor{Class: "android.widget.EditText", ResourceID: "org.example.go:id/stretch_width", Editable: true}, screen.Descriptor{Text: "OK"})
	for _, tr := range []knowledge.Transition{{From: main.ID, To: viewer.ID, Action: device.Tap, ElementID: opener[0].ID}, {From: viewer.ID, To: menu.ID, Action: device.Tap, ElementID: els[0].ID}, {From: menu.ID, To: form.ID, Action: device.Tap, ElementID: items[0].ID}} {
		if _, err := store.RecordTransition(ctx, tr); err != nil {
			t.Fatal(err)
		}
	}
	nodes := `
	 {"id":1,"parent":0,"class":"android.widget.ImageView","content_desc":"More options","bounds":[900,0,1080,100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageView","content_desc":"Share","bounds":[0,2000,300,2100],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.ImageView","content_desc":"Delete","bounds":[300,2000,600,2100],"clickable":true,"enabled":true,"visible_to_user":true}`
	history := []daemon.StepRecord{{Action: device.Tap, Target: screen.Descriptor{Desc: "View the newest picture of the beach"}, Label: "View the newest picture of the beach", Screen: "main", After: "viewer", OK: true, Changed: true}}
	d, st := nextOn(t, store, appID, nodes, "viewer", "stretch the newest picture of the beach to 1200", history)
	if !tapsLabel(d, st, "More options") {
		t.Errorf("%s %d (%s), want a tap on More options", d.Action, d.Element, d.Reason)
	}
}
