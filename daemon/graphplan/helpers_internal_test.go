package graphplan

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Helpers shared by the planner's tests: screens and a store.

// screenOf parses a one-window snapshot of a 1080×2280 screen whose root
// (node 0, a FrameLayout) holds nodes, given as the JSON objects of the
// screen schema (docs/screen-schema.md), each with "parent":0 or deeper.
func screenOf(t *testing.T, nodes string) *screen.Snapshot {
	t.Helper()
	return snapshotOf(t, "[0,0,1080,2280]", nodes)
}

// dialogOf is screenOf for a dialog: the root's bounds (100,600)–(980,1600)
// leave most of the screen uncovered (screen.IsDialog).
func dialogOf(t *testing.T, nodes string) *screen.Snapshot {
	t.Helper()
	return snapshotOf(t, "[100,600,980,1600]", nodes)
}

func snapshotOf(t *testing.T, rootBounds, nodes string) *screen.Snapshot {
	t.Helper()
	s, err := screen.ParseJSON([]byte(`{"schema":1,"width":1080,"height":2280,"windows":[{"id":1,"type":"application","layer":1,"focused":true,"bounds":[0,0,1080,2280],"nodes":[
	 {"id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":` + rootBounds + `,"enabled":true,"visible_to_user":true},` + nodes + `]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// storeWithApp opens a knowledge store in t's temporary directory, closed
// when t ends, holding one app (pkg, label), and returns the app's ID.
func storeWithApp(t *testing.T, pkg, label string) (*knowledge.Store, int64) {
	t.Helper()
	ctx := context.Background()
	store := knowledgetest.Open(t)
	app, err := store.UpsertApp(ctx, pkg, label)
	if err != nil {
		t.Fatal(err)
	}
	return store, app.ID
}

// recordScreen stores in store a screen of app appID (fingerprint fp,
// activity act) holding elements described by els, and returns it and
// the stored elements in order.
func recordScreen(t *testing.T, store *knowledge.Store, appID int64, fp, act string, els ...screen.Descriptor) (knowledge.Screen, []knowledge.Element) {
	t.Helper()
	ctx := context.Background()
	sc, err := store.UpsertScreen(ctx, knowledge.Screen{AppID: appID, Fingerprint: fp, Activity: act})
	if err != nil {
		t.Fatal(err)
	}
	var out []knowledge.Element
	for _, d := range els {
		e, err := store.UpsertElement(ctx, knowledge.Element{ScreenID: sc.ID, Descriptor: d})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return sc, out
}

// tapsLabel reports whether d, decided on st, taps the element labelled
// label.
func tapsLabel(d daemon.Decision, st *daemon.PlanState, label string) bool {
	return d.Action == device.Tap && d.Element >= 0 && d.Element < len(st.Elements) && st.Elements[d.Element].Label == label
}

// byLabel maps each element's label to its index in els (the last one
// for a repeated label).
func byLabel(els []screen.Element) map[string]int {
	at := map[string]int{}
	for i, e := range els {
		at[e.Label] = i
	}
	return at
}
