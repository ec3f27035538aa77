package daemon

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestNamedRowIsThatRow: a replayed flow whose intent names the list row it
// opens taps a row with that name wherever the list puts it, and no other
// row when none has it, however alike their labels ("Trip ideas 2").
func TestNamedRowIsThatRow(t *testing.T) {
	_, target := demoRow(t, "Trip ideas")
	f := &knowledge.Flow{Intent: `open the note "Trip ideas"`, Package: demo.Package,
		Steps: []knowledge.Step{{Action: device.Tap, Target: target, Screen: "other"}}}
	for _, tt := range []struct {
		notes []string
		want  string // "" for no tap
	}{
		{[]string{"Books to read", "Shopping list", "Trip ideas"}, "Trip ideas"},
		{[]string{"Shopping list", "Trip ideas 2", "Books to read"}, ""},
		{[]string{"Shopping list", "Trip notes", "Books to read"}, ""},
	} {
		s, err := demo.Snapshot("home", demo.Variant{Notes: tt.notes})
		if err != nil {
			t.Fatal(err)
		}
		r := &run{flow: f}
		_, el, ok := r.groundStep(context.Background(), s, "home", f.Steps[0])
		got := ""
		if ok && el != nil {
			got = el.Label
		}
		if got != tt.want {
			t.Errorf("notes %q: tapped %q, want %q", tt.notes, got, tt.want)
		}
	}
}

// demoRow returns the demo phone's home screen and the descriptor of its
// list row labelled label; the test fails when there is no such row.
func demoRow(t *testing.T, label string) (*screen.Snapshot, screen.Descriptor) {
	t.Helper()
	s, err := demo.Snapshot("home", demo.Variant{})
	if err != nil {
		t.Fatal(err)
	}
	var target screen.Descriptor
	for _, e := range screen.Elements(s) {
		if e.Label == label {
			target = screen.Describe(s, e.NodeID)
		}
	}
	if !target.InList {
		t.Fatalf("the demo's row %q is no list row: %+v", label, target)
	}
	return s, target
}

// threadList is a list of conversation rows, each a clickable row of
// text views in the order given ("Dora", "See you", "12.05").
func threadList(t *testing.T, rows ...[]string) *screen.Snapshot {
	t.Helper()
	xml := `<?xml version="1.0"?><hierarchy rotation="0"><node class="android.widget.FrameLayout" bounds="[0,0][1080,2000]">` +
		`<node class="androidx.recyclerview.widget.RecyclerView" scrollable="true" bounds="[0,100][1080,2000]">`
	for i, r := range rows {
		top := 100 + 150*i
		xml += `<node class="android.widget.LinearLayout" resource-id="org.example.chat:id/thread_row" clickable="true" enabled="true" bounds="[0,` + strconv.Itoa(top) + `][1080,` + strconv.Itoa(top+150) + `]">`
		for j, text := range r {
			left := 40 + 300*j
			xml += `<node text="` + text + `" class="android.widget.TextView" bounds="[` + strconv.Itoa(left) + `,` + strconv.Itoa(top+10) + `][` + strconv.Itoa(left+280) + `,` + strconv.Itoa(top+140) + `]"/>`
		}
		xml += `</node>`
	}
	s, err := screen.ParseUIAutomator([]byte(xml + `</node></node></hierarchy>`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestNamedRowWithItsTextsReordered: an app update may put a row's texts
// in another order; the row is still found by its name, and never by a
// name two rows carry.
func TestNamedRowWithItsTextsReordered(t *testing.T) {
	learned := threadList(t, []string{"Ezra", "Hey", "12.05"}, []string{"Dora", "See you", "12.05"})
	var step knowledge.Step
	for _, e := range screen.Elements(learned) {
		if strings.HasPrefix(e.Label, "Dora") {
			step = knowledge.Step{Action: device.Tap, Target: screen.Describe(learned, e.NodeID)}
		}
	}
	if !step.Target.InList {
		t.Fatalf("no list row learned: %+v", step.Target)
	}
	for _, tt := range []struct {
		name string
		rows [][]string
		want string // the label of the row found, "" for none
	}{
		{"the name leads", [][]string{{"Dora", "See you", "12.05"}, {"Ezra", "Hey", "12.05"}}, "Dora · See you · 12.05"},
		{"the texts reordered", [][]string{{"12.05", "See you", "Dora"}, {"Ezra", "Hey", "12.05"}}, "12.05 · See you · Dora"},
		{"a leading name wins over a part", [][]string{{"Dora", "Hi", "12.05"}, {"Ezra", "Dora", "12.05"}}, "Dora · Hi · 12.05"},
		{"two rows carry the name: none", [][]string{{"12.05", "Dora"}, {"Ezra", "Dora"}}, ""},
		{"no row carries it", [][]string{{"12.05", "Doran"}, {"Ezra", "Hey"}}, ""},
	} {
		s := threadList(t, tt.rows...)
		elems := screen.Elements(s)
		got := ""
		if i := namedRow(s, elems, step, "Dora"); i >= 0 {
			got = elems[i].Label
		}
		if got != tt.want {
			t.Errorf("%s: found %q, want %q", tt.name, got, tt.want)
		}
	}
}
