package screen

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
)

// TestParseDroidBotAllStates parses every canonical state of the 10
// DroidTask apps: node IDs must equal DroidBot's temp_id, the invariants
// must hold, and each app must have as many states as apps.json says.
func TestParseDroidBotAllStates(t *testing.T) {
	states := loadDroidTask(t)
	var meta map[string]struct {
		UniqueStates int `json:"unique_states"`
	}
	b, err := os.ReadFile(filepath.Join(shared.Path(t, "droidtask"), "apps.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		t.Fatal(err)
	}
	perApp := map[string]int{}
	nodes := 0
	for _, st := range states {
		perApp[st.App]++
		s := st.Snap
		nodes += len(s.Nodes)
		if len(s.Nodes) != len(st.Extra.Views) {
			t.Errorf("%s/%s: %d nodes, %d views", st.App, st.Name, len(s.Nodes), len(st.Extra.Views))
			continue
		}
		for i, v := range st.Extra.Views {
			if s.Nodes[i].ID != v.TempID {
				t.Errorf("%s/%s: node %d has temp_id %d", st.App, st.Name, s.Nodes[i].ID, v.TempID)
			}
		}
		if bad := checkInvariants(s); len(bad) > 0 {
			t.Errorf("%s/%s: %v", st.App, st.Name, bad)
		}
		if s.StateID != st.Name || s.Source != "droidbot" {
			t.Errorf("%s/%s: StateID %q Source %q", st.App, st.Name, s.StateID, s.Source)
		}
		if s.Width <= 0 || s.Height <= 0 || s.Activity == "" || s.ForegroundPackage() == "" {
			t.Errorf("%s/%s: size %dx%d activity %q package %q", st.App, st.Name, s.Width, s.Height, s.Activity, s.ForegroundPackage())
		}
	}
	for _, app := range droidApps {
		if perApp[app] == 0 || perApp[app] != meta[app].UniqueStates {
			t.Errorf("%s: parsed %d states, apps.json says %d", app, perApp[app], meta[app].UniqueStates)
		}
		t.Logf("%-12s %4d states", app, perApp[app])
	}
	t.Logf("total: %d states, %d nodes (mean %.1f per state)", len(states), nodes, float64(nodes)/float64(len(states)))
}

// TestUIAutomatorRoundTrip: every fixture parses, and ParseUIAutomator ->
// MarshalUIAutomator -> ParseUIAutomator, and ParseJSON(MarshalJSON(s)),
// give an equal model (nodes, flags, bounds, texts, windows, size).
func TestUIAutomatorRoundTrip(t *testing.T) {
	for _, fx := range loadUIAutomator(t) {
		t.Run(fx.Name, func(t *testing.T) {
			s, err := ParseUIAutomator(fx.Raw)
			if err != nil {
				t.Fatal(err)
			}
			if bad := checkInvariants(s); len(bad) > 0 {
				t.Fatal(bad)
			}
			if len(s.Nodes) < 2 || len(s.Windows) == 0 || s.Width <= 0 || s.Height <= 0 {
				t.Fatalf("%d nodes, %d windows, %dx%d", len(s.Nodes), len(s.Windows), s.Width, s.Height)
			}
			x, err := MarshalUIAutomator(s)
			if err != nil {
				t.Fatal(err)
			}
			s2, err := ParseUIAutomator(x)
			if err != nil {
				t.Fatalf("re-parse: %v", err)
			}
			if d := diffModels(s, s2); d != "" {
				t.Errorf("XML round trip: %s", d)
			}
			j, err := s.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			s3, err := ParseJSON(j)
			if err != nil {
				t.Fatalf("JSON re-parse: %v", err)
			}
			if d := diffModels(s, s3); d != "" {
				t.Errorf("JSON round trip: %s", d)
			}
			if s3.Package != s.Package {
				t.Errorf("package %q vs %q", s3.Package, s.Package)
			}
			// the real dump's texts survive
			for i := range s.Nodes {
				if s.Nodes[i].Text != s2.Nodes[i].Text || s.Nodes[i].ContentDesc != s2.Nodes[i].ContentDesc {
					t.Fatalf("node %d texts differ", i)
				}
			}
		})
	}
}

// TestDroidBotRoundTrips: every DroidTask state survives the snapshot JSON
// exactly, and the uiautomator XML in every node (the XML has no activity,
// and derives the screen size from the root, so only nodes are compared).
func TestDroidBotRoundTrips(t *testing.T) {
	states := loadDroidTask(t)
	for _, st := range states {
		s := st.Snap
		j, err := s.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		s2, err := ParseJSON(j)
		if err != nil {
			t.Fatalf("%s/%s: re-parse: %v", st.App, st.Name, err)
		}
		if d := diffModels(s, s2); d != "" {
			t.Errorf("%s/%s: JSON round trip: %s", st.App, st.Name, d)
		}
		if s2.Activity != s.Activity || s2.Package != s.Package {
			t.Errorf("%s/%s: activity/package %q %q vs %q %q", st.App, st.Name, s2.Activity, s2.Package, s.Activity, s.Package)
		}
		if Fingerprint(s) != Fingerprint(s2) {
			t.Errorf("%s/%s: fingerprint changed by the JSON round trip", st.App, st.Name)
		}
		x, err := MarshalUIAutomator(s)
		if err != nil {
			t.Fatal(err)
		}
		s3, err := ParseUIAutomator(x)
		if err != nil {
			t.Fatalf("%s/%s: XML re-parse: %v", st.App, st.Name, err)
		}
		m, m3 := model(s), model(s3)
		if len(m.Nodes) != len(m3.Nodes) {
			t.Fatalf("%s/%s: %d nodes vs %d", st.App, st.Name, len(m.Nodes), len(m3.Nodes))
		}
		for i := range m.Nodes {
			a, b := m.Nodes[i], m3.Nodes[i]
			if a.Editable != b.Editable && strings.HasSuffix(a.Class, "EditText") {
				b.Editable = a.Editable // the XML infers editable from the class; DroidBot may disagree
			}
			if !equalNode(a, b) {
				t.Errorf("%s/%s: XML round trip node %d: %+v vs %+v", st.App, st.Name, i, a, b)
				break
			}
		}
	}
	t.Logf("%d states round-tripped", len(states))
}

func equalNode(a, b Node) bool {
	if len(a.Children) == 0 && len(b.Children) == 0 {
		a.Children, b.Children = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// TestMalformed: bad input of every format gives a *FieldError that names
// the offending field or byte offset, and never a snapshot.
func TestMalformed(t *testing.T) {
	const node0 = `{"id":0,"parent":-1,"class":"F","bounds":[0,0,10,10],"visible_to_user":true}`
	win := func(typ string, nodes ...string) string {
		return `{"id":1,"type":"` + typ + `","layer":0,"bounds":[0,0,10,10],"nodes":[` + strings.Join(nodes, ",") + `]}`
	}
	snap := func(wins ...string) string {
		return `{"schema":1,"width":10,"height":10,"windows":[` + strings.Join(wins, ",") + `]}`
	}
	view := func(id, parent int, bounds string) string {
		return `{"temp_id":` + itoa(id) + `,"parent":` + itoa(parent) + `,"class":"V","bounds":` + bounds + `,"visible":true}`
	}
	dbot := func(views ...string) string {
		return `{"state_str":"x","foreground_activity":"p/.A","width":10,"height":10,"views":[` + strings.Join(views, ",") + `]}`
	}
	uia := func(nodes string) string {
		return `<?xml version="1.0"?><hierarchy rotation="0">` + nodes + `</hierarchy>`
	}
	tests := []struct {
		name      string
		parse     func([]byte) (*Snapshot, error)
		format    string
		in        string
		wantField string // substring of FieldError.Field
		wantMsg   string // substring of the message, optional
	}{
		// snapshot JSON
		{"json truncated", ParseJSON, "snapshot", snap(win("application", node0))[:60], "offset ", "end of input"},
		{"json empty", ParseJSON, "snapshot", ``, "offset 0", ""},
		{"json not json", ParseJSON, "snapshot", `<hierarchy/>`, "offset ", ""},
		{"json trailing data", ParseJSON, "snapshot", snap() + `{}`, "offset ", "trailing"},
		{"json width string", ParseJSON, "snapshot", `{"width":"wide"}`, "width", "string"},
		{"json bounds string", ParseJSON, "snapshot", snap(win("application", `{"id":0,"parent":-1,"bounds":"[0,0][1,1]"}`)), "bounds", ""},
		{"json text number", ParseJSON, "snapshot", snap(win("application", `{"id":0,"parent":-1,"text":5}`)), "text", ""},
		{"json windows object", ParseJSON, "snapshot", `{"windows":{}}`, "windows", ""},
		{"json flag string", ParseJSON, "snapshot", snap(win("application", `{"id":0,"parent":-1,"clickable":"yes"}`)), "clickable", ""},
		{"json schema 2", ParseJSON, "snapshot", `{"schema":2,"windows":[]}`, "schema", "version"},
		{"json negative size", ParseJSON, "snapshot", `{"width":-1,"windows":[]}`, "width", "negative"},
		{"json duplicate id", ParseJSON, "snapshot", snap(win("application", node0, `{"id":0,"parent":-1}`)), "windows[0].nodes[1].id", "duplicate"},
		{"json duplicate id across windows", ParseJSON, "snapshot", snap(win("application", node0), win("system", node0)), "windows[1].nodes[0].id", "duplicate"},
		{"json parent after child", ParseJSON, "snapshot", snap(win("application", node0, `{"id":1,"parent":2}`, `{"id":2,"parent":0}`)), "windows[0].nodes[1].parent", "not seen"},
		{"json self parent", ParseJSON, "snapshot", snap(win("application", node0, `{"id":1,"parent":1}`)), "windows[0].nodes[1].parent", ""},
		{"json parent in another window", ParseJSON, "snapshot", snap(win("application", node0), win("system", `{"id":1,"parent":0}`)), "windows[1].nodes[0].parent", "another window"},
		{"json second root", ParseJSON, "snapshot", snap(win("application", node0, `{"id":1,"parent":-1}`)), "windows[0].nodes[1].parent", "second root"},
		{"json missing parent", ParseJSON, "snapshot", snap(win("application", node0, `{"id":1}`)), "windows[0].nodes[1].parent", "required"},
		{"json unknown window type", ParseJSON, "snapshot", snap(win("popup", node0)), "windows[0].type", "popup"},
		// DroidBot state JSON
		{"droidbot truncated", ParseDroidBot, "droidbot", dbot(view(0, -1, `[[0,0],[10,10]]`))[:50], "offset ", ""},
		{"droidbot not json", ParseDroidBot, "droidbot", `hello`, "offset ", ""},
		{"droidbot views string", ParseDroidBot, "droidbot", `{"views":"many"}`, "views", ""},
		{"droidbot no views", ParseDroidBot, "droidbot", dbot(), "views", "no views"},
		{"droidbot missing temp_id", ParseDroidBot, "droidbot", dbot(`{"parent":-1,"bounds":[[0,0],[1,1]]}`), "views[0].temp_id", ""},
		{"droidbot temp_id out of order", ParseDroidBot, "droidbot", dbot(view(0, -1, `[[0,0],[10,10]]`), view(5, 0, `[[0,0],[1,1]]`)), "views[1].temp_id", ""},
		{"droidbot duplicate temp_id", ParseDroidBot, "droidbot", dbot(view(0, -1, `[[0,0],[10,10]]`), view(0, 0, `[[0,0],[1,1]]`)), "views[1].temp_id", ""},
		{"droidbot one-point bounds", ParseDroidBot, "droidbot", dbot(view(0, -1, `[[0,0]]`)), "views[0].bounds", "points"},
		{"droidbot bounds string", ParseDroidBot, "droidbot", dbot(view(0, -1, `"[0,0][1,1]"`)), "bounds", ""},
		{"droidbot parent out of range", ParseDroidBot, "droidbot", dbot(view(0, -1, `[[0,0],[10,10]]`), view(1, 7, `[[0,0],[1,1]]`)), "views[1].parent", "out of range"},
		{"droidbot parent after child", ParseDroidBot, "droidbot", dbot(view(0, -1, `[[0,0],[10,10]]`), view(1, 2, `[[0,0],[1,1]]`), view(2, 0, `[[0,0],[1,1]]`)), "views[1].parent", "precede"},
		{"droidbot self parent", ParseDroidBot, "droidbot", dbot(view(0, 0, `[[0,0],[10,10]]`)), "views[0].parent", ""},
		// uiautomator XML
		{"xml bad bounds", ParseUIAutomator, "uiautomator", uia(`<node class="F" bounds="[0,0][10]"/>`), "offset ", "bounds"},
		{"xml bounds not numbers", ParseUIAutomator, "uiautomator", uia(`<node class="F" bounds="[a,b][c,d]"/>`), "offset ", "bounds"},
		{"xml bad flag", ParseUIAutomator, "uiautomator", uia(`<node class="F" clickable="maybe" bounds="[0,0][1,1]"/>`), "offset ", "clickable"},
		{"xml node outside hierarchy", ParseUIAutomator, "uiautomator", `<node class="F" bounds="[0,0][1,1]"/>`, "offset 0", "outside"},
		{"xml node after hierarchy", ParseUIAutomator, "uiautomator", `<hierarchy></hierarchy><node class="F" bounds="[0,0][1,1]"/>`, "offset 23", "outside"},
		{"xml nested hierarchy", ParseUIAutomator, "uiautomator", uia(`<node bounds="[0,0][1,1]"><hierarchy/></node>`), "offset ", "nested"},
		{"xml unknown element", ParseUIAutomator, "uiautomator", uia(`<view/>`), "offset ", "view"},
		{"xml truncated", ParseUIAutomator, "uiautomator", uia(`<node class="F" bounds="[0,0][1,1]">`)[:70], "offset ", ""},
		{"xml unclosed", ParseUIAutomator, "uiautomator", `<hierarchy><node bounds="[0,0][1,1]">`, "offset ", ""},
		{"xml mismatched", ParseUIAutomator, "uiautomator", `<hierarchy><node bounds="[0,0][1,1]"></hierarchy></node>`, "offset ", ""},
		{"xml not xml", ParseUIAutomator, "uiautomator", `{"views":[]}`, "offset 0", "hierarchy"},
		{"xml empty", ParseUIAutomator, "uiautomator", ``, "offset 0", "hierarchy"},
		{"xml garbage", ParseUIAutomator, "uiautomator", `<<<>>>`, "offset ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.parse([]byte(tt.in))
			if err == nil {
				t.Fatalf("parsed %q into %d nodes, want an error", tt.in, len(s.Nodes))
			}
			if s != nil {
				t.Errorf("returned a snapshot with the error")
			}
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T %v is not a *FieldError", err, err)
			}
			if fe.Format != tt.format {
				t.Errorf("Format %q, want %q", fe.Format, tt.format)
			}
			if !strings.Contains(fe.Field, tt.wantField) {
				t.Errorf("Field %q, want it to contain %q (%v)", fe.Field, tt.wantField, err)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("error %q, want it to mention %q", err, tt.wantMsg)
			}
			if fe.Unwrap() == nil {
				t.Errorf("FieldError wraps no error")
			}
		})
	}
}

// TestWellFormedEdgeCases: inputs at the edge of the formats that must parse.
func TestWellFormedEdgeCases(t *testing.T) {
	tests := []struct {
		name  string
		parse func([]byte) (*Snapshot, error)
		in    string
		check func(t *testing.T, s *Snapshot)
	}{
		{"json empty windows", ParseJSON, `{"windows":[]}`, func(t *testing.T, s *Snapshot) {
			if len(s.Nodes) != 0 || len(s.Windows) != 0 || Fingerprint(s) == "" {
				t.Errorf("%+v", s)
			}
		}},
		{"json window without nodes, type absent", ParseJSON, `{"windows":[{"id":3,"layer":2}]}`, func(t *testing.T, s *Snapshot) {
			if s.Windows[0].Type != WindowUnknown || s.Windows[0].Root != -1 {
				t.Errorf("%+v", s.Windows[0])
			}
		}},
		{"json ids renumbered densely", ParseJSON, `{"windows":[{"type":"application","nodes":[{"id":40,"parent":-1,"bounds":[0,0,100,50]},{"id":7,"parent":40}]}]}`, func(t *testing.T, s *Snapshot) {
			if s.Nodes[1].ID != 1 || s.Nodes[1].Parent != 0 || s.Width != 100 || s.Height != 50 {
				t.Errorf("nodes %+v size %dx%d", s.Nodes, s.Width, s.Height)
			}
		}},
		{"json inverted bounds become empty", ParseJSON, `{"windows":[{"type":"application","nodes":[{"id":0,"parent":-1,"bounds":[50,60,10,20]}]}]}`, func(t *testing.T, s *Snapshot) {
			if b := s.Nodes[0].Bounds; b != (Rect{50, 60, 50, 60}) || !b.Empty() {
				t.Errorf("bounds %v", b)
			}
		}},
		{"json unknown fields ignored", ParseJSON, `{"future":1,"windows":[{"type":"system","x":[],"nodes":[{"id":0,"parent":-1,"y":{}}]}]}`, func(t *testing.T, s *Snapshot) {
			if len(s.Nodes) != 1 {
				t.Errorf("%d nodes", len(s.Nodes))
			}
		}},
		{"droidbot two roots open two windows", ParseDroidBot, `{"foreground_activity":"a.b/.Main","views":[{"temp_id":0,"parent":-1,"package":"a.b","bounds":[[0,0],[100,200]]},{"temp_id":1,"parent":-1,"package":"a.b","bounds":[[0,100],[100,200]]},{"temp_id":2,"parent":1,"bounds":[[0,100],[10,110]]}]}`, func(t *testing.T, s *Snapshot) {
			if len(s.Windows) != 2 || s.Nodes[2].Window != 1 || s.Package != "a.b" || s.Width != 100 || s.Height != 200 {
				t.Errorf("windows %+v nodes %+v", s.Windows, s.Nodes)
			}
			if r := s.Roots(); len(r) != 2 || r[0] != 1 {
				t.Errorf("roots %v, want the later window on top", r)
			}
		}},
		{"xml all windows, editable inferred", ParseUIAutomator, `<hierarchy><node class="F" package="a" bounds="[0,0][100,200]"><node class="android.widget.EditText" bounds="[0,0][10,10]"/></node><node class="G" package="ime" bounds="[0,150][100,200]"/></hierarchy>`, func(t *testing.T, s *Snapshot) {
			if len(s.Windows) != 2 || !s.Nodes[1].Editable || s.Package != "ime" || !s.Windows[1].Focused || !s.Nodes[0].Visible {
				t.Errorf("windows %+v nodes %+v", s.Windows, s.Nodes)
			}
		}},
		{"xml empty hierarchy", ParseUIAutomator, `<hierarchy rotation="0"/>`, func(t *testing.T, s *Snapshot) {
			if len(s.Nodes) != 0 {
				t.Errorf("%d nodes", len(s.Nodes))
			}
		}},
		{"xml spaces in bounds", ParseUIAutomator, `<hierarchy><node bounds="[ 1, 2][3 ,4 ]"/></hierarchy>`, func(t *testing.T, s *Snapshot) {
			if s.Nodes[0].Bounds != (Rect{1, 2, 3, 4}) {
				t.Errorf("bounds %v", s.Nodes[0].Bounds)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if bad := checkInvariants(s); len(bad) > 0 {
				t.Fatal(bad)
			}
			tt.check(t, s)
		})
	}
}

// TestPasswordBlanked: every parser blanks password text, so it appears in
// no output: the model, MarshalJSON, the XML, elements, the rendering,
// descriptors.
func TestPasswordBlanked(t *testing.T) {
	const secret = "hunter2-s3cret"
	tests := []struct {
		name  string
		parse func([]byte) (*Snapshot, error)
		in    string
	}{
		{"json", ParseJSON, `{"windows":[{"type":"application","nodes":[{"id":0,"parent":-1,"bounds":[0,0,100,100],"visible_to_user":true},` +
			`{"id":1,"parent":0,"class":"android.widget.EditText","text":"` + secret + `","password":true,"editable":true,"bounds":[0,0,50,50],"visible_to_user":true}]}]}`},
		{"droidbot", ParseDroidBot, `{"foreground_activity":"a/.B","views":[{"temp_id":0,"parent":-1,"class":"F","bounds":[[0,0],[100,100]],"visible":true},` +
			`{"temp_id":1,"parent":0,"class":"android.widget.EditText","text":"` + secret + `","is_password":true,"editable":true,"bounds":[[0,0],[50,50]],"visible":true}]}`},
		{"uiautomator", ParseUIAutomator, `<hierarchy><node class="F" bounds="[0,0][100,100]"><node class="android.widget.EditText" text="` + secret + `" password="true" bounds="[0,0][50,50]"/></node></hierarchy>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.parse([]byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			n := s.Node(1)
			if !n.Password || n.Text != "" {
				t.Fatalf("password node %+v", n)
			}
			j, _ := s.MarshalJSON()
			x, _ := MarshalUIAutomator(s)
			d := Describe(s, 1)
			if !d.Password {
				t.Error("the descriptor does not say the field is a password")
			}
			dj, _ := json.Marshal(d)
			for what, out := range map[string]string{"json": string(j), "xml": string(x), "render": Render(Elements(s)), "descriptor": string(dj)} {
				if strings.Contains(out, secret) {
					t.Errorf("%s output holds the password", what)
				}
			}
			if len(Elements(s)) == 0 {
				t.Errorf("the password field is not an element")
			}
		})
	}
}
