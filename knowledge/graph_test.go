package knowledge

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

func TestApps(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	tests := []struct {
		pkg, label string
		wantLabel  string
		kind       error
	}{
		{"com.example.b", "", "", nil},
		{"com.example.b", "Bee", "Bee", nil},
		{"com.example.b", "", "Bee", nil}, // empty label keeps the old one
		{"com.example.a", "Ay", "Ay", nil},
		{"", "x", "", ErrInvalid},
	}
	ids := map[string]int64{}
	for _, tt := range tests {
		a, err := s.UpsertApp(ctx, tt.pkg, tt.label)
		isKind(t, err, tt.kind)
		if err != nil {
			continue
		}
		if a.Package != tt.pkg || a.Label != tt.wantLabel || a.ID == 0 {
			t.Fatalf("UpsertApp(%q, %q) = %+v", tt.pkg, tt.label, a)
		}
		if id, ok := ids[tt.pkg]; ok && id != a.ID {
			t.Fatalf("UpsertApp changed id of %s: %d -> %d", tt.pkg, id, a.ID)
		}
		ids[tt.pkg] = a.ID
	}
	apps, err := s.Apps(ctx)
	isKind(t, err, nil)
	want := []App{{ids["com.example.a"], "com.example.a", "Ay"}, {ids["com.example.b"], "com.example.b", "Bee"}}
	if !reflect.DeepEqual(apps, want) {
		t.Fatalf("Apps = %+v, want %+v", apps, want)
	}
	a, err := s.App(ctx, ids["com.example.b"])
	if err != nil || a != want[1] {
		t.Fatalf("App = %+v, %v", a, err)
	}
	a, err = s.AppByPackage(ctx, "com.example.a")
	if err != nil || a != want[0] {
		t.Fatalf("AppByPackage = %+v, %v", a, err)
	}
	_, err = s.App(ctx, 999)
	isKind(t, err, ErrNotFound)
	_, err = s.AppByPackage(ctx, "com.example.none")
	isKind(t, err, ErrNotFound)
}

func TestScreensElements(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	app, _ := s.UpsertApp(ctx, "com.example.app", "")
	other, _ := s.UpsertApp(ctx, "com.example.other", "")

	steps := []struct {
		name string
		in   Screen
		want Screen // ID filled in below
		kind error
	}{
		{"new", Screen{AppID: app.ID, Fingerprint: "fp1", Activity: ".Main"},
			Screen{AppID: app.ID, Fingerprint: "fp1", Activity: ".Main", Visits: 1}, nil},
		{"visit again, describe", Screen{AppID: app.ID, Fingerprint: "fp1", Description: "inbox", Snapshot: []byte(`{"a":1}`)},
			Screen{AppID: app.ID, Fingerprint: "fp1", Activity: ".Main", Description: "inbox", Visits: 2, Snapshot: []byte(`{"a":1}`)}, nil},
		{"empty fields keep stored ones", Screen{AppID: app.ID, Fingerprint: "fp1"},
			Screen{AppID: app.ID, Fingerprint: "fp1", Activity: ".Main", Description: "inbox", Visits: 3}, nil},
		{"same fingerprint, other app", Screen{AppID: other.ID, Fingerprint: "fp1"},
			Screen{AppID: other.ID, Fingerprint: "fp1", Visits: 1}, nil},
		{"a dialog", Screen{AppID: other.ID, Fingerprint: "fp2", Dialog: true},
			Screen{AppID: other.ID, Fingerprint: "fp2", Dialog: true, Visits: 1}, nil},
		{"empty fingerprint", Screen{AppID: app.ID}, Screen{}, ErrInvalid},
		{"unknown app", Screen{AppID: 999, Fingerprint: "x"}, Screen{}, ErrNotFound},
		{"no app", Screen{Fingerprint: "x"}, Screen{}, ErrInvalid},
	}
	var fp1 int64
	for _, st := range steps {
		got, err := s.UpsertScreen(ctx, st.in)
		isKind(t, err, st.kind)
		if err != nil {
			continue
		}
		if st.in.AppID == app.ID {
			if fp1 == 0 {
				fp1 = got.ID
			} else if got.ID != fp1 {
				t.Fatalf("%s: id changed %d -> %d", st.name, fp1, got.ID)
			}
		}
		st.want.ID = got.ID
		if !reflect.DeepEqual(got, st.want) {
			t.Fatalf("%s: UpsertScreen = %+v, want %+v", st.name, got, st.want)
		}
	}
	sc, err := s.ScreenByFingerprint(ctx, app.ID, "fp1")
	if err != nil || sc.ID != fp1 || sc.Visits != 3 || sc.Description != "inbox" || sc.Snapshot != nil {
		t.Fatalf("ScreenByFingerprint = %+v, %v", sc, err)
	}
	if sc2, err := s.Screen(ctx, fp1); err != nil || !reflect.DeepEqual(sc, sc2) {
		t.Fatalf("Screen = %+v, %v", sc2, err)
	}
	snap, err := s.ScreenSnapshot(ctx, fp1)
	if err != nil || string(snap) != `{"a":1}` {
		t.Fatalf("ScreenSnapshot = %q, %v", snap, err)
	}
	otherScreen, _ := s.ScreenByFingerprint(ctx, other.ID, "fp1")
	if snap, err := s.ScreenSnapshot(ctx, otherScreen.ID); err != nil || snap != nil {
		t.Fatalf("ScreenSnapshot of a screen without one = %q, %v", snap, err)
	}
	_, err = s.ScreenSnapshot(ctx, 999)
	isKind(t, err, ErrNotFound)
	_, err = s.ScreenByFingerprint(ctx, app.ID, "nope")
	isKind(t, err, ErrNotFound)
	_, err = s.Screen(ctx, 999)
	isKind(t, err, ErrNotFound)
	isKind(t, s.SetScreenDescription(ctx, fp1, "the inbox"), nil)
	isKind(t, s.SetScreenDescription(ctx, 999, "x"), ErrNotFound)
	if sc, _ := s.Screen(ctx, fp1); sc.Description != "the inbox" {
		t.Fatalf("description %q", sc.Description)
	}

	// elements
	send := screen.Descriptor{ResourceID: "com.example.app:id/send", Class: "android.widget.Button", Text: "Send",
		Path: []string{"LinearLayout#bar"}, Neighbors: []string{"To"}}
	e, err := s.UpsertElement(ctx, Element{ScreenID: fp1, Descriptor: send})
	isKind(t, err, nil)
	if e.ID == 0 || e.Key != send.Key() || e.Label != "Send" || !reflect.DeepEqual(e.Descriptor, send) {
		t.Fatalf("UpsertElement = %+v", e)
	}
	isKind(t, s.SetElementDoc(ctx, e.ID, "sends the message"), nil)
	// upsert again with a changed descriptor part that is not in the key and no doc: doc kept
	send2 := send
	send2.Neighbors = []string{"Subject"}
	e2, err := s.UpsertElement(ctx, Element{ScreenID: fp1, Descriptor: send2})
	isKind(t, err, nil)
	if e2.ID != e.ID || e2.Doc != "sends the message" || !reflect.DeepEqual(e2.Descriptor, send2) {
		t.Fatalf("second UpsertElement = %+v", e2)
	}
	got, err := s.Element(ctx, e.ID)
	if err != nil || !reflect.DeepEqual(got, e2) {
		t.Fatalf("Element = %+v, %v; want %+v", got, err, e2)
	}
	e3, err := s.UpsertElement(ctx, Element{ScreenID: fp1, Key: "k2", Label: "custom", Doc: "d", Descriptor: screen.Descriptor{Desc: "More"}})
	isKind(t, err, nil)
	els, err := s.Elements(ctx, fp1)
	if err != nil || len(els) != 2 || els[0].ID != e.ID || els[1].ID != e3.ID || els[1].Key != "k2" || els[1].Label != "custom" {
		t.Fatalf("Elements = %+v, %v", els, err)
	}
	_, err = s.UpsertElement(ctx, Element{ScreenID: 999, Descriptor: send})
	isKind(t, err, ErrNotFound)
	_, err = s.UpsertElement(ctx, Element{Descriptor: send})
	isKind(t, err, ErrInvalid)
	isKind(t, s.SetElementDoc(ctx, 999, "x"), ErrNotFound)
	_, err = s.Element(ctx, 999)
	isKind(t, err, ErrNotFound)
}

func TestRecordTransition(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	app, _ := s.UpsertApp(ctx, "com.example.app", "")
	other, _ := s.UpsertApp(ctx, "com.example.other", "")
	a, _ := s.UpsertScreen(ctx, Screen{AppID: app.ID, Fingerprint: "a"})
	b, _ := s.UpsertScreen(ctx, Screen{AppID: app.ID, Fingerprint: "b"})
	x, _ := s.UpsertScreen(ctx, Screen{AppID: other.ID, Fingerprint: "x"})
	ea, _ := s.UpsertElement(ctx, Element{ScreenID: a.ID, Descriptor: screen.Descriptor{Text: "Go"}})
	eb, _ := s.UpsertElement(ctx, Element{ScreenID: b.ID, Descriptor: screen.Descriptor{Text: "Back"}})

	type want struct {
		count, failures int
		sameAs          int // index of an earlier step whose edge this must be (-1: new edge)
	}
	steps := []struct {
		name string
		in   Transition
		want want
		kind error
	}{
		{"tap, defaults", Transition{From: a.ID, To: b.ID, Action: "tap", ElementID: ea.ID}, want{1, 0, -1}, nil},
		{"same edge adds", Transition{From: a.ID, To: b.ID, Action: "tap", ElementID: ea.ID, Count: 2}, want{3, 0, 0}, nil},
		{"failure only", Transition{From: a.ID, To: b.ID, Action: "tap", ElementID: ea.ID, Failures: 1}, want{3, 1, 0}, nil},
		{"global back", Transition{From: b.ID, To: a.ID, Action: "back"}, want{1, 0, -1}, nil},
		{"global back again (NULL element is one edge)", Transition{From: b.ID, To: a.ID, Action: "back"}, want{2, 0, 3}, nil},
		{"other source is another edge", Transition{From: b.ID, To: a.ID, Action: "back", Source: SourceDemonstration}, want{1, 0, -1}, nil},
		{"text is part of the edge", Transition{From: a.ID, To: b.ID, Action: "input", ElementID: ea.ID, Text: "hi"}, want{1, 0, -1}, nil},
		{"explicit app", Transition{AppID: app.ID, From: a.ID, To: a.ID, Action: "scroll"}, want{1, 0, -1}, nil},
		{"no action", Transition{From: a.ID, To: b.ID}, want{}, ErrInvalid},
		{"no from", Transition{To: b.ID, Action: "tap"}, want{}, ErrInvalid},
		{"negative count", Transition{From: a.ID, To: b.ID, Action: "tap", Count: -1}, want{}, ErrInvalid},
		{"bad source", Transition{From: a.ID, To: b.ID, Action: "tap", Source: "guess"}, want{}, ErrInvalid},
		{"cross-app", Transition{From: a.ID, To: x.ID, Action: "tap"}, want{}, ErrInvalid},
		{"wrong app id", Transition{AppID: other.ID, From: a.ID, To: b.ID, Action: "tap"}, want{}, ErrInvalid},
		{"element of another screen", Transition{From: a.ID, To: b.ID, Action: "tap", ElementID: eb.ID}, want{}, ErrInvalid},
		{"unknown screen", Transition{From: a.ID, To: 999, Action: "tap"}, want{}, ErrNotFound},
		{"unknown element", Transition{From: a.ID, To: b.ID, Action: "tap", ElementID: 999}, want{}, ErrNotFound},
	}
	ids := make([]int64, len(steps))
	for i, st := range steps {
		got, err := s.RecordTransition(ctx, st.in)
		isKind(t, err, st.kind)
		if err != nil {
			continue
		}
		ids[i] = got.ID
		if got.Count != st.want.count || got.Failures != st.want.failures || got.AppID != app.ID {
			t.Fatalf("%s: got %+v, want %+v", st.name, got, st.want)
		}
		if st.in.Source == "" && got.Source != SourceLearned {
			t.Fatalf("%s: default source %q", st.name, got.Source)
		}
		if st.want.sameAs >= 0 && got.ID != ids[st.want.sameAs] {
			t.Fatalf("%s: edge %d, want edge %d", st.name, got.ID, ids[st.want.sameAs])
		}
		for j := 0; j < i; j++ {
			if st.want.sameAs < 0 && ids[j] == got.ID {
				t.Fatalf("%s: reused edge of step %d", st.name, j)
			}
		}
	}
	g, err := s.Graph(ctx, app.ID)
	isKind(t, err, nil)
	if len(g.Transitions) != 5 || len(g.Screens) != 2 || len(g.Elements) != 2 || g.App != app {
		t.Fatalf("Graph: %d screens, %d elements, %d transitions, app %+v", len(g.Screens), len(g.Elements), len(g.Transitions), g.App)
	}
	_, err = s.Graph(ctx, 999)
	isKind(t, err, ErrNotFound)
}

// localGraph builds a synthetic graph of n screens with local ids 1..n,
// perScreen elements each (local ids n*10+k... unique) and a transition
// from each screen's first element to the next screen, plus a global back.
func localGraph(pkg string, n, perScreen int) Graph {
	g := Graph{App: App{Package: pkg, Label: "App"}}
	eid := int64(100000)
	for i := 1; i <= n; i++ {
		g.Screens = append(g.Screens, Screen{ID: int64(i), Fingerprint: fmt.Sprintf("fp-%04d", i), Activity: ".Main",
			Description: fmt.Sprintf("screen %d", i), Visits: 1})
		first := eid + 1
		for k := 0; k < perScreen; k++ {
			eid++
			g.Elements = append(g.Elements, Element{ID: eid, ScreenID: int64(i), Descriptor: screen.Descriptor{
				ResourceID: fmt.Sprintf("%s:id/b%d", pkg, k), Class: "android.widget.Button", Text: fmt.Sprintf("Button %d", k),
				Path: []string{"FrameLayout#content", "LinearLayout#list"}, Neighbors: []string{"a", "b"}}})
		}
		next := int64(i%n + 1)
		if perScreen > 0 {
			g.Transitions = append(g.Transitions, Transition{From: int64(i), To: next, Action: "tap", ElementID: first, Count: 2})
		}
		g.Transitions = append(g.Transitions, Transition{From: next, To: int64(i), Action: "back"})
	}
	return g
}

func TestImportGraph(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	// occupy low ids so that local ids and database ids differ
	pre, _ := s.UpsertApp(ctx, "com.example.pre", "")
	for i := 0; i < 7; i++ {
		sc, _ := s.UpsertScreen(ctx, Screen{AppID: pre.ID, Fingerprint: fmt.Sprint(i)})
		s.UpsertElement(ctx, Element{ScreenID: sc.ID, Key: "k"})
	}

	g := localGraph("com.example.app", 5, 3)
	st, err := s.ImportGraph(ctx, g)
	isKind(t, err, nil)
	if st != (ImportStats{Screens: 5, Elements: 15, Transitions: 10}) {
		t.Fatalf("ImportStats %+v", st)
	}
	app, err := s.AppByPackage(ctx, "com.example.app")
	if err != nil || app.Label != "App" {
		t.Fatalf("imported app %+v, %v", app, err)
	}
	got, err := s.Graph(ctx, app.ID)
	isKind(t, err, nil)
	if len(got.Screens) != 5 || len(got.Elements) != 15 || len(got.Transitions) != 10 {
		t.Fatalf("Graph sizes %d %d %d", len(got.Screens), len(got.Elements), len(got.Transitions))
	}
	// Remapping: every edge must connect the screens/elements with the
	// same fingerprints/keys as in g.
	fpOf := map[int64]string{}
	for _, sc := range got.Screens {
		fpOf[sc.ID] = sc.Fingerprint
		if sc.Visits != 1 {
			t.Fatalf("screen %s visits %d", sc.Fingerprint, sc.Visits)
		}
	}
	elOf := map[int64]Element{}
	for _, e := range got.Elements {
		elOf[e.ID] = e
		if _, ok := fpOf[e.ScreenID]; !ok {
			t.Fatalf("element %d on screen %d outside the app", e.ID, e.ScreenID)
		}
	}
	localFP := map[int64]string{}
	for _, sc := range g.Screens {
		localFP[sc.ID] = sc.Fingerprint
	}
	localEl := map[int64]Element{}
	for _, e := range g.Elements {
		localEl[e.ID] = e
	}
	type edge struct{ from, to, action, elemKey, elemScreen string }
	want := map[edge]bool{}
	for _, tr := range g.Transitions {
		e := edge{from: localFP[tr.From], to: localFP[tr.To], action: tr.Action}
		if tr.ElementID != 0 {
			e.elemKey = localEl[tr.ElementID].Descriptor.Key()
			e.elemScreen = localFP[localEl[tr.ElementID].ScreenID]
		}
		want[e] = true
	}
	for _, tr := range got.Transitions {
		e := edge{from: fpOf[tr.From], to: fpOf[tr.To], action: tr.Action}
		if tr.ElementID != 0 {
			e.elemKey = elOf[tr.ElementID].Key
			e.elemScreen = fpOf[elOf[tr.ElementID].ScreenID]
		}
		if !want[e] {
			t.Fatalf("imported edge %+v (%+v) not in the graph", e, tr)
		}
		if tr.Source != SourceExploration || tr.AppID != app.ID {
			t.Fatalf("edge source %q app %d", tr.Source, tr.AppID)
		}
		if tr.Action == "tap" && tr.Count != 2 {
			t.Fatalf("tap count %d", tr.Count)
		}
		delete(want, e)
	}
	if len(want) != 0 {
		t.Fatalf("edges missing: %v", want)
	}

	// Importing again merges: same rows, counts and visits added.
	if _, err := s.ImportGraph(ctx, g); err != nil {
		t.Fatal(err)
	}
	again, _ := s.Graph(ctx, app.ID)
	if len(again.Screens) != 5 || len(again.Elements) != 15 || len(again.Transitions) != 10 {
		t.Fatalf("re-import sizes %d %d %d", len(again.Screens), len(again.Elements), len(again.Transitions))
	}
	if again.Screens[0].Visits != 2 || again.Transitions[0].Count != 2*got.Transitions[0].Count {
		t.Fatalf("re-import did not add: visits %d count %d", again.Screens[0].Visits, again.Transitions[0].Count)
	}

	// Import into an existing app by id.
	byID := localGraph("", 2, 1)
	byID.App = App{ID: pre.ID}
	if st, err := s.ImportGraph(ctx, byID); err != nil || st.Screens != 2 {
		t.Fatalf("import by app id: %+v, %v", st, err)
	}

	bad := func(mut func(g *Graph)) Graph {
		g := localGraph("com.example.bad", 3, 2)
		mut(&g)
		return g
	}
	tests := []struct {
		name string
		g    Graph
		kind error
	}{
		{"no app", bad(func(g *Graph) { g.App = App{} }), ErrInvalid},
		{"unknown app id", bad(func(g *Graph) { g.App = App{ID: 999} }), ErrNotFound},
		{"zero screen id", bad(func(g *Graph) { g.Screens[1].ID = 0 }), ErrInvalid},
		{"duplicate screen id", bad(func(g *Graph) { g.Screens[1].ID = 1 }), ErrInvalid},
		{"empty fingerprint", bad(func(g *Graph) { g.Screens[2].Fingerprint = "" }), ErrInvalid},
		{"element on unknown screen", bad(func(g *Graph) { g.Elements[0].ScreenID = 77 }), ErrInvalid},
		{"duplicate element id", bad(func(g *Graph) { g.Elements[1].ID = g.Elements[0].ID }), ErrInvalid},
		{"dangling transition", bad(func(g *Graph) { g.Transitions[0].To = 77 }), ErrInvalid},
		{"unknown element", bad(func(g *Graph) { g.Transitions[0].ElementID = 77 }), ErrInvalid},
		{"element not on from screen", bad(func(g *Graph) { g.Transitions[0].ElementID = g.Elements[len(g.Elements)-1].ID }), ErrInvalid},
		{"empty action", bad(func(g *Graph) { g.Transitions[3].Action = "" }), ErrInvalid},
		{"bad source", bad(func(g *Graph) { g.Transitions[3].Source = "x" }), ErrInvalid},
	}
	before, _ := s.Stats(ctx)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.ImportGraph(ctx, tt.g)
			isKind(t, err, tt.kind)
		})
	}
	after, _ := s.Stats(ctx)
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("failed imports wrote rows: %v -> %v", before, after)
	}
}

// TestImportGraphAtomic: a failure the database reports in the middle of
// the write (a trigger aborting the last transition) leaves nothing behind.
func TestImportGraphAtomic(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	if _, err := s.db.Exec(`CREATE TEMP TRIGGER boom BEFORE INSERT ON transitions WHEN NEW.action = 'boom'
		BEGIN SELECT RAISE(ABORT, 'boom'); END`); err != nil {
		t.Fatal(err)
	}
	g := localGraph("com.example.app", 4, 2)
	g.Transitions[len(g.Transitions)-1].Action = "boom"
	if _, err := s.ImportGraph(ctx, g); err == nil {
		t.Fatal("import succeeded despite the trigger")
	}
	stats, _ := s.Stats(ctx)
	for _, table := range []string{"apps", "screens", "elements", "transitions"} {
		if stats[table] != 0 {
			t.Fatalf("failed import left %d rows in %s", stats[table], table)
		}
	}
	g.Transitions[len(g.Transitions)-1].Action = "back"
	if st, err := s.ImportGraph(ctx, g); err != nil || st.Transitions != len(g.Transitions) {
		t.Fatalf("%+v %v", st, err)
	}
}
