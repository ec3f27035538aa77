package screen

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
)

// Helpers shared by the tests, fuzz targets and benchmarks of this package:
// loading the real data under ../shared (read in place, never copied) and
// checking a snapshot's invariants.

// droidApps are the 10 apps of the DroidTask development set.
var droidApps = []string{"applauncher", "calendar", "camera", "clock", "dialer",
	"filemanager", "gallery", "messenger", "musicplayer", "notes"}

// droidState is one canonical DroidTask state file.
type droidState struct {
	App   string
	Name  string // state_str, the file name without .json
	Path  string
	Raw   []byte
	Snap  *Snapshot
	Extra droidExtra // fields of the file the parser does not keep
}

// droidExtra holds what the tests read from a state file besides the
// parser: DroidBot's own ids, as an independent ground truth.
type droidExtra struct {
	StateStr    string   `json:"state_str"`
	SourceFiles []string `json:"source_files"`
	Views       []struct {
		TempID  int    `json:"temp_id"`
		ViewStr string `json:"view_str"`
	} `json:"views"`
}

var (
	droidOnce   sync.Once
	droidStates []droidState
	droidErr    error
)

// loadDroidTask parses every canonical state of the 10 apps once per test
// binary; it skips tb when the data is absent and fails it on any error.
func loadDroidTask(tb testing.TB) []droidState {
	tb.Helper()
	dir := shared.Path(tb, "droidtask", "apps")
	droidOnce.Do(func() {
		for _, app := range droidApps {
			files, err := filepath.Glob(filepath.Join(dir, app, "states", "*.json"))
			if err != nil {
				droidErr = err
				return
			}
			sort.Strings(files)
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					droidErr = err
					return
				}
				s, err := ParseDroidBot(b)
				if err != nil {
					droidErr = &pathErr{f, err}
					return
				}
				st := droidState{App: app, Name: strings.TrimSuffix(filepath.Base(f), ".json"), Path: f, Raw: b, Snap: s}
				if err := json.Unmarshal(b, &st.Extra); err != nil {
					droidErr = &pathErr{f, err}
					return
				}
				droidStates = append(droidStates, st)
			}
		}
	})
	if droidErr != nil {
		tb.Fatalf("loading DroidTask states: %v", droidErr)
	}
	if len(droidStates) == 0 {
		tb.Skipf("no DroidTask states under %s", dir)
	}
	return droidStates
}

type pathErr struct {
	path string
	err  error
}

func (e *pathErr) Error() string { return e.path + ": " + e.err.Error() }

// uiaFixture is one `uiautomator dump` XML file of ../shared/fixtures.
type uiaFixture struct {
	Name string // trace_7/0
	Raw  []byte
}

// loadUIAutomator reads every fixtures/uiautomator/trace_*/N.xml; it skips
// tb when absent.
func loadUIAutomator(tb testing.TB) []uiaFixture {
	tb.Helper()
	dir := shared.Path(tb, "fixtures", "uiautomator")
	files, err := filepath.Glob(filepath.Join(dir, "trace_*", "*.xml"))
	if err != nil {
		tb.Fatal(err)
	}
	sort.Slice(files, func(i, j int) bool { return fixtureOrder(files[i]) < fixtureOrder(files[j]) })
	var out []uiaFixture
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(f)) + "/" + strings.TrimSuffix(filepath.Base(f), ".xml")
		out = append(out, uiaFixture{Name: name, Raw: b})
	}
	if len(out) == 0 {
		tb.Skipf("no uiautomator fixtures under %s", dir)
	}
	return out
}

func fixtureOrder(f string) string {
	n, _ := strconv.Atoi(strings.TrimSuffix(filepath.Base(f), ".xml"))
	return filepath.Dir(f) + "/" + strconv.Itoa(100000+n)
}

// checkInvariants reports every broken invariant of a parsed snapshot:
// Nodes[i].ID == i, parents precede children in the same window, Children
// mirror Parent, each window has at most one root and Root points at it,
// bounds are not inverted, password text is blank.
func checkInvariants(s *Snapshot) []string {
	var bad []string
	add := func(f string, a ...any) { bad = append(bad, sprintf(f, a...)) }
	childCount := 0
	roots := map[int]int{}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if n.ID != i {
			add("nodes[%d].ID = %d", i, n.ID)
		}
		if n.Window < 0 || n.Window >= len(s.Windows) {
			add("nodes[%d].Window = %d of %d windows", i, n.Window, len(s.Windows))
			continue
		}
		if n.Parent < 0 {
			if n.Parent != -1 {
				add("nodes[%d].Parent = %d", i, n.Parent)
			}
			roots[n.Window]++
			if s.Windows[n.Window].Root != i {
				add("window %d Root = %d, want %d", n.Window, s.Windows[n.Window].Root, i)
			}
		} else {
			if n.Parent >= i {
				add("nodes[%d].Parent = %d does not precede it", i, n.Parent)
				continue
			}
			if s.Nodes[n.Parent].Window != n.Window {
				add("nodes[%d] parent in another window", i)
			}
			found := false
			for _, c := range s.Nodes[n.Parent].Children {
				found = found || c == i
			}
			if !found {
				add("nodes[%d] missing from its parent's Children", i)
			}
		}
		for _, c := range n.Children {
			if c <= i || c >= len(s.Nodes) || s.Nodes[c].Parent != i {
				add("nodes[%d].Children has %d", i, c)
			}
		}
		childCount += len(n.Children)
		if n.Bounds[2] < n.Bounds[0] || n.Bounds[3] < n.Bounds[1] {
			add("nodes[%d] inverted bounds %v", i, n.Bounds)
		}
		if n.Password && n.Text != "" {
			add("nodes[%d] password text kept", i)
		}
	}
	for w, c := range roots {
		if c > 1 {
			add("window %d has %d roots", w, c)
		}
	}
	for i, w := range s.Windows {
		if w.Root >= 0 && (w.Root >= len(s.Nodes) || s.Nodes[w.Root].Window != i) {
			add("window %d Root %d invalid", i, w.Root)
		}
	}
	if want := len(s.Nodes) - len(roots); childCount != want {
		add("%d child links, want %d", childCount, want)
	}
	return bad
}

var sprintf = fmt.Sprintf

// modelOf is the comparable part of a snapshot: what every format keeps.
type modelOf struct {
	Width, Height int
	Windows       []Window
	Nodes         []Node
}

func model(s *Snapshot) modelOf {
	m := modelOf{Width: s.Width, Height: s.Height, Windows: s.Windows, Nodes: s.Nodes}
	// normalise nil vs empty children slices
	m.Nodes = append([]Node(nil), s.Nodes...)
	for i := range m.Nodes {
		if len(m.Nodes[i].Children) == 0 {
			m.Nodes[i].Children = nil
		}
	}
	return m
}

// diffModels returns "" when a and b are equal models, else the first
// difference.
func diffModels(a, b *Snapshot) string {
	ma, mb := model(a), model(b)
	if ma.Width != mb.Width || ma.Height != mb.Height {
		return sprintf("size %dx%d vs %dx%d", ma.Width, ma.Height, mb.Width, mb.Height)
	}
	if !reflect.DeepEqual(ma.Windows, mb.Windows) {
		return sprintf("windows %+v vs %+v", ma.Windows, mb.Windows)
	}
	if len(ma.Nodes) != len(mb.Nodes) {
		return sprintf("%d nodes vs %d", len(ma.Nodes), len(mb.Nodes))
	}
	for i := range ma.Nodes {
		if !reflect.DeepEqual(ma.Nodes[i], mb.Nodes[i]) {
			return sprintf("node %d: %+v vs %+v", i, ma.Nodes[i], mb.Nodes[i])
		}
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }
