// Package screen owns Wayfinder's one screen model: an accessibility snapshot
// (windows, each with a tree of accessibility nodes), its parsers (the
// Wayfinder snapshot JSON emitted by the Android service, DroidBot state JSON,
// and `uiautomator dump` XML), and screen understanding on top of it: pruning,
// the compact prompt rendering, the screen fingerprint, element descriptors and
// similarity functions.
//
// The package is pure computation: it must not touch the device, the network,
// the knowledge store or the file system (parsers take bytes). Password
// fields' text never leaves this package: parsers blank it on the way in.
package screen

import (
	"fmt"
	"strings"
	"sync"
)

// SchemaVersion is the version of the snapshot JSON documented in
// docs/screen-schema.md. Parsers accept 0 (absent) and 1.
const SchemaVersion = 1

// Rect is a bounding box in screen pixels: [left, top, right, bottom].
// A zero-area rect is legal (invisible or collapsed views).
type Rect [4]int

// Width in px (never negative).
func (r Rect) Width() int { return max(0, r[2]-r[0]) }

// Height in px (never negative).
func (r Rect) Height() int { return max(0, r[3]-r[1]) }

// Area in px².
func (r Rect) Area() int { return r.Width() * r.Height() }

// Center returns the centre point (x, y) in px.
func (r Rect) Center() (int, int) { return (r[0] + r[2]) / 2, (r[1] + r[3]) / 2 }

// Contains reports whether the point (x, y) lies inside r (right and bottom
// edges exclusive, as Android's Rect.contains).
func (r Rect) Contains(x, y int) bool { return x >= r[0] && x < r[2] && y >= r[1] && y < r[3] }

// Empty reports whether the rect has no area.
func (r Rect) Empty() bool { return r.Area() == 0 }

// Node is one accessibility node (AccessibilityNodeInfo, DroidBot view, or
// uiautomator <node>). ID is stable within one snapshot only: it is the
// node's index in Snapshot.Nodes. Use a Descriptor to recognise "the same
// element" across snapshots, never ID or Bounds alone.
type Node struct {
	ID          int    `json:"id"`
	Parent      int    `json:"parent"` // ID of the parent node, -1 for a window root
	Window      int    `json:"-"`      // index into Snapshot.Windows
	Class       string `json:"class,omitempty"`
	Package     string `json:"package,omitempty"`
	ResourceID  string `json:"resource_id,omitempty"`
	Text        string `json:"text,omitempty"`
	ContentDesc string `json:"content_desc,omitempty"`
	Hint        string `json:"hint,omitempty"`
	Bounds      Rect   `json:"bounds"`

	Clickable     bool `json:"clickable,omitempty"`
	LongClickable bool `json:"long_clickable,omitempty"`
	Checkable     bool `json:"checkable,omitempty"`
	Checked       bool `json:"checked,omitempty"`
	Editable      bool `json:"editable,omitempty"`
	Scrollable    bool `json:"scrollable,omitempty"`
	Focusable     bool `json:"focusable,omitempty"`
	Focused       bool `json:"focused,omitempty"`
	Selected      bool `json:"selected,omitempty"`
	Enabled       bool `json:"enabled,omitempty"`
	Visible       bool `json:"visible_to_user,omitempty"`
	Password      bool `json:"password,omitempty"`

	// StateDesc is the node's state description (API 30+
	// getStateDescription(): "On", "50 percent", "Expanded"); Error the
	// error shown on a field (getError()); PaneTitle the title of a pane
	// (getPaneTitle(), API 28+).
	StateDesc string `json:"state_description,omitempty"`
	Error     string `json:"error,omitempty"`
	PaneTitle string `json:"pane_title,omitempty"`
	// InputType is getInputType(): android.text.InputType bits (class in
	// the low 4 bits, variation in 0xff0), 0 for none.
	InputType int `json:"input_type,omitempty"`
	// Actions names the accessibility actions the node offers, in the
	// node's order: standard ones by their AccessibilityAction name
	// without the ACTION_ prefix, lower case ("click", "set_text",
	// "ime_enter", "scroll_forward"), custom ones as "custom:" + label.
	Actions []string `json:"actions,omitempty"`

	Children []int `json:"-"` // IDs of child nodes, in drawing order
}

// HasAction reports whether the node lists the accessibility action name
// (see Node.Actions). Sources without an action list report false.
func (n *Node) HasAction(name string) bool {
	for _, a := range n.Actions {
		if a == name {
			return true
		}
	}
	return false
}

// Interactive reports whether a user can act on the node directly.
func (n *Node) Interactive() bool {
	return n.Clickable || n.LongClickable || n.Checkable || n.Editable || n.Scrollable
}

// Label returns the node's own human-readable label: text, else
// content-desc, else hint. Password text is never stored, so never returned.
func (n *Node) Label() string {
	switch {
	case strings.TrimSpace(n.Text) != "":
		return strings.TrimSpace(n.Text)
	case strings.TrimSpace(n.ContentDesc) != "":
		return strings.TrimSpace(n.ContentDesc)
	default:
		return strings.TrimSpace(n.Hint)
	}
}

// ShortClass returns the class name without its package ("android.widget.Button" -> "Button").
func (n *Node) ShortClass() string {
	if i := strings.LastIndexByte(n.Class, '.'); i >= 0 {
		return n.Class[i+1:]
	}
	return n.Class
}

// ResourceName returns the resource-id without its package prefix
// ("com.app:id/save_btn" -> "save_btn").
func (n *Node) ResourceName() string { return ResourceName(n.ResourceID) }

// ResourceName strips the "package:id/" prefix of an Android resource-id.
func ResourceName(id string) string {
	if i := strings.Index(id, ":id/"); i >= 0 {
		return id[i+4:]
	}
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		return id[i+1:]
	}
	return id
}

// Window is one window on screen (AccessibilityWindowInfo). Type is one of
// the WindowType constants. Layer is the z-order: higher is on top.
type Window struct {
	ID      int    `json:"id"`
	Type    string `json:"type"`
	Package string `json:"package,omitempty"`
	Title   string `json:"title,omitempty"`
	Layer   int    `json:"layer"`
	Focused bool   `json:"focused,omitempty"`
	Bounds  Rect   `json:"bounds"`
	Root    int    `json:"-"` // ID of the root node, -1 if the window has no tree
}

// Window types, as AccessibilityWindowInfo.TYPE_* names them.
const (
	WindowApplication = "application"
	WindowInputMethod = "input_method"
	WindowSystem      = "system"
	WindowOverlay     = "accessibility_overlay"
	WindowDivider     = "split_screen_divider"
	WindowMagnifier   = "magnification_overlay"
	WindowUnknown     = "unknown"
)

var windowTypes = map[string]bool{
	WindowApplication: true, WindowInputMethod: true, WindowSystem: true, WindowOverlay: true,
	WindowDivider: true, WindowMagnifier: true, WindowUnknown: true,
}

// Snapshot is one capture of everything on screen. Nodes holds every node
// of every window, each window's nodes in pre-order, so Nodes[i].ID == i.
// Width and Height are the display size in px; Activity is the foreground
// activity component ("pkg/.Activity") when known, Package the foreground
// package.
type Snapshot struct {
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Activity string   `json:"activity,omitempty"`
	Package  string   `json:"package,omitempty"`
	Windows  []Window `json:"windows"`
	Nodes    []Node   `json:"-"`
	// Source names where the snapshot came from ("device", "droidbot",
	// "uiautomator"); informational only.
	Source string `json:"-"`
	// StateID is an external screen id when the source has one (DroidBot
	// state_str); informational only, never used for identity.
	StateID string `json:"-"`
	// CaptureID is the device's id of this capture (snapshot JSON
	// "capture_id"): actions chosen on it echo it (device.Action.CaptureID)
	// so the device resolves node ids against this capture. "" when the
	// source has none.
	CaptureID string `json:"-"`

	cache *analysis // derived data, computed once on first use
}

// analysis holds what screen understanding derives from a snapshot; it is
// computed lazily, once, and shared by copies of the Snapshot value.
type analysis struct {
	once  sync.Once
	keep  []bool
	list  []bool
	elems []Element
	toks  []string

	// element descriptors of every node (Describe), computed once on the
	// first Describe or Ground, after the fields above
	descOnce sync.Once
	descs    []Descriptor
	keys     []string // descs[i].Key()
}

func (s *Snapshot) analysis() *analysis {
	if s.cache == nil {
		s.cache = &analysis{}
	}
	c := s.cache
	c.once.Do(func() {
		c.keep = computeKeep(s)
		c.list = listItems(s, c.keep)
		c.elems = computeElements(s, c.keep)
		c.toks = computeTokens(s, c.keep, c.list)
	})
	return c
}

// Changed must be called after mutating a parsed snapshot's nodes: it drops
// the derived data so it is computed again.
func (s *Snapshot) Changed() { s.cache = &analysis{} }

// Node returns the node with the given ID, or nil when out of range.
func (s *Snapshot) Node(id int) *Node {
	if s == nil || id < 0 || id >= len(s.Nodes) {
		return nil
	}
	return &s.Nodes[id]
}

// Roots returns the root node IDs of the windows, topmost window first.
func (s *Snapshot) Roots() []int {
	order := make([]int, 0, len(s.Windows))
	for i := range s.Windows {
		if s.Windows[i].Root >= 0 {
			order = append(order, i)
		}
	}
	// insertion sort by layer descending: windows are few
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && s.Windows[order[j]].Layer > s.Windows[order[j-1]].Layer; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	roots := make([]int, len(order))
	for i, w := range order {
		roots[i] = s.Windows[w].Root
	}
	return roots
}

// Ancestors returns the IDs from the node's parent up to its window root.
func (s *Snapshot) Ancestors(id int) []int {
	var out []int
	for n := s.Node(id); n != nil && n.Parent >= 0; n = s.Node(n.Parent) {
		out = append(out, n.Parent)
		if len(out) > len(s.Nodes) { // defensive: Validate forbids cycles
			break
		}
	}
	return out
}

// Walk visits the subtree of id in pre-order; fn returning false skips the
// node's children.
func (s *Snapshot) Walk(id int, fn func(n *Node, depth int) bool) {
	var rec func(id, depth int)
	rec = func(id, depth int) {
		n := s.Node(id)
		if n == nil || !fn(n, depth) {
			return
		}
		for _, c := range n.Children {
			rec(c, depth+1)
		}
	}
	rec(id, 0)
}

// ClickableAncestor returns the node itself when it is clickable, else the
// nearest clickable ancestor, else the node. Actions by node go there, as a
// finger tapping the node's label would hit the row that owns it.
func (s *Snapshot) ClickableAncestor(id int) *Node {
	n := s.Node(id)
	for c := n; c != nil; c = s.Node(c.Parent) {
		if c.Clickable || c.LongClickable || c.Checkable {
			return c
		}
		if c.Parent < 0 {
			break
		}
	}
	return n
}

// HitTest returns the ID of the deepest, topmost visible node whose bounds
// contain (x, y) px and that a tap would reach (clickable, or any node when
// none is clickable), or -1.
func (s *Snapshot) HitTest(x, y int) int {
	best, bestArea, bestDepth := -1, 0, -1
	for _, root := range s.Roots() {
		s.Walk(root, func(n *Node, depth int) bool {
			if !n.Bounds.Contains(x, y) {
				return len(n.Children) > 0 && n.Bounds.Empty() // zero-size containers may still hold children
			}
			if n.Clickable || n.LongClickable || n.Checkable || n.Editable {
				a := n.Bounds.Area()
				if best < 0 || depth > bestDepth || (depth == bestDepth && a < bestArea) {
					best, bestArea, bestDepth = n.ID, a, depth
				}
			}
			return true
		})
		if best >= 0 {
			return best // the topmost window that has a target wins
		}
	}
	return best
}

// ForegroundPackage returns Package, else the package of the focused or
// topmost application window, else "".
func (s *Snapshot) ForegroundPackage() string {
	if s.Package != "" {
		return s.Package
	}
	if i := strings.IndexByte(s.Activity, '/'); i > 0 {
		return s.Activity[:i]
	}
	best := -1
	for i, w := range s.Windows {
		if w.Type != WindowApplication {
			continue
		}
		if best < 0 || w.Focused || w.Layer > s.Windows[best].Layer {
			best = i
		}
	}
	if best >= 0 {
		return s.Windows[best].Package
	}
	return ""
}

// FieldError is a parse or validation error that names the offending field
// (a JSON path like "windows[0].nodes[12].bounds") or byte offset.
type FieldError struct {
	Format string // "snapshot", "droidbot", "uiautomator"
	Field  string // path of the field, or "offset 1234"
	Err    error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: %s: %v", e.Format, e.Field, e.Err)
}

func (e *FieldError) Unwrap() error { return e.Err }

func fieldErr(format, field string, f string, a ...any) *FieldError {
	return &FieldError{Format: format, Field: field, Err: fmt.Errorf(f, a...)}
}

// MaxNodes bounds the nodes of one snapshot; real screens have < 2,000.
const MaxNodes = 50_000

// finish links children, assigns windows and checks the invariants every
// parser must meet: Nodes[i].ID == i, parents precede children (so no
// cycles), parents live in the same window; inverted bounds (of nodes and
// windows) become empty. Password
// text is blanked here, whichever parser built the snapshot.
func (s *Snapshot) finish(format string) error {
	if len(s.Nodes) > MaxNodes {
		return fieldErr(format, "nodes", "%d nodes exceed the limit of %d", len(s.Nodes), MaxNodes)
	}
	for i := range s.Nodes {
		s.Nodes[i].Children = nil
	}
	for i := range s.Windows {
		w := &s.Windows[i]
		w.Root = -1
		w.Bounds[2] = max(w.Bounds[2], w.Bounds[0]) // inverted: empty, as for nodes
		w.Bounds[3] = max(w.Bounds[3], w.Bounds[1])
	}
	s.cache = &analysis{}
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if n.ID != i {
			return fieldErr(format, fmt.Sprintf("nodes[%d].id", i), "id %d out of order (want %d)", n.ID, i)
		}
		if n.Window < 0 || n.Window >= len(s.Windows) {
			return fieldErr(format, fmt.Sprintf("nodes[%d]", i), "belongs to no window")
		}
		// Real captures carry inverted bounds for views scrolled out of
		// the window (getBoundsInScreen clips to an empty, inverted rect):
		// they become zero-area, which pruning treats as invisible.
		n.Bounds[2] = max(n.Bounds[2], n.Bounds[0])
		n.Bounds[3] = max(n.Bounds[3], n.Bounds[1])
		if n.Password {
			n.Text = ""
		}
		if n.Parent < 0 {
			n.Parent = -1
			w := &s.Windows[n.Window]
			if w.Root >= 0 {
				return fieldErr(format, fmt.Sprintf("nodes[%d].parent", i), "second root in window %d", n.Window)
			}
			w.Root = i
			continue
		}
		if n.Parent >= i {
			return fieldErr(format, fmt.Sprintf("nodes[%d].parent", i), "parent %d does not precede its child", n.Parent)
		}
		p := &s.Nodes[n.Parent]
		if p.Window != n.Window {
			return fieldErr(format, fmt.Sprintf("nodes[%d].parent", i), "parent %d is in another window", n.Parent)
		}
		p.Children = append(p.Children, i)
	}
	if s.Width <= 0 || s.Height <= 0 {
		// derive from the largest root when the source did not say
		for _, w := range s.Windows {
			if w.Root >= 0 {
				b := s.Nodes[w.Root].Bounds
				s.Width, s.Height = max(s.Width, b[2]), max(s.Height, b[3])
			}
		}
	}
	return nil
}

// Clone returns a deep copy that may be modified; call Changed on it after
// modifying nodes.
func (s *Snapshot) Clone() *Snapshot {
	c := *s
	c.Windows = append([]Window(nil), s.Windows...)
	c.Nodes = make([]Node, len(s.Nodes))
	for i, n := range s.Nodes {
		n.Children = append([]int(nil), n.Children...)
		n.Actions = append([]string(nil), n.Actions...)
		c.Nodes[i] = n
	}
	c.cache = &analysis{}
	return &c
}
