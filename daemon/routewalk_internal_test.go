package daemon

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// askedPlanner types into the first input field, then says done, and
// notes which steps it was asked about and the flow's command each
// state gave it (PlanState.Learned).
type askedPlanner struct {
	text    string
	asked   []int
	learned []string
}

func (p *askedPlanner) Name() string { return "graph" }

func (p *askedPlanner) Next(_ context.Context, st *PlanState) (Decision, error) {
	p.asked = append(p.asked, st.Step)
	p.learned = append(p.learned, st.Learned)
	for _, e := range st.Elements {
		if e.Kind == screen.KindInput && p.text != "" {
			t := p.text
			p.text = ""
			return Decision{Action: device.Input, Element: e.Index, Text: t}, nil
		}
	}
	if st.Step == 1 {
		return Decision{Action: device.Tap, Element: 1}, nil // whatever: the kept rows show the old value
	}
	return Decision{Action: ActDone, Element: -1}, nil
}

// TestWalkTakesTheValueRow: a flow that searched and opened the result
// carrying the typed value keeps a results screen for the value it typed
// then; a walk that typed another value takes the tap as the replay does
// (the row carrying the walk's value), without asking the checker about
// rows that show the old one.
func TestWalkTakesTheValueRow(t *testing.T) {
	ctx := context.Background()
	st := knowledgetest.Open(t)
	query, results, end := searchResults(t, ""), searchResults(t, "", "Dora", "Dora Cooper"), searchResults(t, "", "Dora · Mobile 555")
	field := screen.Describe(query, 1)
	row := screen.Describe(results, elementNamed(t, results, "Dora").NodeID)
	f := knowledge.Flow{Package: "com.example.contacts", Name: "search contacts for dora and open her", Intent: "search contacts for {contact} and open her",
		Slots: []knowledge.Slot{{Name: "contact", Example: "Dora"}}, Goal: &knowledge.Goal{Screen: "fc"},
		Steps: []knowledge.Step{
			{Screen: "fa", Action: device.Input, Target: field, Text: "{contact}", Expect: "fb"},
			{Screen: "fb", Action: device.Tap, Target: row, Text: "{contact}", Expect: "fc"},
		}}
	saveWalked(t, st, &f, query, results, end)
	r := &run{e: &Engine{store: st}, res: &Result{Command: "search contacts for Dana and open her", Package: f.Package}}
	p := &askedPlanner{text: "Dana"}
	slots, _, why := r.walkRoute(ctx, p, &f, substitution{})
	if why != "" || slots["contact"] != "Dana" {
		t.Fatalf("walk: slots %v, why %q; want {contact: Dana} confirmed", slots, why)
	}
	if !slices.Equal(p.asked, []int{0, 2}) {
		t.Errorf("the checker was asked about steps %v, want 0 and 2 (not the row step)", p.asked)
	}
	if slices.ContainsFunc(p.learned, func(l string) bool { return l != learnedAs(&f) }) {
		t.Errorf("the checker was told the flow was learned as %q, want %q each time", p.learned, learnedAs(&f))
	}
	// nothing typed before the row step: the checker decides, and differs
	p = &askedPlanner{}
	if _, _, why := r.walkRoute(ctx, p, &f, substitution{}); why == "" {
		t.Error("a walk that typed nothing took the row step")
	}
}

// TestRepairedPath: the records behind a repaired flow are one replayed
// record per step before the broken one, on that step's screen, then the
// planner's path; a step found already done, a recovery in place of a
// step, or a path of another length keeps no screens.
func TestRepairedPath(t *testing.T) {
	f := &knowledge.Flow{Steps: []knowledge.Step{{Screen: "a"}, {Screen: "b"}, {Screen: "c"}}}
	replayed := func(screen string) StepRecord { return StepRecord{Screen: screen, Mode: "replay", OK: true} }
	planned := StepRecord{Screen: "b", Mode: "graph", OK: true, Changed: true, After: "d"}
	recovery := StepRecord{Screen: "c", Mode: "recovery", OK: true, Action: device.Back}
	for _, tc := range []struct {
		name  string
		steps []StepRecord
		kept  int
		n     int
		ok    bool
	}{
		{"replayed, recovered, planned", []StepRecord{replayed("a"), recovery, planned}, 2, 2, true},
		{"a step already done", []StepRecord{{Screen: "a", Mode: "replay", OK: true, Message: "already on"}, planned}, 1, 2, false},
		{"a replayed record on another screen", []StepRecord{replayed("z"), planned}, 1, 2, false},
		{"a path of another length", []StepRecord{replayed("a"), planned}, 1, 3, false},
	} {
		path, ok := repairedPath(f, 1, tc.kept, tc.n, tc.steps)
		if ok != tc.ok || ok && (len(path) != 2 || path[0].Screen != "a" || path[1].Mode != "graph") {
			t.Errorf("%s: %v %+v, want ok %v", tc.name, ok, path, tc.ok)
		}
	}
}

// TestAgreesOnASwitchAsLearned: a flow's tap on a switch counts for a
// command only when the command asks for the state the flow's own words
// (those of one of the commands it was learned and replayed for) asked
// for. A kept screen showing the switch already in the state those
// commands asked for was kept after the tap (a recording keeps one
// capture of a screen): the tap set it to that state from the other.
func TestAgreesOnASwitchAsLearned(t *testing.T) {
	s, err := screen.ParseJSON([]byte(`{"schema":1,"width":1080,"height":2280,"activity":"a/.Settings","windows":[{"id":0,"type":"application","layer":0,"focused":true,"bounds":[0,0,1080,2280],"nodes":[
	 {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1080,2280],"enabled":true,"visible_to_user":true},
	 {"id":1,"parent":0,"class":"android.widget.Switch","text":"Dark mode","bounds":[0,200,1080,320],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	els := screen.Elements(s)
	i := slices.IndexFunc(els, func(e screen.Element) bool { return e.Label == "Dark mode" })
	if i < 0 {
		t.Fatalf("no switch among %+v", els)
	}
	step := knowledge.Step{Action: device.Tap, Target: screen.Describe(s, els[i].NodeID)}
	for _, tc := range []struct {
		command string
		action  string // the checker's
		learned []string
		ok      bool
	}{
		{"switch dark mode off", device.Tap, []string{"turn off dark mode"}, true},
		// its screen shows it on: kept after the tap that turned it on
		{"switch dark mode off", device.Tap, []string{"turn on dark mode"}, false},
		{"switch dark mode on", ActEnsureOn, []string{"turn on dark mode"}, true},
		{"use dark mode", device.Tap, []string{"turn on dark mode"}, true},
		{"stop using dark mode", ActEnsureOff, []string{"dark mode"}, false},
		{"switch dark mode off", device.Tap, []string{"dark mode"}, false},
		// one of the commands it was learned and replayed for says off
		{"switch dark mode off", device.Tap, []string{"dark mode", "switch dark mode off"}, true},
	} {
		st := &PlanState{Command: tc.command, Screen: s, Elements: els}
		d := Decision{Action: tc.action, Element: i}
		if _, why := agrees(s, st, d, step, tc.learned, map[string]string{}); (why == "") != tc.ok {
			t.Errorf("%q learned as %q: %q, want agreeing %v", tc.command, tc.learned, why, tc.ok)
		}
	}
}

// TestAgreesOnAnOptionChosen: the checker choosing an option not chosen
// yet (ensure_on) where the flow taps it is the same step, and a choice
// slot takes the option the walk chose, as its label reads (options
// told apart by a number share a key); an option
// already chosen, which a tap would leave as it is, is not.
func TestAgreesOnAnOptionChosen(t *testing.T) {
	s, err := screen.ParseJSON([]byte(`{"schema":1,"width":1080,"height":2280,"activity":"a/.Grid","windows":[{"id":0,"type":"application","layer":0,"focused":true,"bounds":[0,0,1080,2280],"nodes":[
	 {"id":0,"parent":-1,"class":"android.widget.RadioGroup","bounds":[0,0,1080,2280],"enabled":true,"visible_to_user":true},
	 {"id":1,"parent":0,"class":"android.widget.RadioButton","text":"2 tiles","resource_id":"a:id/tiles_two","bounds":[0,200,1080,320],"checkable":true,"checked":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.RadioButton","text":"6 tiles","resource_id":"a:id/tiles","bounds":[0,320,1080,440],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.RadioButton","text":"9 tiles","resource_id":"a:id/tiles","bounds":[0,440,1080,560],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	els := screen.Elements(s)
	at := labelIndex(t, els)
	choices := []string{"6 tiles", "2 tiles", "9 tiles"}
	st := &PlanState{Command: "show 9 tiles", Screen: s, Elements: els}
	for _, tc := range []struct {
		name   string
		step   knowledge.Step
		chosen string
		ok     bool
		label  string
	}{
		{"the option the flow tapped", knowledge.Step{Action: device.Tap, Target: screen.Describe(s, els[at("9 tiles")].NodeID)}, "9 tiles", true, "9 tiles"},
		{"another option of the flow's choice slot", knowledge.Step{Action: device.Tap, Target: screen.Describe(s, els[at("6 tiles")].NodeID), Text: "{tiles}", Choices: choices}, "9 tiles", true, "9 tiles"},
		{"an option already chosen", knowledge.Step{Action: device.Tap, Target: screen.Describe(s, els[at("2 tiles")].NodeID)}, "2 tiles", false, ""},
	} {
		slots := map[string]string{}
		d := Decision{Action: ActEnsureOn, Element: at(tc.chosen)}
		rec, why := agrees(s, st, d, tc.step, []string{"show 6 tiles"}, slots)
		if (why == "") != tc.ok {
			t.Errorf("%s: %q, want agreeing %v", tc.name, why, tc.ok)
		}
		if tc.ok && rec.Label != tc.label {
			t.Errorf("%s: the walk's step reads %q, want %q", tc.name, rec.Label, tc.label)
		}
	}
}

// rowPlanner taps, at step 0, the row whose label begins with name, and
// says done after.
type rowPlanner struct{ name string }

func (p rowPlanner) Name() string { return "graph" }

func (p rowPlanner) Next(_ context.Context, st *PlanState) (Decision, error) {
	if st.Step == 0 {
		for _, e := range st.Elements {
			if strings.HasPrefix(e.Label, p.name) {
				return Decision{Action: device.Tap, Element: e.Index}, nil
			}
		}
	}
	return Decision{Action: ActDone, Element: -1}, nil
}

// TestWalkTakesTheRowTheCommandNames: a flow that tapped the row its
// command named ("… with Ezra …") is confirmed for a command naming
// another row of the same list ("… with Dora …") when the checker taps
// that row, and the replay is to tap it (the row's name, without its
// preview); a row that is no value of the flow's command (a tab, a page)
// is another command, and a command naming another value whose walk taps
// the flow's own row is not confirmed.
func TestWalkTakesTheRowTheCommandNames(t *testing.T) {
	ctx := context.Background()
	st := knowledgetest.Open(t)
	save := func(learned string, list *screen.Snapshot, tapped string) *knowledge.Flow {
		f := &knowledge.Flow{Package: "com.example.chat", Name: learned, Intent: learned, Commands: []string{learned}, Goal: &knowledge.Goal{Screen: "fb"},
			Steps: []knowledge.Step{{Screen: "fa", Action: device.Tap, Target: screen.Describe(list, elementNamed(t, list, tapped).NodeID), Expect: "fb"}}}
		saveWalked(t, st, f, list, searchResults(t, "", "Marked as unread"))
		return f
	}
	chats := searchResults(t, "", "Dora · See you · 12.04", "Ezra · On my way · 11.04")
	bob := save("mark the thread with Ezra as unread", chats, "Ezra · On my way · 11.04")
	pages := searchResults(t, "", "Threads", "Outbox")
	page := save("open the chats page", pages, "Threads")
	for _, tc := range []struct {
		name, command, taps string
		f                   *knowledge.Flow
		rows                map[int]string // nil: not confirmed
	}{
		{"another contact's row", "mark the thread with Dora as unread", "Dora", bob, map[int]string{0: "Dora"}},
		{"the flow's own row", "mark the thread with Ezra as unread", "Ezra", bob, map[int]string{}},
		{"a row the command does not name", "mark the thread with Nina as unread", "Dora", bob, nil},
		{"the command names both rows", "mark the threads with Dora and Ezra as unread", "Dora", bob, nil},
		{"a row that is no value", "open the outbox page", "Outbox", page, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &run{e: &Engine{store: st}, res: &Result{Command: tc.command, Package: tc.f.Package}}
			_, rows, why := r.walkRoute(ctx, rowPlanner{tc.taps}, tc.f, substitution{})
			if (why == "") != (tc.rows != nil) || tc.rows != nil && !maps.Equal(rows, tc.rows) {
				t.Errorf("walk: rows %v, why %q; want rows %v", rows, why, tc.rows)
			}
		})
	}
	// another value, and the walk taps the flow's own row: not confirmed
	r := &run{e: &Engine{store: st}, cfg: Config{RouteCheck: rowPlanner{"Ezra"}}, res: &Result{Command: "mark the thread with Dora as unread", Package: bob.Package}}
	fits, whyNot := r.routeFits(ctx, []intent.Candidate{{FlowID: bob.ID, Vetoes: []string{intent.VetoValue}}}, map[int64]*knowledge.Flow{bob.ID: bob})
	if len(fits) != 0 || len(whyNot) != 1 || !strings.Contains(whyNot[0], "no row carrying it") {
		t.Errorf("another value, the flow's own row: fits %v, why %q", fits, whyNot)
	}
	// a value of the flow's the command leaves out (intent.VetoLiteral):
	// confirmed only where it is no row the flow tapped, and never for a
	// command asking for all of something
	folders := searchResults(t, "", "Scans · 3 items", "Pets · 1 item")
	scans := save("open the 'Scans' folder, path 'Internal/Scans/'", folders, "Scans · 3 items")
	for _, tc := range []struct {
		command, taps string
		f             *knowledge.Flow
		why           string // "": confirmed
	}{
		{"mark the thread as unread", "Ezra", bob, "its own command named"},
		{"mark every thread as unread", "Ezra", bob, "all of something"},
		{"open the Scans folder", "Scans", scans, ""},
	} {
		r := &run{e: &Engine{store: st}, cfg: Config{RouteCheck: rowPlanner{tc.taps}}, res: &Result{Command: tc.command, Package: tc.f.Package}}
		fits, whyNot := r.routeFits(ctx, []intent.Candidate{{FlowID: tc.f.ID, Vetoes: []string{intent.VetoLiteral}}}, map[int64]*knowledge.Flow{tc.f.ID: tc.f})
		if tc.why == "" && (len(fits) != 1 || len(whyNot) != 0) || tc.why != "" && (len(fits) != 0 || len(whyNot) != 1 || !strings.Contains(whyNot[0], tc.why)) {
			t.Errorf("%q, a value left out: fits %v, why %q; want %q", tc.command, fits, whyNot, tc.why)
		}
	}
}

// saveWalked saves f and keeps screens as the screens its steps act on
// and its end screen, fingerprinted "fa", "fb", … in order.
func saveWalked(t *testing.T, st *knowledge.Store, f *knowledge.Flow, screens ...*screen.Snapshot) {
	t.Helper()
	ctx := context.Background()
	if err := st.SaveFlow(ctx, f); err != nil {
		t.Fatal(err)
	}
	var kept []knowledge.FlowScreen
	for i, s := range screens {
		raw, err := s.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		kept = append(kept, knowledge.FlowScreen{Index: i, Fingerprint: "f" + string(rune('a'+i)), Snapshot: raw})
	}
	if err := st.SetFlowScreens(ctx, f.ID, kept); err != nil {
		t.Fatal(err)
	}
}

// TestUnnamedRow: a flow that tapped the list row its own command named
// is about that row; a command that leaves the name out gives the row no
// other value (unnamedRow), one that says it does, and a value of the
// flow's command that is no row it tapped (a path it only showed) is no
// such row.
func TestUnnamedRow(t *testing.T) {
	row := func(label string) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: screen.Descriptor{Class: "android.widget.LinearLayout", Text: label, InList: true}}
	}
	thread := &knowledge.Flow{Commands: []string{"mark the thread with Ezra as unread"}, Steps: []knowledge.Step{row("Ezra · See you · 12.04"), {Action: device.Tap, Target: screen.Descriptor{Class: "android.widget.TextView", Text: "Flag as unread"}}}}
	folder := &knowledge.Flow{Commands: []string{"create a folder named 'pets' in the 'Scans' folder, path 'Internal/Scans/'"}, Steps: []knowledge.Step{row("Scans · 3 items")}}
	memo := &knowledge.Flow{Commands: []string{"go to recent files and play memo4.ogg"}, Steps: []knowledge.Step{row("memo4.ogg · 120 kB")}}
	for _, tc := range []struct {
		f       *knowledge.Flow
		command string
		want    string
	}{
		{thread, "mark the thread as unread", "Ezra"},
		{thread, "mark Ezra's thread as unread", ""},
		{folder, "create a folder named 'toys' in Scans", ""},
		{folder, "create a folder named 'toys'", "Scans"},
		{memo, "play the recent file", "memo4.ogg"}, // a file name in lower case is a value too
		{memo, "play memo4.ogg", ""},
	} {
		if got, ok := unnamedRow(tc.f, tc.command); got != tc.want || ok != (tc.want != "") {
			t.Errorf("%q: unnamedRow = %q %v, want %q", tc.command, got, ok, tc.want)
		}
	}
}

// TestAgreesOnAFocusingTap: where the flow tapped a field before typing
// into it and the checker would type at once, the tap is taken as the
// flow's (only focusing the field); the checker typing into another
// field, or the flow tapping something that is no field, differs.
func TestAgreesOnAFocusingTap(t *testing.T) {
	s, err := screen.ParseJSON([]byte(`{"schema":1,"width":1080,"height":2280,"activity":"a/.Label","windows":[{"id":0,"type":"application","layer":0,"focused":true,"bounds":[0,0,1080,2280],"nodes":[
	 {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[0,0,1080,2280],"enabled":true,"visible_to_user":true},
	 {"id":1,"parent":0,"class":"android.widget.EditText","text":"Title","resource_id":"a:id/label_title","bounds":[0,200,1080,320],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.EditText","text":"Colour","resource_id":"a:id/label_colour","bounds":[0,320,1080,440],"editable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"OK","resource_id":"a:id/ok","bounds":[0,440,1080,560],"clickable":true,"enabled":true,"visible_to_user":true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	els := screen.Elements(s)
	at := labelIndex(t, els)
	st := &PlanState{Command: "rename the label urgent to later", Screen: s, Elements: els}
	for _, tc := range []struct {
		name, tapped, typedInto string
		ok                      bool
	}{
		{"the field the flow tapped", "Title", "Title", true},
		{"another field", "Title", "Colour", false},
		{"no field tapped", "OK", "Title", false},
	} {
		step := knowledge.Step{Action: device.Tap, Target: screen.Describe(s, els[at(tc.tapped)].NodeID)}
		rec, why := agrees(s, st, Decision{Action: device.Input, Element: at(tc.typedInto), Text: "later"}, step, []string{"rename the label urgent to soon"}, map[string]string{})
		if (why == "") != tc.ok || tc.ok && (rec.Action != device.Tap || rec.Text != "") {
			t.Errorf("%s: %+v %q, want agreeing %v as a tap", tc.name, rec, why, tc.ok)
		}
	}
}

// labelIndex returns a lookup of the index of the element of els
// labelled label, failing t when there is none.
func labelIndex(t *testing.T, els []screen.Element) func(label string) int {
	return func(label string) int {
		t.Helper()
		i := slices.IndexFunc(els, func(e screen.Element) bool { return e.Label == label })
		if i < 0 {
			t.Fatalf("no %q among %+v", label, els)
		}
		return i
	}
}

// TestUnsaidValue: a slot value the walk bound must share a word with the
// command (by stem, stop words aside); the row the flow learned ("Tamsin")
// is no value of "ring Orla".
func TestUnsaidValue(t *testing.T) {
	for _, tc := range []struct {
		command string
		slots   map[string]string
		want    string
	}{
		{"ring Orla", map[string]string{"contact": "Tamsin"}, "contact"},
		{"ring Orla", map[string]string{"contact": "Orla"}, ""},
		{"switch the palette to dusky", map[string]string{"palette": "Dusky theme"}, ""},
		{"show 5 tiles per row", map[string]string{"tiles": "5 tiles", "view": "grid"}, "view"},
		{"set the reminders to chirping", map[string]string{"sound": "Chirp"}, ""},
		{"ring Orla", nil, ""},
		{"ring Orla", map[string]string{"contact": "the"}, ""},
	} {
		if got := unsaidValue(tc.command, tc.slots); got != tc.want {
			t.Errorf("%q %v: unsaidValue %q, want %q", tc.command, tc.slots, got, tc.want)
		}
	}
}

// TestAgreesOnASwappedPeer: where the command says a word in place of
// the flow's (PlanState.Strict, Replaced) and the checker taps the
// flow's element's peer whose label is the flow's with that very swap
// ("Tilt left" for "Tilt right"), the walk agrees and takes the peer; a
// swapped action is another feature, and a command that says the flow's
// word too, or swaps no word, or a peer that differs by more, does not.
func TestAgreesOnASwappedPeer(t *testing.T) {
	s, err := screen.ParseJSON([]byte(`{"schema":1,"width":1080,"height":2280,"activity":"a/.Sketch","windows":[{"id":0,"type":"application","layer":0,"focused":true,"bounds":[0,0,1080,2280],"nodes":[
	 {"id":0,"parent":-1,"class":"android.widget.LinearLayout","bounds":[0,0,1080,2280],"enabled":true,"visible_to_user":true},
	 {"id":1,"parent":0,"class":"android.widget.ImageButton","content_desc":"Tilt left","bounds":[0,2000,270,2280],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.ImageButton","content_desc":"Tilt right","bounds":[270,2000,540,2280],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.ImageButton","content_desc":"Add tint","bounds":[540,2000,810,2280],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.ImageButton","content_desc":"Remove tint","bounds":[810,2000,1080,2280],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":0,"class":"android.widget.ImageButton","content_desc":"Mirror sketch sideways","bounds":[810,1800,1080,2000],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":0,"class":"android.widget.ImageButton","content_desc":"Import palette","bounds":[0,1600,540,1800],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":7,"parent":0,"class":"android.widget.ImageButton","content_desc":"Export palette","bounds":[540,1600,1080,1800],"clickable":true,"enabled":true,"visible_to_user":true}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	els := screen.Elements(s)
	at := labelIndex(t, els)
	for _, tc := range []struct {
		name, command, flowTaps, checkerTaps string
		strict, replaced                     []string
		opens                                bool // the flow's tap leads to another screen
		ok                                   bool
	}{
		{"the flow's word swapped on its element", "tilt my sketch left and keep it", "Tilt right", "Tilt left", []string{"left"}, []string{"right"}, false, true},
		{"no word swapped", "tilt my sketch left and keep it", "Tilt right", "Tilt left", nil, nil, false, false},
		{"the command says the flow's word too", "tilt my sketch left, then right", "Tilt right", "Tilt left", []string{"left"}, []string{"right"}, false, false},
		{"another word than the one swapped", "tilt my sketch left and keep it", "Tilt right", "Tilt left", []string{"left"}, []string{"sketch"}, false, false},
		{"an action swapped", "remove the tint", "Add tint", "Remove tint", []string{"remove"}, []string{"add"}, false, false},
		{"labels that differ by more", "mirror my sketch sideways", "Tilt right", "Mirror sketch sideways", []string{"mirror", "sideways"}, []string{"tilt", "right"}, false, false},
		{"the flow's word swapped, its tap opening another screen", "tilt my sketch left and keep it", "Tilt right", "Tilt left", []string{"left"}, []string{"right"}, true, true},
		{"the head word swapped on the same screen", "import the palette", "Export palette", "Import palette", []string{"import"}, []string{"export"}, false, true},
		{"the head word swapped, the flow's tap opening another screen", "import the palette", "Export palette", "Import palette", []string{"import"}, []string{"export"}, true, false},
	} {
		st := &PlanState{Command: tc.command, Screen: s, Elements: els, Strict: tc.strict, Replaced: tc.replaced}
		step := knowledge.Step{Action: device.Tap, Target: screen.Describe(s, els[at(tc.flowTaps)].NodeID), Screen: "fa", Expect: "fa"}
		if tc.opens {
			step.Expect = "fb"
		}
		rec, why := agrees(s, st, Decision{Action: device.Tap, Element: at(tc.checkerTaps)}, step, []string{"tilt my sketch right and keep it"}, map[string]string{})
		if (why == "") != tc.ok {
			t.Errorf("%s: %q, want agreeing %v", tc.name, why, tc.ok)
		}
		if tc.ok && rec.Label != tc.checkerTaps {
			t.Errorf("%s: the walk's step reads %q, want %q", tc.name, rec.Label, tc.checkerTaps)
		}
	}
}

// TestAgreesTakesARowsName: a choice slot over a list's rows takes the
// row's first text as its value ("memo2.ogg", not "memo2.ogg · 9 kB"),
// as the flow learned its choices.
func TestAgreesTakesARowsName(t *testing.T) {
	s := searchResults(t, "", "memo1.ogg · 12 kB", "memo2.ogg · 9 kB", "plan.txt · 1 kB")
	els := screen.Elements(s)
	at := labelIndex(t, els)
	step := knowledge.Step{Action: device.Tap, Target: screen.Describe(s, els[at("memo1.ogg · 12 kB")].NodeID), Text: "{file}",
		Choices: []string{"memo1.ogg", "memo2.ogg", "plan.txt"}}
	for _, tc := range []struct{ command, row, want string }{
		{"play memo1.ogg", "memo1.ogg · 12 kB", "memo1.ogg"},
		{"play memo2.ogg", "memo2.ogg · 9 kB", "memo2.ogg"},
	} {
		st := &PlanState{Command: tc.command, Screen: s, Elements: els}
		slots := map[string]string{}
		if _, why := agrees(s, st, Decision{Action: device.Tap, Element: at(tc.row)}, step, []string{"play memo1.ogg"}, slots); why != "" || slots["file"] != tc.want {
			t.Errorf("%q: %q, slots %v; want {file} = %q", tc.command, why, slots, tc.want)
		}
	}
}
