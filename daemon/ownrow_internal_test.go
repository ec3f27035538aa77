package daemon

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestPromisedRow: where a flow's recording tapped a row its words never
// name while they name another that the command says too, the replay is
// promised that row; a row the flow's words or the command name, a row
// the flow also tapped, or a command that does not say the value, is no
// such slip.
func TestPromisedRow(t *testing.T) {
	row := func(label string) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: screen.Descriptor{Class: "android.widget.FrameLayout", Text: label, InList: true}}
	}
	slip := &knowledge.Flow{Intent: "go to recent files and play clip2.mp4", Commands: []string{"Go to recent files and play clip2.mp4"}, Steps: []knowledge.Step{row("clip1.mp4 · 2 MB")}}
	kept := &knowledge.Flow{Intent: "go to recent files and play clip2.mp4", Steps: []knowledge.Step{row("clip2.mp4 · 3 MB")}}
	named := &knowledge.Flow{Intent: "add the holidays of Atlantis", Steps: []knowledge.Step{row("Lemuria")}}
	for _, tc := range []struct {
		f       *knowledge.Flow
		command string
		want    string
	}{
		{slip, "play clip2.mp4 from recent files", "clip2.mp4"},
		{slip, "play the last recent file", ""},             // the command names no value
		{slip, "go to recent files and play clip2.mp4", ""}, // the very words it was shown with
		{slip, "play clip1.mp4 from recent files", ""},
		{kept, "play clip2.mp4 from recent files", ""},
		{named, "add Atlantis holidays", "Atlantis"},
		{named, "add Lemuria holidays", ""},
	} {
		got, ok := promisedRow(tc.f, tc.command, tc.f.Steps[0])
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("%q: promisedRow = %q %v, want %q", tc.command, got, ok, tc.want)
		}
	}
	if _, ok := promisedRow(slip, "play clip2.mp4", knowledge.Step{Action: device.Tap, Target: screen.Descriptor{Text: "Recents"}}); ok {
		t.Error("a tap on no list row is no row promised")
	}
}

// TestPromisedRowTapped: a replay whose recording tapped "Shopping list"
// for a flow whose words open "Trip ideas" taps "Trip ideas" when the
// command names it and it is a row of the same list; the recorded row
// when the command does not name it.
func TestPromisedRowTapped(t *testing.T) {
	learned, target := demoRow(t, "Shopping list")
	f := &knowledge.Flow{Intent: `open the note "Trip ideas"`, Package: demo.Package,
		Steps: []knowledge.Step{{Action: device.Tap, Target: target, Screen: "home"}}}
	for _, tt := range []struct{ command, want string }{
		{"open the trip ideas note", "Trip ideas"},
		{"open my note", "Shopping list"},
	} {
		r := &run{flow: f, res: &Result{Command: tt.command}}
		_, el, ok := r.groundStep(context.Background(), learned, "home", f.Steps[0])
		got := ""
		if ok && el != nil {
			got = el.Label
		}
		if got != tt.want {
			t.Errorf("%q: tapped %q, want %q", tt.command, got, tt.want)
		}
	}
}
