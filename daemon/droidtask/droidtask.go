// Package droidtask reads a DroidTask-format directory (the data set of
// AutoDroid, Wen et al., MobiCom 2024; see ../shared/droidtask/README.md):
// apps.json, tasks.jsonl, transitions.jsonl and apps/<app>/states/*.json.
// It owns only reading that format; it must not write anything.
package droidtask

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// AppInfo is one entry of apps.json.
type AppInfo struct {
	Name             string   `json:"-"`
	MainPackage      string   `json:"main_package"`
	LaunchIntents    []string `json:"launch_intents"`
	LaunchEntry      []string `json:"launch_entry_states"`
	TaskStartStates  []string `json:"task_start_states"`
	NumTasks         int      `json:"num_tasks"`
	UniqueStates     int      `json:"unique_states"`
	TransitionsCount int      `json:"transitions"`
}

// StartState is where the app opens: the first task start state, else the
// first launch entry state.
func (a AppInfo) StartState() string {
	if len(a.TaskStartStates) > 0 {
		return a.TaskStartStates[0]
	}
	if len(a.LaunchEntry) > 0 {
		return a.LaunchEntry[0]
	}
	return ""
}

// Target is a recorded view: a DroidBot view as seen in a transition or a
// task step. TempID / CanonicalTempID index the view list of the state.
type Target struct {
	TempID          *int     `json:"temp_id"`
	CanonicalTempID *int     `json:"canonical_temp_id"`
	Class           string   `json:"class"`
	ResourceID      *string  `json:"resource_id"`
	Text            *string  `json:"text"`
	ContentDesc     *string  `json:"content_description"`
	Bounds          [][2]int `json:"bounds"`
	ViewStr         string   `json:"view_str"`
	HTMLOnly        *struct {
		Tag   string `json:"tag"`
		Inner string `json:"inner"`
	} `json:"html_only"`
}

// Label returns the target's text, else content-desc.
func (t *Target) Label() string {
	if t == nil {
		return ""
	}
	if t.Text != nil && *t.Text != "" {
		return *t.Text
	}
	if t.ContentDesc != nil {
		return *t.ContentDesc
	}
	return ""
}

// Action is a recorded action.
type Action struct {
	Type   string  `json:"type"` // click|input|key|intent|kill_app|done
	Text   string  `json:"text"`
	Key    string  `json:"key"`
	Intent string  `json:"intent"`
	Target *Target `json:"target"`
}

// Transition is one line of transitions.jsonl: an edge of the recorded UI
// transition graph.
type Transition struct {
	App            string   `json:"app"`
	Source         string   `json:"source"` // droidbot_event | task_demo
	From           string   `json:"from"`
	To             string   `json:"to"`
	Count          int      `json:"count"`
	EventTags      []string `json:"event_tags"`
	Action         Action   `json:"action"`
	Target         *Target  `json:"target"`
	FromKnown      bool     `json:"from_known"`
	ToKnown        bool     `json:"to_known"`
	RequiresScroll bool     `json:"requires_scroll"`
}

// Exploration reports whether the edge was recorded by DroidBot (random
// exploration or event logs), not only by a task demonstration.
func (t *Transition) Exploration() bool { return t.Source != "task_demo" }

// Candidate is a view in another captured state that carries a
// below-the-fold target's label.
type Candidate struct {
	State  string `json:"state"`
	TempID int    `json:"temp_id"`
}

// Step is one ground-truth step of a task.
type Step struct {
	Index      int    `json:"index"`
	State      string `json:"state"`
	NextState  string `json:"next_state"`
	Input      string `json:"input"`
	Action     Action `json:"action"`
	TargetHTML *struct {
		Tag   string `json:"tag"`
		Inner string `json:"inner"`
	} `json:"target_html"`
	RequiresScroll bool        `json:"requires_scroll"`
	Candidates     []Candidate `json:"target_candidates_in_other_states"`
}

// Task is one line of tasks.jsonl.
type Task struct {
	ID          string `json:"task_id"`
	App         string `json:"app"`
	Instruction string `json:"instruction"`
	StartState  string `json:"start_state"`
	NumActions  int    `json:"num_actions"`
	Steps       []Step `json:"steps"`
}

// FinalState is the state where the task is done.
func (t *Task) FinalState() string {
	if n := len(t.Steps); n > 0 {
		return t.Steps[n-1].State
	}
	return t.StartState
}

// Actions returns the steps before "done".
func (t *Task) Actions() []Step {
	var out []Step
	for _, s := range t.Steps {
		if s.Action.Type != "done" {
			out = append(out, s)
		}
	}
	return out
}

// Dataset is a loaded DroidTask directory. States are parsed lazily and
// cached; Dataset is safe for concurrent use.
type Dataset struct {
	Dir         string // where it was loaded from, for messages
	fsys        fs.FS
	Apps        map[string]AppInfo
	Tasks       []Task
	Transitions []Transition

	mu     sync.Mutex
	states map[string]*screen.Snapshot // app/state -> parsed
	labels map[string]string           // app -> Label
}

// Load reads apps.json, tasks.jsonl and transitions.jsonl of dir. It
// returns an error naming the file and line of the first malformed record.
func Load(dir string) (*Dataset, error) {
	return LoadFS(os.DirFS(dir), dir)
}

// LoadFS reads a DroidTask-format tree from fsys (the embedded demo app
// uses it); name labels it in messages.
func LoadFS(fsys fs.FS, name string) (*Dataset, error) {
	d := &Dataset{Dir: name, fsys: fsys, Apps: map[string]AppInfo{}, states: map[string]*screen.Snapshot{}, labels: map[string]string{}}
	b, err := fs.ReadFile(fsys, "apps.json")
	if err != nil {
		return nil, fmt.Errorf("droidtask: %w", err)
	}
	if err := json.Unmarshal(b, &d.Apps); err != nil {
		return nil, fmt.Errorf("droidtask: apps.json: %w", err)
	}
	for name, a := range d.Apps {
		a.Name = name
		d.Apps[name] = a
	}
	if err := readLines(fsys, "tasks.jsonl", func(line []byte) error {
		var t Task
		if err := json.Unmarshal(line, &t); err != nil {
			return err
		}
		d.Tasks = append(d.Tasks, t)
		return nil
	}); err != nil {
		return nil, err
	}
	if err := readLines(fsys, "transitions.jsonl", func(line []byte) error {
		var t Transition
		if err := json.Unmarshal(line, &t); err != nil {
			return err
		}
		if t.Target == nil {
			t.Target = t.Action.Target
		}
		d.Transitions = append(d.Transitions, t)
		return nil
	}); err != nil {
		return nil, err
	}
	return d, nil
}

func readLines(fsys fs.FS, path string, fn func([]byte) error) error {
	f, err := fsys.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a directory may hold only apps and states
	}
	if err != nil {
		return fmt.Errorf("droidtask: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := fn(line); err != nil {
			return fmt.Errorf("droidtask: %s:%d: %w", path, n, err)
		}
	}
	return sc.Err()
}

// AppNames returns the app names, sorted.
func (d *Dataset) AppNames() []string {
	out := make([]string, 0, len(d.Apps))
	for n := range d.Apps {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// AppTasks returns the tasks of one app, in file order.
func (d *Dataset) AppTasks(app string) []Task {
	var out []Task
	for _, t := range d.Tasks {
		if t.App == app {
			out = append(out, t)
		}
	}
	return out
}

// AppTransitions returns the edges of one app, in file order.
func (d *Dataset) AppTransitions(app string) []Transition {
	var out []Transition
	for _, t := range d.Transitions {
		if t.App == app {
			out = append(out, t)
		}
	}
	return out
}

// StateIDs lists the recorded state ids of an app (file names without .json).
func (d *Dataset) StateIDs(app string) ([]string, error) {
	ents, err := fs.ReadDir(d.fsys, path.Join("apps", app, "states"))
	if err != nil {
		return nil, fmt.Errorf("droidtask: %w", err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") {
			out = append(out, strings.TrimSuffix(e.Name(), ".json"))
		}
	}
	return out, nil
}

// HasState reports whether a state file exists.
func (d *Dataset) HasState(app, state string) bool {
	if state == "" || strings.ContainsAny(state, `/\`) {
		return false
	}
	_, err := fs.Stat(d.fsys, path.Join("apps", app, "states", state+".json"))
	return err == nil
}

// State returns the parsed snapshot of a recorded state. The snapshot is
// shared: callers that modify it must Clone it first.
func (d *Dataset) State(app, state string) (*screen.Snapshot, error) {
	if state == "" || strings.ContainsAny(state, `/\`) {
		return nil, fmt.Errorf("droidtask: bad state id %q", state)
	}
	key := app + "/" + state
	d.mu.Lock()
	s, ok := d.states[key]
	d.mu.Unlock()
	if ok {
		return s, nil
	}
	b, err := fs.ReadFile(d.fsys, path.Join("apps", app, "states", state+".json"))
	if err != nil {
		return nil, fmt.Errorf("droidtask: state %s: %w", key, err)
	}
	s, err = screen.ParseDroidBot(b)
	if err != nil {
		return nil, fmt.Errorf("droidtask: state %s: %w", key, err)
	}
	d.mu.Lock()
	d.states[key] = s
	d.mu.Unlock()
	return s, nil
}

// HTMLLabel turns AutoDroid's HTML inner text of an element
// ("Title<br>value") into its first line, the element's label.
func HTMLLabel(inner string) string {
	first, _, _ := strings.Cut(inner, "<br>")
	return strings.TrimSpace(first)
}
