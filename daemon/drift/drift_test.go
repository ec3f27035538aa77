package drift_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/drift"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
)

const pkg = "com.example.demo"

// v is a view of the synthetic app.
func v(id, parent int, class, rid, text string, b [4]int, clickable bool) map[string]any {
	m := map[string]any{"temp_id": id, "parent": parent, "class": class, "package": pkg, "resource_id": nil, "text": nil,
		"content_description": nil, "bounds": [][2]int{{b[0], b[1]}, {b[2], b[3]}}, "visible": true, "enabled": true,
		"clickable": clickable, "checkable": false, "editable": false, "view_str": class + rid + text}
	if rid != "" {
		m["resource_id"] = pkg + ":id/" + rid
	}
	if text != "" {
		m["text"] = text
	}
	return m
}

// synthetic writes a small DroidTask-format app: a home screen with two
// rows and a settings button, a settings list (Theme, About) and a theme
// page; one task taps Settings then Theme.
func synthetic(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	full := [4]int{0, 0, 1080, 2280}
	states := map[string]struct {
		activity string
		views    []map[string]any
	}{
		"home": {".MainActivity", []map[string]any{
			v(0, -1, "android.widget.FrameLayout", "", "", full, false),
			v(1, 0, "android.widget.LinearLayout", "list", "", [4]int{0, 200, 1080, 600}, false),
			v(2, 1, "android.widget.LinearLayout", "row", "", [4]int{0, 200, 1080, 400}, true),
			v(3, 2, "android.widget.TextView", "title", "Inbox", [4]int{20, 220, 1000, 380}, false),
			v(4, 1, "android.widget.LinearLayout", "row", "", [4]int{0, 400, 1080, 600}, true),
			v(5, 4, "android.widget.TextView", "title", "Archive", [4]int{20, 420, 1000, 580}, false),
			v(6, 0, "android.widget.Button", "settings_button", "Settings", [4]int{0, 900, 540, 1000}, true),
		}},
		"settings": {".SettingsActivity", []map[string]any{
			v(0, -1, "android.widget.FrameLayout", "", "", full, false),
			v(1, 0, "android.widget.LinearLayout", "settings_list", "", [4]int{0, 200, 1080, 600}, false),
			v(2, 1, "android.widget.RelativeLayout", "theme_holder", "", [4]int{0, 200, 1080, 400}, true),
			v(3, 2, "android.widget.TextView", "theme_label", "Theme", [4]int{20, 220, 1000, 380}, false),
			v(4, 1, "android.widget.RelativeLayout", "about_holder", "", [4]int{0, 400, 1080, 600}, true),
			v(5, 4, "android.widget.TextView", "about_label", "About", [4]int{20, 420, 1000, 580}, false),
		}},
		"theme": {".ThemeActivity", []map[string]any{
			v(0, -1, "android.widget.FrameLayout", "", "", full, false),
			v(1, 0, "android.widget.TextView", "", "Dark theme", [4]int{20, 220, 800, 380}, false),
			v(2, 0, "android.widget.Switch", "dark_switch", "", [4]int{800, 220, 1000, 380}, true),
		}},
	}
	for id, st := range states {
		write(t, filepath.Join(dir, "apps", "demo", "states", id+".json"), map[string]any{"tag": "t", "state_str": id,
			"foreground_activity": pkg + "/" + st.activity, "width": 1080, "height": 2280, "views": st.views})
	}
	write(t, filepath.Join(dir, "apps.json"), map[string]any{"demo": map[string]any{"main_package": pkg,
		"launch_entry_states": []string{"home"}, "task_start_states": []string{"home"}}})
	target := func(state string, id int) map[string]any {
		tv := states[state].views[id]
		return map[string]any{"temp_id": id, "canonical_temp_id": id, "class": tv["class"], "resource_id": tv["resource_id"], "text": tv["text"], "bounds": tv["bounds"]}
	}
	task := map[string]any{"task_id": "demo/task1", "app": "demo", "instruction": "open the theme settings", "start_state": "home", "num_actions": 2,
		"steps": []any{
			map[string]any{"index": 0, "state": "home", "next_state": "settings", "action": map[string]any{"type": "click", "target": target("home", 6)}},
			map[string]any{"index": 1, "state": "settings", "next_state": "theme", "action": map[string]any{"type": "click", "target": target("settings", 2)}},
			map[string]any{"index": 2, "state": "theme", "next_state": "theme", "action": map[string]any{"type": "done"}},
		}}
	writeLines(t, filepath.Join(dir, "tasks.jsonl"), task)
	edge := func(from, to, typ string, node int) map[string]any {
		e := map[string]any{"app": "demo", "source": "droidbot_event", "from": from, "to": to, "count": 1, "event_tags": []string{"x"},
			"action": map[string]any{"type": typ}, "from_known": true, "to_known": true}
		if node >= 0 {
			e["target"] = target(from, node)
		} else {
			e["action"] = map[string]any{"type": "key", "key": "BACK"}
		}
		return e
	}
	writeLines(t, filepath.Join(dir, "transitions.jsonl"), edge("home", "settings", "click", 6), edge("settings", "theme", "click", 2),
		edge("settings", "home", "key", -1), edge("theme", "settings", "key", -1), edge("home", "home", "click", 2))
	return dir
}

func write(t *testing.T, path string, v any) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeLines(t *testing.T, path string, lines ...map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	for _, l := range lines {
		b, _ := json.Marshal(l)
		buf.Write(append(b, '\n'))
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fakeSynonyms is a Synonyms from a map.
type fakeSynonyms map[string]string

func (f fakeSynonyms) Synonym(w string) string { return f[w] }

// replayGroundTruth performs every ground-truth step of every task on the
// simulated phone by node id and checks each lands where the task says.
func replayGroundTruth(t *testing.T, d *droidtask.Dataset) {
	t.Helper()
	ctx := context.Background()
	for _, app := range d.AppNames() {
		p, err := sim.New(d, app)
		if err != nil {
			t.Fatal(err)
		}
		for _, task := range d.AppTasks(app) {
			if err := p.Episode(&task); err != nil {
				t.Fatal(err)
			}
			for _, st := range task.Actions() {
				if p.State() != st.State {
					t.Fatalf("%s step %d: phone on %s, task says %s", task.ID, st.Index, p.State(), st.State)
				}
				a := device.Action{Type: device.Back, Node: -1}
				switch {
				case st.Action.Type == "input":
					a = device.Action{Type: device.Input, Node: *st.Action.Target.TempID, Text: st.Action.Text}
				case st.Action.Type == "click" && st.Action.Target != nil && st.Action.Target.TempID != nil:
					a = device.Action{Type: device.Tap, Node: *st.Action.Target.TempID}
				case st.Action.Type == "click":
					if _, err := p.Perform(ctx, device.Action{Type: device.Scroll, Node: -1, Direction: device.Forward}); err != nil {
						t.Fatal(err)
					}
					s, _ := p.Snapshot(ctx)
					want := droidtask.HTMLLabel(st.TargetHTML.Inner)
					a = device.Action{Type: device.Tap, Node: -1}
					for i := range s.Nodes {
						if s.Nodes[i].Text == want {
							a.Node = i
						}
					}
				}
				if _, err := p.Perform(ctx, a); err != nil {
					t.Fatal(err)
				}
				if p.State() != st.NextState {
					t.Fatalf("%s step %d (%s on %s): phone on %s, task says %s", task.ID, st.Index, a, st.State, p.State(), st.NextState)
				}
			}
		}
	}
}

func generate(t *testing.T, in string, cfg drift.Config) (*droidtask.Dataset, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	if _, err := drift.Generate(in, out, cfg); err != nil {
		t.Fatal(err)
	}
	d, err := droidtask.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	return d, out
}

func state(t *testing.T, d *droidtask.Dataset, id string) *screen.Snapshot {
	t.Helper()
	s, err := d.State("demo", id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func labels(s *screen.Snapshot) []string {
	var out []string
	for _, n := range s.Nodes {
		if n.Text != "" {
			out = append(out, n.Text)
		}
	}
	return out
}

// TestKinds: one case per kind at full strength on the synthetic app; the
// drifted ground truth always replays on the simulated phone.
func TestKinds(t *testing.T) {
	in := synthetic(t)
	orig, err := droidtask.Load(in)
	if err != nil {
		t.Fatal(err)
	}
	syn := fakeSynonyms{"theme": "motif", "archive": "record"}
	tests := []struct {
		kind  drift.Kind
		check func(t *testing.T, d *droidtask.Dataset)
	}{
		{drift.Text, func(t *testing.T, d *droidtask.Dataset) {
			got := strings.Join(labels(state(t, d, "settings")), "|")
			if got == "Theme|About" || !strings.Contains(strings.ToLower(got), "about") {
				t.Fatalf("settings labels %q", got)
			}
			if tgt := d.AppTasks("demo")[0].Steps[0].Action.Target; tgt.Text == nil || *tgt.Text == "Settings" {
				t.Fatalf("task target text not updated: %v", tgt.Text)
			}
		}},
		{drift.RenameID, func(t *testing.T, d *droidtask.Dataset) {
			home := state(t, d, "home")
			if home.Nodes[2].ResourceID == pkg+":id/row" || home.Nodes[2].ResourceID != home.Nodes[4].ResourceID {
				t.Fatalf("row ids %q %q: want renamed, and the same way", home.Nodes[2].ResourceID, home.Nodes[4].ResourceID)
			}
			if !strings.HasPrefix(home.Nodes[6].ResourceID, pkg+":id/") || len(home.Nodes[6].ResourceID) != len(pkg+":id/")+3 {
				t.Fatalf("obfuscated id %q", home.Nodes[6].ResourceID)
			}
		}},
		{drift.Bounds, func(t *testing.T, d *droidtask.Dataset) {
			home := state(t, d, "home")
			if home.Width == 1080 || home.Nodes[6].Bounds == orig0(t, orig).Nodes[6].Bounds {
				t.Fatalf("size %dx%d, button %v", home.Width, home.Height, home.Nodes[6].Bounds)
			}
		}},
		{drift.Wrap, func(t *testing.T, d *droidtask.Dataset) {
			home := state(t, d, "home")
			if len(home.Nodes) <= len(orig0(t, orig).Nodes) {
				t.Fatalf("no wrapper added: %d views", len(home.Nodes))
			}
			tgt := d.AppTasks("demo")[0].Steps[0].Action.Target
			n := home.Node(*tgt.TempID)
			if n.Text != "Settings" || home.Node(n.Parent).Class != "android.widget.FrameLayout" || home.Node(n.Parent).Bounds != n.Bounds {
				t.Fatalf("target %+v, parent %+v", n, home.Node(n.Parent))
			}
		}},
		{drift.Shuffle, func(t *testing.T, d *droidtask.Dataset) {
			changed := false
			for _, id := range []string{"home", "settings", "theme"} {
				a, b := labels(state(t, d, id)), labels(stateOf(t, orig, id))
				changed = changed || !slices.Equal(a, b)
			}
			if !changed {
				t.Fatal("no sibling order changed at full strength")
			}
		}},
		{drift.Deeper, func(t *testing.T, d *droidtask.Dataset) {
			task := d.AppTasks("demo")[0]
			if len(task.Actions()) != 3 || !strings.HasPrefix(task.Actions()[1].NextState, "drift-deeper-") {
				t.Fatalf("steps %+v", task.Actions())
			}
			if got := labels(state(t, d, "settings")); !slices.Contains(got, "Advanced") || slices.Contains(got, "Theme") {
				t.Fatalf("settings labels %q", got)
			}
			if got := labels(state(t, d, task.Actions()[2].State)); !slices.Contains(got, "Theme") {
				t.Fatalf("page labels %q", got)
			}
		}},
		{drift.Interstitial, func(t *testing.T, d *droidtask.Dataset) {
			task := d.AppTasks("demo")[0]
			if len(task.Actions()) != 4 {
				t.Fatalf("want a dismissing step after each tap: %+v", task.Actions())
			}
			dlg := state(t, d, task.Actions()[1].State)
			if !screen.IsDialog(dlg) {
				t.Fatal("the interstitial is not drawn as a dialog")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(string(tc.kind), func(t *testing.T) {
			cfg := drift.Config{Kinds: []drift.Kind{tc.kind}, Strength: drift.High, Seed: 7, Synonyms: syn}
			d, out := generate(t, in, cfg)
			tc.check(t, d)
			replayGroundTruth(t, d)
			madeStatesLead(t, d)
			_, again := generate(t, in, cfg)
			sameTree(t, out, again)
		})
	}
}

// madeStatesLead fails unless every screen the drift made has a recorded
// way out in transitions.jsonl (not only in the tasks' own steps): a
// planner that reaches it off the tasks' paths must be able to go on.
func madeStatesLead(t *testing.T, d *droidtask.Dataset) {
	t.Helper()
	ids, err := d.StateIDs("demo")
	if err != nil {
		t.Fatal(err)
	}
	from := map[string]int{}
	for _, tr := range d.AppTransitions("demo") {
		from[tr.From]++
	}
	for _, id := range ids {
		if strings.HasPrefix(id, "drift-") && from[id] == 0 {
			t.Errorf("no recorded transition leaves the drift-made screen %s", id)
		}
	}
}

func orig0(t *testing.T, d *droidtask.Dataset) *screen.Snapshot { return stateOf(t, d, "home") }

func stateOf(t *testing.T, d *droidtask.Dataset, id string) *screen.Snapshot {
	t.Helper()
	s, err := d.State("demo", id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sameTree fails unless the two directories hold the same files, byte for
// byte.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		m := map[string][]byte{}
		filepath.WalkDir(root, func(p string, e os.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				rel, _ := filepath.Rel(root, p)
				m[rel], _ = os.ReadFile(p)
			}
			return nil
		})
		return m
	}
	fa, fb := files(a), files(b)
	if len(fa) != len(fb) {
		t.Fatalf("%d files vs %d", len(fa), len(fb))
	}
	for k, v := range fa {
		if !bytes.Equal(v, fb[k]) {
			t.Fatalf("%s differs between two runs with the same seed", k)
		}
	}
}

func TestSeedsDiffer(t *testing.T) {
	in := synthetic(t)
	_, a := generate(t, in, drift.Config{Kinds: drift.Kinds, Strength: drift.Moderate, Seed: 1})
	_, b := generate(t, in, drift.Config{Kinds: drift.Kinds, Strength: drift.Moderate, Seed: 2})
	same := true
	filepath.WalkDir(a, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			rel, _ := filepath.Rel(a, p)
			x, _ := os.ReadFile(p)
			y, _ := os.ReadFile(filepath.Join(b, rel))
			same = same && bytes.Equal(x, y)
		}
		return nil
	})
	if same {
		t.Fatal("seeds 1 and 2 gave the same drift")
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{{"low", drift.Low, true}, {"moderate", drift.Moderate, true}, {"", drift.Moderate, true}, {"high", drift.High, true},
		{"0.3", 0.3, true}, {"0", 0, false}, {"1.5", 0, false}, {"lots", 0, false}} {
		got, err := drift.ParseStrength(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseStrength(%q) = %g, %v", tc.in, got, err)
		}
	}
	if k, err := drift.ParseKinds("wrap,text,wrap"); err != nil || !slices.Equal(k, []drift.Kind{drift.Wrap, drift.Text}) {
		t.Errorf("ParseKinds: %v %v", k, err)
	}
	if k, err := drift.ParseKinds("all"); err != nil || len(k) != len(drift.Kinds) {
		t.Errorf("ParseKinds(all): %v %v", k, err)
	}
	if _, err := drift.ParseKinds("melt"); err == nil {
		t.Error("unknown kind accepted")
	}
	in := synthetic(t)
	if _, err := drift.Generate(in, filepath.Join(in, "out"), drift.Config{Kinds: drift.Kinds, Strength: 1}); err == nil {
		t.Error("output inside the input accepted")
	}
}

// TestRecordedApps: every kind at moderate strength on the recorded apps;
// every task's drifted ground truth replays on the simulated phone.
func TestRecordedApps(t *testing.T) {
	in := shared.Path(t, "droidtask")
	if testing.Short() {
		t.Skip("drifts all recorded apps (seconds)")
	}
	d, _ := generate(t, in, drift.Config{Kinds: drift.Kinds, Strength: drift.Moderate, Seed: 3, Synonyms: fakeSynonyms{"search": "find"}})
	if len(d.Tasks) == 0 {
		t.Fatal("no tasks")
	}
	replayGroundTruth(t, d)
}
