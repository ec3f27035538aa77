package daemon

import (
	"context"
	"strconv"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"
)

// orderDialog is a dialog with two radio groups, "Cuisine" / "Rating" and
// "Forward" / "Reverse", the first with checked[0] / checked[1] set and
// the second with "Forward" set, and an OK button.
func orderDialog(t *testing.T, checked [2]bool) *screen.Snapshot {
	t.Helper()
	radio := func(text string, top int, on bool) string {
		c := "false"
		if on {
			c = "true"
		}
		return `<node text="` + text + `" class="android.widget.RadioButton" checkable="true" checked="` + c + `" clickable="true" enabled="true" bounds="[0,` + strconv.Itoa(top) + `][500,` + strconv.Itoa(top+90) + `]"/>`
	}
	xml := `<?xml version="1.0"?><hierarchy rotation="0"><node class="android.widget.LinearLayout" bounds="[0,0][1080,900]">` +
		`<node class="android.widget.RadioGroup" bounds="[0,0][1080,300]">` + radio("Cuisine", 0, checked[0]) + radio("Rating", 100, checked[1]) + `</node>` +
		`<node class="android.widget.RadioGroup" bounds="[0,400][1080,600]">` + radio("Forward", 400, true) + radio("Reverse", 500, false) + `</node>` +
		`<node text="OK" class="android.widget.Button" clickable="true" enabled="true" bounds="[0,700][500,800]"/></node></hierarchy>`
	s, err := screen.ParseUIAutomator([]byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReliedOption: a flow that found an option already chosen and never
// tapped it ("Cuisine", learned as "order recipes by cuisine in reverse") is
// no flow for a command that says another word in that option's place
// ("by spice"); it is for one that leaves the option unsaid, and for any
// command when the flow chose in that group itself, or the group is no
// exclusive one.
func TestReliedOption(t *testing.T) {
	ctx := context.Background()
	main := searchResults(t, "", "Order by")
	save := func(st *knowledge.Store, dialog *screen.Snapshot, tap ...string) *knowledge.Flow {
		f := &knowledge.Flow{Package: "com.example.recipes", Name: "order recipes by cuisine in reverse", Intent: "order recipes by cuisine in reverse", Goal: &knowledge.Goal{Screen: "fz"}}
		f.Steps = append(f.Steps, knowledge.Step{Screen: "fa", Action: device.Tap, Target: screen.Describe(main, elementNamed(t, main, "Order by").NodeID)})
		for _, l := range tap {
			f.Steps = append(f.Steps, knowledge.Step{Screen: "fb", Action: device.Tap, Target: screen.Describe(dialog, elementNamed(t, dialog, l).NodeID)})
		}
		screens := []*screen.Snapshot{main}
		for range f.Steps[1:] {
			screens = append(screens, dialog)
		}
		saveWalked(t, st, f, append(screens, main)...)
		return f
	}
	for _, tc := range []struct {
		name    string
		checked [2]bool
		tap     []string
		command string
		cand    intent.Candidate
		want    string
	}{
		{"another word in the option's place", [2]bool{true, false}, []string{"Reverse", "OK"}, "order recipes by spice in reverse",
			intent.Candidate{Substituted: true, Unmatched: []string{"spice"}, FlowUnmatched: []string{"cuisine"}}, "Cuisine"},
		{"another option of the group", [2]bool{true, false}, []string{"Reverse", "OK"}, "order recipes by rating in reverse",
			intent.Candidate{Substituted: true, Unmatched: []string{"rating"}, FlowUnmatched: []string{"cuisine"}}, "Cuisine"},
		{"the option unsaid", [2]bool{true, false}, []string{"Reverse", "OK"}, "order recipes in reverse",
			intent.Candidate{FlowUnmatched: []string{"cuisine"}}, ""},
		{"a word elsewhere", [2]bool{true, false}, []string{"Reverse", "OK"}, "order recipes in reverse, newest spice",
			intent.Candidate{Substituted: true, Unmatched: []string{"newest", "spice"}, FlowUnmatched: []string{"cuisine"}}, ""},
		{"the flow chose in the group", [2]bool{true, false}, []string{"Rating", "Reverse", "OK"}, "order recipes by spice in reverse",
			intent.Candidate{Substituted: true, Unmatched: []string{"spice"}, FlowUnmatched: []string{"cuisine"}}, ""},
		{"the option not chosen", [2]bool{false, true}, []string{"Reverse", "OK"}, "order recipes by spice in reverse",
			intent.Candidate{Substituted: true, Unmatched: []string{"spice"}, FlowUnmatched: []string{"cuisine"}}, ""},
		{"no exclusive group", [2]bool{true, true}, []string{"Reverse", "OK"}, "order recipes by spice in reverse",
			intent.Candidate{Substituted: true, Unmatched: []string{"spice"}, FlowUnmatched: []string{"cuisine"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := knowledgetest.Open(t)
			f := save(st, orderDialog(t, tc.checked), tc.tap...)
			r := &run{e: &Engine{store: st}, res: &Result{Command: tc.command, Package: f.Package}}
			if got, _ := r.reliedOption(ctx, f, tc.cand); got != tc.want {
				t.Errorf("relied option %q, want %q", got, tc.want)
			}
		})
	}
}
