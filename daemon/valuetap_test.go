package daemon

import (
	"context"
	"slices"
	"strconv"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// searchResults is a search screen: the query field, then one list row
// per label.
func searchResults(t *testing.T, query string, rows ...string) *screen.Snapshot {
	t.Helper()
	xml := `<?xml version="1.0"?><hierarchy rotation="0"><node class="android.widget.LinearLayout" bounds="[0,0][1080,2000]">` +
		`<node text="` + query + `" class="android.widget.EditText" editable="true" focusable="true" clickable="true" enabled="true" bounds="[0,0][1080,100]"/>` +
		`<node class="androidx.recyclerview.widget.RecyclerView" scrollable="true" bounds="[0,100][1080,2000]">`
	for i, r := range rows {
		top := 100 + 120*i
		xml += `<node class="android.widget.LinearLayout" clickable="true" enabled="true" bounds="[0,` + strconv.Itoa(top) + `][1080,` + strconv.Itoa(top+120) + `]">` +
			`<node text="` + r + `" class="android.widget.TextView" bounds="[40,` + strconv.Itoa(top+10) + `][1000,` + strconv.Itoa(top+110) + `]"/></node>`
	}
	s, err := screen.ParseUIAutomator([]byte(xml + `</node></node></hierarchy>`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func elementNamed(t *testing.T, s *screen.Snapshot, label string) screen.Element {
	t.Helper()
	for _, el := range screen.Elements(s) {
		if el.Label == label && !screen.Describe(s, el.NodeID).Editable {
			return el
		}
	}
	t.Fatalf("no element %q", label)
	return screen.Element{}
}

// TestValueBoundTap: a flow that typed "Dora" and tapped the "Dora"
// result learns the tap as bound to the typed slot; a replay for "Dana"
// taps the row carrying Dana, and with no such row, or two equally
// fitting, finds nothing: it never taps the old row or a guess.
func TestValueBoundTap(t *testing.T) {
	learned := searchResults(t, "Dora", "Dora", "Dora Cooper")
	row := screen.Describe(learned, elementNamed(t, learned, "Dora").NodeID)
	field := screen.Describe(learned, 1)

	r := &run{res: &Result{Command: "search contacts for Dora and open her"}, slots: map[string]string{"contact": "Dora"}}
	steps := r.flowSteps([]StepRecord{
		{Step: 0, Action: device.Input, Target: field, Text: "Dora", OK: true, Changed: true, Screen: "a", After: "b"},
		{Step: 1, Action: device.Tap, Target: row, OK: true, Changed: true, Screen: "b", After: "c"},
	}, 0)
	if len(steps) != 2 || steps[0].Text != "{contact}" || steps[1].Text != "{contact}" {
		t.Fatalf("learned steps %+v: want the input and the tap bound to {contact}", steps)
	}
	if name, ok := IsValueTap(steps[1]); !ok || name != "contact" {
		t.Fatalf("IsValueTap = %q, %v", name, ok)
	}
	if _, ok := IsValueTap(knowledge.Step{Action: device.Tap, Text: "{size}", Choices: []string{"S", "M", "L"}}); ok {
		t.Error("an option group's tap is a choice slot, not a value-bound tap")
	}
	// an element carrying a value typed only later, or an input field, is not bound
	if got := valueSlot(row, nil, r.slots); got != "" {
		t.Errorf("valueSlot with nothing typed before = %q", got)
	}
	if got := valueSlot(field, []string{"contact"}, r.slots); got != "" {
		t.Errorf("valueSlot of an input field = %q", got)
	}

	step := steps[1]
	for _, tt := range []struct {
		name  string
		rows  []string
		value string
		want  string // "" none
	}{
		{"the new value's row", []string{"Dana", "Danny Chan"}, "Dana", "Dana"},
		{"case folded", []string{"Dana"}, "dana", "Dana"},
		{"the only row carrying it", []string{"Dana Smith · Mobile", "Bob"}, "dana", "Dana Smith · Mobile"},
		{"no row: the old one is never tapped", []string{"Dora"}, "Dana", ""},
		{"two rows carry it, none is it: no guess", []string{"Dana Smith", "Dana Stone"}, "dana", ""},
		{"a word inside another is not it", []string{"Danaher"}, "dana", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := searchResults(t, tt.value, tt.rows...)
			elems := screen.Elements(s)
			i := valueRow(s, elems, step, tt.value)
			got := ""
			if i >= 0 {
				got = elems[i].Label
			}
			if got != tt.want {
				t.Errorf("valueRow = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestNamedRowIsAChoice: a list row carrying a value the command names (a
// name, a file name) may become a choice slot; a row named in plain words
// (a setting) and an input field never do.
func TestNamedRowIsAChoice(t *testing.T) {
	contacts := searchResults(t, "", "Dora", "Bob", "Dana")
	settings := searchResults(t, "", "Show weekends", "Round corners", "Compact rows")
	files := searchResults(t, "", "memo1.ogg · 12 kB", "memo2.ogg · 9 kB", "plan.txt · 1 kB")
	for _, tt := range []struct {
		name    string
		s       *screen.Snapshot
		label   string
		command string
		want    bool
	}{
		{"a name the command says", contacts, "Dora", "star Dora in my people", true},
		{"a quoted name", contacts, "Bob", "call 'bob' now", true},
		{"a row the command does not name", contacts, "Dana", "star Dora in my people", false},
		{"a setting named in plain words", settings, "Show weekends", "show weekends", false},
		{"a setting holding a word the command capitalises", settings, "Round corners", "Round Corners", false},
		{"a file name written bare", files, "memo1.ogg · 12 kB", "play memo1.ogg from the recent list", true},
		{"another file's row", files, "memo2.ogg · 9 kB", "play memo1.ogg from the recent list", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			el := elementNamed(t, tt.s, tt.label)
			if got := isNamedRow(tt.s, &el, tt.command); got != tt.want {
				t.Errorf("isNamedRow(%q, %q) = %v, want %v", tt.label, tt.command, got, tt.want)
			}
		})
	}
	if ps := peers(contacts, ptr(elementNamed(t, contacts, "Dora"))); len(ps) != 3 || choiceValue("star Dora in my people", ps) != "dora" || pickByCommand(ps, "star bob in my people") != 1 {
		t.Errorf("peers %q: Dora's row is not a choice that Bob's replaces", ps)
	}
	// a file name is the slot's value as written, not "memo1 ogg", so the
	// flow's intent holds "{…}" where the command said it
	ps := rowHeads(peers(files, ptr(elementNamed(t, files, "memo1.ogg · 12 kB"))))
	if v := choiceValue("play memo1.ogg from the recent list", ps); v != "memo1.ogg" {
		t.Errorf("choiceValue over %q = %q, want memo1.ogg", ps, v)
	}
	if got := pickByCommand(ps, "play memo2.ogg from the recent list"); got != 1 {
		t.Errorf("pickByCommand(memo2.ogg) = %d, want 1", got)
	}
	// at replay a row is picked by its first text: "memo 12.ogg" names
	// no row, though memo1's shows "12 kB" beside it (over whole labels
	// that size would pick it)
	full, names := choiceLabels(files, ptr(elementNamed(t, files, "memo1.ogg · 12 kB")))
	if len(full) != 3 || full[0] != "memo1.ogg · 12 kB" || !slices.Equal(names, []string{"memo1.ogg", "memo2.ogg", "plan.txt"}) {
		t.Fatalf("choiceLabels = %q, %q", full, names)
	}
	if got := pickByCommand(names, "play memo 12.ogg"); got != -1 {
		t.Errorf("pickByCommand(memo 12.ogg) over row names = %d, want -1 (a size is no name)", got)
	}
}

func ptr[T any](v T) *T { return &v }

// TestKnownChoicesSetsAsideAFlowThatCannotReplay: "call 112" against a
// flow "call {contact}" learned over contact rows and a flow "call 112":
// the first names no contact the flow knows and must not hide the second.
func TestKnownChoicesSetsAsideAFlowThatCannotReplay(t *testing.T) {
	contacts := []string{"Dora", "Bob", "Dana"}
	flows := map[int64]*knowledge.Flow{
		1: {ID: 1, Name: "Call Dora", Intent: "call {contact}", Slots: []knowledge.Slot{{Name: "contact", Example: "Dora"}},
			Steps: []knowledge.Step{{Action: device.Tap, Text: "{contact}", Choices: contacts}}},
		2: {ID: 2, Name: "Call 112", Intent: "call 112", Steps: []knowledge.Step{{Action: device.Tap}}},
	}
	for _, tt := range []struct {
		command string
		slot    string
		want    []int64
	}{
		{"call 112", "112", []int64{2}},
		{"call bob", "bob", []int64{1, 2}},
	} {
		r := &run{e: &Engine{bus: event.NewBus()}, res: &Result{Command: tt.command}}
		cands := []intent.Candidate{{FlowID: 1, Score: 1, Slots: map[string]string{"contact": tt.slot}}, {FlowID: 2, Score: 0.9}}
		var got []int64
		for _, c := range r.knownChoices(context.Background(), cands, flows) {
			got = append(got, c.FlowID)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: candidates %v, want %v", tt.command, got, tt.want)
		}
	}
}

// TestTypedValuesOfAnOffer: an offered flow shows what it would type, in
// step order, never a password.
func TestTypedValuesOfAnOffer(t *testing.T) {
	f := &knowledge.Flow{Intent: "send {message} to {contact}", Slots: []knowledge.Slot{{Name: "message", Example: "hi"}, {Name: "contact", Example: "Ann"}, {Name: PasswordSlot}},
		Steps: []knowledge.Step{
			{Action: device.Input, Text: "{" + PasswordSlot + "}"},
			{Action: device.Input, Text: "{contact}"},
			{Action: device.Tap, Text: "{contact}"},
			{Action: device.Input, Text: "{message}"},
		}}
	got := typedValues(f, map[string]string{"message": "running late", "contact": "Bob", PasswordSlot: "hunter2"})
	if !slices.Equal(got, []string{`"Bob"`, `"running late"`}) {
		t.Errorf("typedValues = %q", got)
	}
}

// TestRowHeads: a named row's choices keep only each row's first text,
// not what follows it (a message preview).
func TestRowHeads(t *testing.T) {
	got := rowHeads([]string{"Dora · See you · 12.04", "Bob · Call me · 11.04", "Dora · older", "Dana"})
	if !slices.Equal(got, []string{"Dora", "Bob", "Dana"}) {
		t.Errorf("rowHeads = %q", got)
	}
}
