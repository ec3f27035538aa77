package sim

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
)

var (
	loadOnce sync.Once
	dataset  *droidtask.Dataset
	loadErr  error
)

func load(t *testing.T) *droidtask.Dataset {
	t.Helper()
	dir := shared.Path(t, "droidtask")
	loadOnce.Do(func() { dataset, loadErr = droidtask.Load(dir) })
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return dataset
}

// TestGroundTruthReplays replays every ground-truth task of the data set
// step by step on the simulated phone, acting the way an agent would (by
// node, or by scrolling and tapping the revealed label), and checks every
// step lands on the recorded next state and the task ends on its final
// screen.
func TestGroundTruthReplays(t *testing.T) {
	d := load(t)
	ctx := context.Background()
	passed := 0
	for _, task := range d.Tasks {
		t.Run(task.ID, func(t *testing.T) {
			p := episode(t, d, &task)
			for _, st := range task.Actions() {
				if p.State() != st.State {
					t.Fatalf("step %d: on %s, want %s", st.Index, p.State(), st.State)
				}
				a := stepAction(t, ctx, p, st)
				res, err := p.Perform(ctx, a)
				if err != nil || !res.OK {
					t.Fatalf("step %d %s: %+v %v", st.Index, a, res, err)
				}
				if p.State() != st.NextState {
					t.Fatalf("step %d %s: landed on %s, want %s", st.Index, a, p.State(), st.NextState)
				}
			}
			if p.State() != task.FinalState() {
				t.Fatalf("ended on %s, want %s", p.State(), task.FinalState())
			}
			passed++
		})
	}
	if passed != len(d.Tasks) {
		t.Errorf("%d of %d tasks replayed", passed, len(d.Tasks))
	}
	t.Logf("%d of %d tasks replayed to their final screen", passed, len(d.Tasks))
}

// episode returns a phone on task's app at the start of its episode.
func episode(t *testing.T, d *droidtask.Dataset, task *droidtask.Task) *Phone {
	t.Helper()
	p, err := New(d, task.App)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Episode(task); err != nil {
		t.Fatal(err)
	}
	return p
}

func stepAction(t *testing.T, ctx context.Context, p *Phone, st droidtask.Step) device.Action {
	t.Helper()
	switch st.Action.Type {
	case "key":
		return device.Action{Type: device.Back, Node: -1}
	case "click", "input":
		typ := device.Tap
		if st.Action.Type == "input" {
			typ = device.Input
		}
		if st.Action.Target != nil && st.Action.Target.TempID != nil {
			return device.Action{Type: typ, Node: *st.Action.Target.TempID, Text: st.Action.Text}
		}
		if !st.RequiresScroll || st.TargetHTML == nil {
			t.Fatalf("step %d has no target", st.Index)
		}
		// below the fold: scroll, then tap the revealed label
		if res, _ := p.Perform(ctx, device.Action{Type: device.Scroll, Node: -1, Direction: device.Forward}); !res.OK {
			t.Fatalf("step %d: scroll: %s", st.Index, res.Message)
		}
		s, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := droidtask.HTMLLabel(st.TargetHTML.Inner)
		for _, e := range screen.Elements(s) {
			if e.Label == want {
				return device.Action{Type: typ, Node: e.NodeID}
			}
		}
		t.Fatalf("step %d: %q not revealed by scrolling", st.Index, want)
	}
	t.Fatalf("step %d: unexpected action %q", st.Index, st.Action.Type)
	return device.Action{}
}

func TestUnexploredActionLeavesScreen(t *testing.T) {
	d := load(t)
	ctx := context.Background()
	name := d.AppNames()[0]
	p, err := New(d, name)
	if err != nil {
		t.Fatal(err)
	}
	before := p.State()
	res, err := p.Perform(ctx, device.Action{Type: device.LongPress, Node: 0})
	if err != nil {
		t.Fatal(err)
	}
	if res.OK || res.Changed || !strings.Contains(res.Message, "unexplored") || p.State() != before {
		t.Fatalf("long press: %+v, state %s -> %s", res, before, p.State())
	}
	res, _ = p.Perform(ctx, device.Action{Type: device.Launch, Node: -1, Package: "com.example.absent"})
	if res.OK || p.State() != before {
		t.Fatalf("launch of an absent app: %+v", res)
	}
	res, _ = p.Perform(ctx, device.Action{Type: "fly", Node: -1})
	if res.OK || res.Message == "" {
		t.Fatalf("bad action type accepted: %+v", res)
	}
}

func TestTapAtPointHitTests(t *testing.T) {
	d := load(t)
	ctx := context.Background()
	hits := 0
	for _, task := range d.Tasks {
		st := task.Steps[0]
		if st.Action.Type != "click" || st.Action.Target == nil || st.Action.Target.TempID == nil {
			continue
		}
		p, err := New(d, task.App)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Reset(task.StartState); err != nil {
			t.Fatal(err)
		}
		if err := p.Episode(&task); err != nil {
			t.Fatal(err)
		}
		s, _ := p.Snapshot(ctx)
		n := s.Node(*st.Action.Target.TempID)
		x, y := n.Bounds.Center()
		res, err := p.Perform(ctx, device.Action{Type: device.Tap, Node: -1, X: x, Y: y})
		if err != nil {
			t.Fatal(err)
		}
		if res.OK && p.State() == st.NextState {
			hits++
		}
	}
	if hits == 0 {
		t.Fatal("no first step reachable by tapping its centre point")
	}
	t.Logf("%d first steps reached by a tap at the target's centre", hits)
}

// TestImeEnterOnTheDemoPhone: Enter in a field follows a recorded ENTER key
// event from that screen (the demo app records Enter in the new note's
// title as creating the note); without a field, on a field nobody pressed
// Enter in, or on a node that is not a field, nothing changes.
func TestImeEnterOnTheDemoPhone(t *testing.T) {
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p, err := New(d, demo.App)
	if err != nil {
		t.Fatal(err)
	}
	node := func(label string) int {
		s, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range screen.Elements(s) {
			if e.Label == label || e.Resource == label {
				return e.NodeID
			}
		}
		t.Fatalf("no %q on %s", label, p.State())
		return -1
	}
	do := func(a device.Action) device.Result {
		t.Helper()
		res, err := p.Perform(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	enter := device.Action{Type: device.ImeEnter, Node: -1}
	if res := do(enter); res.OK || !strings.Contains(res.Message, "no input field has focus") || p.State() != "home" {
		t.Fatalf("enter with no field on home: %+v on %s", res, p.State())
	}
	do(device.Action{Type: device.Tap, Node: node("Create a new note")})
	if res := do(device.Action{Type: device.ImeEnter, Node: node("Cancel")}); res.OK || !strings.Contains(res.Message, "not an input field") {
		t.Fatalf("enter on a button: %+v", res)
	}
	if res := do(enter); res.OK || p.State() != "new_note" {
		t.Fatalf("enter before typing (the title field has no focus): %+v on %s", res, p.State())
	}
	if res := do(device.Action{Type: device.Input, Node: node("new_note_title"), Text: "Milk"}); !res.OK {
		t.Fatalf("input: %+v", res)
	}
	if res := do(enter); !res.OK || !res.Changed || p.State() != "editor" {
		t.Fatalf("enter in the typed title: %+v on %s, want editor", res, p.State())
	}
	if res := do(device.Action{Type: device.ImeEnter, Node: node("note_body")}); res.OK || !strings.Contains(res.Message, "unexplored") || p.State() != "editor" {
		t.Fatalf("enter in the note body (none recorded): %+v on %s", res, p.State())
	}
}

// TestImeEnterOnRecordedApps: the DroidTask recordings have no ENTER key
// event, so Enter in any field of their start screens changes nothing.
func TestImeEnterOnRecordedApps(t *testing.T) {
	d := load(t)
	ctx := context.Background()
	tried := 0
	for _, name := range d.AppNames() {
		p, err := New(d, name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := p.Snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		before := p.State()
		for i := range s.Nodes {
			if !s.Nodes[i].Editable {
				continue
			}
			tried++
			res, err := p.Perform(ctx, device.Action{Type: device.ImeEnter, Node: i})
			if err != nil || res.OK || p.State() != before {
				t.Fatalf("%s: enter in node %d: %+v %v, %s -> %s", name, i, res, err, before, p.State())
			}
		}
	}
	t.Logf("%d fields of start screens tried", tried)
}

// TestRevealedTogglesAreCheckable: a row revealed below the fold, recorded
// by its label only, is a check box when the screen its tap led to shows
// it as one — in the state before the tap — so the policy and the planner
// see a setting, not a bare text ("Remove …" is no deletion).
func TestRevealedTogglesAreCheckable(t *testing.T) {
	d := load(t)
	ctx := context.Background()
	checked := 0
	for _, task := range d.Tasks {
		p := episode(t, d, &task)
		for _, st := range task.Actions() {
			if st.RequiresScroll && st.TargetHTML != nil && (st.Action.Target == nil || st.Action.Target.TempID == nil) {
				if res, _ := p.Perform(ctx, device.Action{Type: device.Scroll, Node: -1, Direction: device.Forward}); res.OK {
					s, err := p.Snapshot(ctx)
					if err != nil {
						t.Fatal(err)
					}
					after, err := d.State(task.App, st.NextState)
					if err != nil {
						t.Fatal(err)
					}
					want := droidtask.HTMLLabel(st.TargetHTML.Inner)
					var toggle *screen.Node
					for i := range after.Nodes {
						if n := &after.Nodes[i]; n.Checkable && n.Text == want {
							toggle = n
						}
					}
					for _, e := range screen.Elements(s) {
						if n := s.Node(e.NodeID); toggle != nil && e.Label == want {
							checked++
							if !n.Checkable || n.Checked == toggle.Checked {
								t.Errorf("%s step %d: revealed %q checkable=%v checked=%v, want a check box in the other state than after the tap (%v)", task.ID, st.Index, want, n.Checkable, n.Checked, toggle.Checked)
							}
						}
					}
				}
			}
			if err := p.Reset(st.NextState); err != nil {
				t.Fatal(err)
			}
		}
	}
	if checked == 0 {
		t.Skip("no task taps a check box revealed below the fold")
	}
	t.Logf("%d revealed check boxes", checked)
}
