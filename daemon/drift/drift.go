// Package drift makes an "updated" copy of a DroidTask-format directory:
// the same apps, tasks and recorded UI graph, with the changes an app
// update brings — resource-ids renamed or obfuscated, siblings reordered,
// bounds shifted or scaled (another screen size), texts recased or
// reworded with synonyms, elements wrapped in an extra container, an
// interstitial dialog ("What's new", "Rate us") before a screen, a
// settings entry moved one level deeper. Its output is DroidTask-format
// again (apps.json, tasks.jsonl, transitions.jsonl, apps/<app>/states),
// with the tasks' ground truth rewritten to the changed app (node ids,
// targets, the extra steps a dialog or a deeper entry needs), so a
// benchmark can replay flows learned on the original against it and tell
// a right tap from a wrong one. The same input, kinds, strength and seed
// give the same output, byte for byte.
//
// The package owns only the transformation; it never reads the engine's
// knowledge and writes only under the output directory.
package drift

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// Kind names one kind of change.
type Kind string

// The kinds of change, in the order they are applied.
const (
	// Text recases labels or rewords one word with a synonym.
	Text Kind = "text"
	// RenameID obfuscates resource-ids (R8-style short names).
	RenameID Kind = "rename-id"
	// Bounds scales and shifts every screen (another size or density).
	Bounds Kind = "bounds"
	// Wrap puts interactive elements inside an extra container.
	Wrap Kind = "wrap"
	// Shuffle reorders siblings (rows of the same size swap places).
	Shuffle Kind = "shuffle"
	// Deeper moves a settings entry one level deeper, behind a new entry.
	Deeper Kind = "deeper"
	// Interstitial puts a dismissable dialog before a screen.
	Interstitial Kind = "interstitial"
)

// Kinds lists every kind, in application order.
var Kinds = []Kind{Text, RenameID, Bounds, Wrap, Shuffle, Deeper, Interstitial}

// ParseKinds reads a comma-separated list of kind names ("" or "all":
// every kind).
func ParseKinds(s string) ([]Kind, error) {
	if s == "" || s == "all" {
		return slices.Clone(Kinds), nil
	}
	var out []Kind
	for _, p := range strings.Split(s, ",") {
		k := Kind(strings.TrimSpace(p))
		if !slices.Contains(Kinds, k) {
			return nil, fmt.Errorf("drift: unknown kind %q (want %s)", k, kindNames())
		}
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out, nil
}

func kindNames() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// Named strengths.
const (
	Low      = 0.25
	Moderate = 0.5
	High     = 1.0
)

// ParseStrength reads "low", "moderate", "high" or a number in (0, 1].
func ParseStrength(s string) (float64, error) {
	switch s {
	case "low":
		return Low, nil
	case "", "moderate":
		return Moderate, nil
	case "high":
		return High, nil
	}
	var f float64
	if _, err := fmt.Sscanf(s, "%g", &f); err != nil || f <= 0 || f > 1 {
		return 0, fmt.Errorf("drift: strength %q: want low, moderate, high or a number in (0, 1]", s)
	}
	return f, nil
}

// Config of one drift. Strength s in (0, 1] is, per kind: the share of
// distinct texts changed (half recased, half reworded where a synonym is
// known); the share of distinct resource-ids obfuscated; the size change
// (scale 1 ± 0.3·s, shift down by 100·s px); the share of interactive
// elements wrapped; the share of sibling groups reordered; the share of
// eligible settings entries moved deeper; the share of screens that task
// steps lead to that get a dialog first. Choices are consistent within an
// app (the same id is renamed the same way on every screen).
type Config struct {
	Kinds    []Kind
	Strength float64
	Seed     uint64
	// Synonyms rewords texts (kind Text); nil recases only.
	Synonyms Synonyms
}

// Summary counts what a drift changed, per kind.
type Summary struct {
	Apps    int            `json:"apps"`
	States  int            `json:"states"`
	Changes map[Kind]int   `json:"changes"`
	Added   int            `json:"added_states"`
	PerApp  map[string]int `json:"per_app_changes"`
}

// Generate reads the DroidTask-format directory in, applies cfg, and
// writes the result to out (created; it must not exist or be empty, and
// must not be in). Only apps.json, tasks.jsonl, transitions.jsonl and the
// state files are written: recorded events, raw task files and
// exploration notes describe the original app and are left out.
func Generate(in, out string, cfg Config) (*Summary, error) {
	if cfg.Strength <= 0 || cfg.Strength > 1 {
		return nil, fmt.Errorf("drift: strength %g not in (0, 1]", cfg.Strength)
	}
	if len(cfg.Kinds) == 0 {
		return nil, errors.New("drift: no kinds")
	}
	if err := checkOut(in, out); err != nil {
		return nil, err
	}
	d, err := load(in)
	if err != nil {
		return nil, err
	}
	sum := &Summary{Changes: map[Kind]int{}, PerApp: map[string]int{}}
	for _, name := range d.appNames() {
		a := d.apps[name]
		before := len(a.states)
		for _, k := range Kinds {
			if !slices.Contains(cfg.Kinds, k) {
				continue
			}
			r := rand.New(rand.NewPCG(cfg.Seed, hash(name, string(k))))
			n, err := apply(a, k, cfg, r)
			if err != nil {
				return nil, fmt.Errorf("drift: %s: %s: %w", name, k, err)
			}
			sum.Changes[k] += n
			sum.PerApp[name] += n
		}
		a.refreshTargets()
		sum.Apps++
		sum.States += len(a.states)
		sum.Added += len(a.states) - before
	}
	if err := d.write(out); err != nil {
		return nil, err
	}
	return sum, nil
}

func checkOut(in, out string) error {
	ai, err1 := filepath.Abs(in)
	ao, err2 := filepath.Abs(out)
	if err := errors.Join(err1, err2); err != nil {
		return fmt.Errorf("drift: %w", err)
	}
	if ao == ai || strings.HasPrefix(ao, ai+string(filepath.Separator)) {
		return fmt.Errorf("drift: output %s is inside the input %s", out, in)
	}
	ents, err := os.ReadDir(out)
	if err == nil && len(ents) > 0 {
		return fmt.Errorf("drift: output %s exists and is not empty", out)
	}
	return nil
}

func apply(a *app, k Kind, cfg Config, r *rand.Rand) (int, error) {
	s := cfg.Strength
	switch k {
	case Text:
		return a.retext(s, cfg.Synonyms, r), nil
	case RenameID:
		return a.renameIDs(s, r), nil
	case Bounds:
		return a.rescale(s, r), nil
	case Wrap:
		return a.wrap(s, r)
	case Shuffle:
		return a.shuffle(s, r)
	case Deeper:
		return a.deeper(s, r)
	case Interstitial:
		return a.interstitial(s, r)
	}
	return 0, fmt.Errorf("unknown kind %q", k)
}

// hash mixes strings into a seed (FNV-1a, 64 bits).
func hash(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// chance reports whether the thing named key is chosen at rate s: the
// same key gets the same answer on every screen of an app (seeded by r's
// first draw, so another seed chooses other things).
func chance(salt uint64, key string, s float64) bool {
	if s >= 1 {
		return true
	}
	return float64(hash(fmt.Sprint(salt), key)%1_000_000)/1_000_000 < s
}

// ---- the data set in memory ----

// dataset is a DroidTask directory as generic JSON (unknown fields kept).
type dataset struct {
	appsDoc map[string]map[string]any
	apps    map[string]*app
	lines   struct{ tasks, trans []map[string]any } // in file order, all apps
}

// app is one app's states, tasks and transitions (pointers into the
// dataset's lines, so edits land there).
type app struct {
	name, pkg string
	info      map[string]any
	states    map[string]*state
	tasks     []map[string]any
	trans     []map[string]any
	dataWords map[string]bool  // words the tasks name as data (kept by Text)
	added     []string         // states created by the drift, in order
	made      []map[string]any // transitions created by the drift, in order (written after the recorded ones)
}

// addTrans records transitions the drift created: the app's own list,
// and the list written to transitions.jsonl.
func (a *app) addTrans(ts ...map[string]any) {
	a.trans = append(a.trans, ts...)
	a.made = append(a.made, ts...)
}

// state is one screen: the document and its views (pre-order).
type state struct {
	id    string
	doc   map[string]any
	views []map[string]any
}

func load(dir string) (*dataset, error) {
	d := &dataset{apps: map[string]*app{}}
	b, err := os.ReadFile(filepath.Join(dir, "apps.json"))
	if err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	if err := decode(b, &d.appsDoc); err != nil {
		return nil, fmt.Errorf("drift: apps.json: %w", err)
	}
	for name, info := range d.appsDoc {
		pkg, _ := info["main_package"].(string)
		d.apps[name] = &app{name: name, pkg: pkg, info: info, states: map[string]*state{}, dataWords: map[string]bool{}}
	}
	for _, f := range []struct {
		name string
		dst  *[]map[string]any
	}{{"tasks.jsonl", &d.lines.tasks}, {"transitions.jsonl", &d.lines.trans}} {
		lines, err := readLines(filepath.Join(dir, f.name))
		if err != nil {
			return nil, err
		}
		*f.dst = lines
	}
	for _, t := range d.lines.tasks {
		if a := d.apps[str(t["app"])]; a != nil {
			a.tasks = append(a.tasks, t)
			for w := range dataWordsOf(str(t["instruction"])) {
				a.dataWords[w] = true
			}
		}
	}
	for _, t := range d.lines.trans {
		if a := d.apps[str(t["app"])]; a != nil {
			a.trans = append(a.trans, t)
		}
	}
	for _, a := range d.apps {
		sdir := filepath.Join(dir, "apps", a.name, "states")
		ents, err := os.ReadDir(sdir)
		if err != nil {
			return nil, fmt.Errorf("drift: %w", err)
		}
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".json") {
				continue
			}
			b, err := os.ReadFile(filepath.Join(sdir, e.Name()))
			if err != nil {
				return nil, fmt.Errorf("drift: %w", err)
			}
			st, err := parseState(strings.TrimSuffix(e.Name(), ".json"), b)
			if err != nil {
				return nil, fmt.Errorf("drift: %s/%s: %w", a.name, e.Name(), err)
			}
			a.states[st.id] = st
		}
	}
	return d, nil
}

func parseState(id string, b []byte) (*state, error) {
	var doc map[string]any
	if err := decode(b, &doc); err != nil {
		return nil, err
	}
	raw, _ := doc["views"].([]any)
	st := &state{id: id, doc: doc}
	for i, v := range raw {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("views[%d]: not an object", i)
		}
		if num(m["temp_id"]) != i {
			return nil, fmt.Errorf("views[%d]: temp_id %v", i, m["temp_id"])
		}
		st.views = append(st.views, m)
	}
	return st, nil
}

// decode reads JSON keeping numbers exact.
func decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

func readLines(path string) ([]map[string]any, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("drift: %w", err)
	}
	var out []map[string]any
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var m map[string]any
		if err := decode(line, &m); err != nil {
			return nil, fmt.Errorf("drift: %s:%d: %w", filepath.Base(path), i+1, err)
		}
		out = append(out, m)
	}
	return out, nil
}

func (d *dataset) appNames() []string {
	names := make([]string, 0, len(d.apps))
	for n := range d.apps {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (d *dataset) write(out string) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("drift: %w", err)
	}
	for _, a := range d.apps {
		a.info["unique_states"] = len(a.states)
		a.info["transitions"] = len(a.trans)
		dir := filepath.Join(out, "apps", a.name, "states")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("drift: %w", err)
		}
		for id, st := range a.states {
			st.doc["views"] = st.views
			b, err := json.Marshal(st.doc)
			if err != nil {
				return fmt.Errorf("drift: %s/%s: %w", a.name, id, err)
			}
			if err := os.WriteFile(filepath.Join(dir, id+".json"), b, 0o644); err != nil {
				return fmt.Errorf("drift: %w", err)
			}
		}
	}
	b, err := json.MarshalIndent(d.appsDoc, "", "  ")
	if err != nil {
		return fmt.Errorf("drift: apps.json: %w", err)
	}
	if err := os.WriteFile(filepath.Join(out, "apps.json"), b, 0o644); err != nil {
		return fmt.Errorf("drift: %w", err)
	}
	trans := d.lines.trans
	for _, name := range d.appNames() {
		trans = append(trans, d.apps[name].made...)
	}
	for _, f := range []struct {
		name  string
		lines []map[string]any
	}{{"tasks.jsonl", d.lines.tasks}, {"transitions.jsonl", trans}} {
		var buf bytes.Buffer
		for _, l := range f.lines {
			b, err := json.Marshal(l)
			if err != nil {
				return fmt.Errorf("drift: %s: %w", f.name, err)
			}
			buf.Write(b)
			buf.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(out, f.name), buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("drift: %w", err)
		}
	}
	return nil
}

// ---- generic JSON helpers ----

func str(v any) string {
	s, _ := v.(string)
	return s
}

// num reads an integer field (json.Number, int or float64); -1 when
// absent or not a number.
func num(v any) int {
	switch n := v.(type) {
	case json.Number:
		i, err := n.Int64()
		if err != nil {
			f, err := n.Float64()
			if err != nil {
				return -1
			}
			return int(f)
		}
		return int(i)
	case int:
		return n
	case float64:
		return int(n)
	}
	return -1
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// bounds reads [[x1,y1],[x2,y2]]; ok false when malformed.
func bounds(v any) (b [4]int, ok bool) {
	switch p := v.(type) {
	case [][2]int:
		if len(p) != 2 {
			return b, false
		}
		return [4]int{p[0][0], p[0][1], p[1][0], p[1][1]}, true
	case []any:
		if len(p) != 2 {
			return b, false
		}
		a, c := list(p[0]), list(p[1])
		if len(a) != 2 || len(c) != 2 {
			return b, false
		}
		return [4]int{num(a[0]), num(a[1]), num(c[0]), num(c[1])}, true
	}
	return b, false
}

func setBounds(m map[string]any, b [4]int) {
	m["bounds"] = [][2]int{{b[0], b[1]}, {b[2], b[3]}}
	m["size"] = fmt.Sprintf("%d*%d", b[2]-b[0], b[3]-b[1])
}
