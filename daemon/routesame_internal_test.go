package daemon

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestOneRoute: confirmed flows replay as one route when, from the same
// screen, they take the same steps as the replay takes them — a row the
// walk swapped in by its name, a slot by its value; not when a step, its
// text or the first screen differs.
func TestOneRoute(t *testing.T) {
	row := func(label string) screen.Descriptor {
		return screen.Descriptor{Class: "android.widget.LinearLayout", Text: label, InList: true}
	}
	flow := func(first string, steps ...knowledge.Step) *knowledge.Flow {
		for i := range steps {
			steps[i].Index = i
			steps[i].Screen = first
		}
		return &knowledge.Flow{Steps: steps}
	}
	tap := func(d screen.Descriptor) knowledge.Step { return knowledge.Step{Action: device.Tap, Target: d} }
	typed := func(text string) knowledge.Step {
		return knowledge.Step{Action: device.Input, Target: screen.Descriptor{Class: "android.widget.EditText", Editable: true}, Text: text}
	}
	ana, ben := flow("s1", tap(row("Ana · Hi · 30.06"))), flow("s1", tap(row("Ben · Hey · 30.06")))
	for _, tc := range []struct {
		name string
		fits []candidateRoute
		want bool
	}{
		{"one flow", []candidateRoute{{f: ana}}, true},
		{"a row swapped for the same", []candidateRoute{{f: ana}, {f: ben, rows: map[int]string{0: "Ana"}}}, true},
		{"another row", []candidateRoute{{f: ana}, {f: ben}}, false},
		{"another first screen", []candidateRoute{{f: ana}, {f: flow("s2", tap(row("Ana · Hi · 30.06")))}}, false},
		{"the same value typed", []candidateRoute{
			{f: flow("s1", typed("{q}")), slots: map[string]string{"q": "yoga"}},
			{f: flow("s1", typed("{term}")), slots: map[string]string{"term": "Yoga"}}}, true},
		{"another value typed", []candidateRoute{
			{f: flow("s1", typed("{q}")), slots: map[string]string{"q": "yoga"}},
			{f: flow("s1", typed("pilates"))}}, false},
		{"one step more", []candidateRoute{{f: ana}, {f: flow("s1", tap(row("Ana · Hi · 30.06")), tap(row("Delete")))}}, false},
	} {
		if got := oneRoute(tc.fits); got != tc.want {
			t.Errorf("%s: oneRoute %v, want %v", tc.name, got, tc.want)
		}
	}
}
