package screen

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// ---- pruning (AutoTask §4.4) ----

// Keep returns, indexed by node ID, which nodes survive pruning. A node is
// dropped when it is invisible (not visible-to-user, or zero area, or off
// screen), or when it meets both AutoTask §4.4 criteria (Pan et al., 2023):
// low interaction importance (neither it nor a descendant can be interacted
// with or carries text/content-desc/hint) and low layout importance (it has
// no siblings, or all its siblings have low interaction importance).
// Windows of type input_method are dropped whole: the keyboard is not part
// of any app's screen. So are accessibility_overlay windows: an
// accessibility service draws them over the app (Wayfinder's own question
// and progress overlays among them), they are no part of the app's screen,
// and the agent must never read their text as the app's nor tap them (its
// own "Stop" or an answer to its own question).
func Keep(s *Snapshot) []bool { return s.analysis().keep }

func computeKeep(s *Snapshot) []bool {
	n := len(s.Nodes)
	important := make([]bool, n)  // interaction importance of the subtree
	for i := n - 1; i >= 0; i-- { // children follow parents, so reverse order is post-order
		nd := &s.Nodes[i]
		if !visible(s, nd) {
			continue
		}
		imp := nd.Interactive() || nd.Label() != ""
		for _, c := range nd.Children {
			imp = imp || important[c]
		}
		important[i] = imp
	}
	// importantKids counts each node's important children, so layout
	// importance (some sibling is important) costs O(1) per node
	importantKids := make([]int, n)
	for i := range s.Nodes {
		if p := s.Nodes[i].Parent; p >= 0 && important[i] {
			importantKids[p]++
		}
	}
	keep := make([]bool, n)
	for i := range s.Nodes {
		nd := &s.Nodes[i]
		if t := s.Windows[nd.Window].Type; !visible(s, nd) || t == WindowInputMethod || t == WindowOverlay {
			continue
		}
		if nd.Parent >= 0 && !keep[nd.Parent] {
			continue // a dropped parent takes its subtree
		}
		if important[i] {
			keep[i] = true
			continue
		}
		// low interaction importance: kept only for layout importance, i.e.
		// when some sibling is important (i itself is not).
		if nd.Parent >= 0 && importantKids[nd.Parent] > 0 {
			keep[i] = true
		}
	}
	return keep
}

func visible(s *Snapshot, n *Node) bool {
	if !n.Visible || n.Bounds.Empty() {
		return false
	}
	if s.Width > 0 && s.Height > 0 && (n.Bounds[0] >= s.Width || n.Bounds[1] >= s.Height || n.Bounds[2] <= 0 || n.Bounds[3] <= 0) {
		return false
	}
	return true
}

// ---- elements and the compact rendering ----

// Element kinds used in the compact rendering and in prompts.
const (
	KindButton   = "button"
	KindInput    = "input"
	KindCheckbox = "checkbox"
	KindScroll   = "scroll"
	KindText     = "text"
)

// Element is one thing the agent can see or act on: an interactive node
// (with the text of its non-interactive descendants merged into its label,
// as AutoDroid's HTML rendering does) or a standalone text node. Index is
// its position in Elements' result: a per-snapshot index for prompts only.
type Element struct {
	Index    int    `json:"index"`
	NodeID   int    `json:"node"`
	Kind     string `json:"kind"`
	Label    string `json:"label,omitempty"` // own text/desc/hint, else merged descendant text
	Value    string `json:"value,omitempty"` // current text of an input field
	Hint     string `json:"hint,omitempty"`
	Resource string `json:"resource,omitempty"` // resource-id without package
	Checked  bool   `json:"checked,omitempty"`
	Selected bool   `json:"selected,omitempty"`
	Focused  bool   `json:"focused,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	// Password: a password field; what is typed here is secret (never
	// stored, streamed, logged or sent in a prompt).
	Password bool   `json:"password,omitempty"`
	State    string `json:"state,omitempty"` // the node's state description ("On", "Expanded")
	Error    string `json:"error,omitempty"` // the error a field shows
	Bounds   Rect   `json:"bounds"`
}

// Elements lists the screen's elements in reading order (windows top first,
// then pre-order). Text nodes inside an interactive ancestor are merged
// into that ancestor's label, not listed on their own.
// The slice is shared: callers must not modify it.
func Elements(s *Snapshot) []Element { return s.analysis().elems }

func computeElements(s *Snapshot, keep []bool) []Element {
	// underInteractive[i]: some ancestor of i is clickable, long-clickable,
	// checkable or editable (parents precede children)
	underInteractive := make([]bool, len(s.Nodes))
	for i := range s.Nodes {
		if p := s.Nodes[i].Parent; p >= 0 {
			pn := &s.Nodes[p]
			underInteractive[i] = underInteractive[p] || pn.Clickable || pn.LongClickable || pn.Checkable || pn.Editable
		}
	}
	var out []Element
	for _, root := range s.Roots() {
		s.Walk(root, func(n *Node, _ int) bool {
			if !keep[n.ID] {
				return false
			}
			switch {
			case n.Interactive():
				e := Element{NodeID: n.ID, Kind: kindOf(n), Hint: strings.TrimSpace(n.Hint), Resource: n.ResourceName(),
					Checked: n.Checked, Selected: n.Selected, Focused: n.Focused, Disabled: !n.Enabled, Password: n.Password, Bounds: n.Bounds,
					State: strings.TrimSpace(n.StateDesc), Error: strings.TrimSpace(n.Error)}
				if n.Editable {
					e.Value = strings.TrimSpace(n.Text)
					near := nearbyLabel(s, n.ID, keep)
					e.Label = firstNonEmpty(strings.TrimSpace(n.ContentDesc), e.Hint, near)
					if e.Label == "" && e.Value != "" && n.Hint == "" {
						e.Label = e.Value // many apps show the hint as text
					}
				} else {
					e.Label = firstNonEmpty(n.Label(), mergedText(s, n.ID, keep))
				}
				out = append(out, e)
				// children that are themselves interactive are listed too
				return true
			case n.Label() != "" && !underInteractive[n.ID]:
				out = append(out, Element{NodeID: n.ID, Kind: KindText, Label: n.Label(), Resource: n.ResourceName(),
					Selected: n.Selected, Bounds: n.Bounds})
			}
			return true
		})
	}
	for i := range out {
		out[i].Index = i
	}
	return out
}

func kindOf(n *Node) string {
	switch {
	case n.Editable:
		return KindInput
	case n.Checkable:
		return KindCheckbox
	case n.Clickable || n.LongClickable:
		return KindButton
	default:
		return KindScroll
	}
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// mergedText joins the labels of the non-interactive descendants of id
// (up to 3, at most 80 runes), as a row's visible text.
func mergedText(s *Snapshot, id int, keep []bool) string {
	var parts []string
	s.Walk(id, func(n *Node, d int) bool {
		if d == 0 {
			return true
		}
		if len(parts) == 3 || (keep != nil && !keep[n.ID]) || n.Clickable || n.Editable || n.Checkable {
			return false
		}
		if l := n.Label(); l != "" && len(parts) < 3 {
			parts = append(parts, l)
		}
		return true
	})
	return truncate(strings.Join(parts, RowTextSep), RowTextLen)
}

// RowTextSep joins the texts of a row merged into one label (mergedText,
// Descriptor.Label): "Dora · See you · 12.04".
const RowTextSep = " · "

// RowTextLen is the most runes a merged row label keeps.
const RowTextLen = 80

// RowName is the first text of a label that merged a row's texts (before
// RowTextSep), trimmed: a row's name without its preview, date or size,
// which change ("Dora · See you · 12.04" is "Dora"); a label of one text is
// itself. A first text that begins with a digit is a count, size, date or
// position an app put before the name ("6 items · Scans", "3 · Intro ·
// 02:10"): the name is the first text after it that does not, when there
// is one. A time of day alone names its row ("7:00 am · Mon, Tue": an
// alarm).
func RowName(label string) string {
	parts := strings.Split(label, RowTextSep)
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" && (!unicode.IsDigit([]rune(p)[0]) || timeOfDay.MatchString(p)) {
			return p
		}
	}
	return strings.TrimSpace(parts[0])
}

// timeOfDay matches a text that is only a clock time: "7:00 am", "19:30".
var timeOfDay = regexp.MustCompile(`(?i)^\d{1,2}:\d{2}(\s?[ap]\.?m\.?)?$`)

// nearbyLabel finds a text label for an input field among its siblings:
// the closest non-interactive one with text before it (a form's "Title"
// above its box, "Filename" above the second box, not the first box's
// "Folder"), else the first such after it, else "".
func nearbyLabel(s *Snapshot, id int, keep []bool) string {
	n := s.Node(id)
	if n.Parent < 0 {
		return ""
	}
	before, after := "", ""
	seen := false
	for _, sib := range s.Nodes[n.Parent].Children {
		if sib == id {
			seen = true
			continue
		}
		m := s.Node(sib)
		if (keep != nil && !keep[sib]) || m.Interactive() || m.Label() == "" {
			continue
		}
		if !seen {
			before = m.Label()
		} else if after == "" {
			after = m.Label()
		}
	}
	return truncate(firstNonEmpty(before, after), 40)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// Render writes the compact text rendering used in prompts: one element a
// line, "[index] kind "label" attributes". Typical screens render to 1-3 kB
// against 20-80 kB of raw JSON.
func Render(elems []Element) string {
	var b strings.Builder
	for _, e := range elems {
		b.WriteString("[")
		b.WriteString(strconv.Itoa(e.Index))
		b.WriteString("] ")
		b.WriteString(e.Kind)
		if e.Label != "" {
			b.WriteString(" ")
			b.WriteString(strconv.Quote(truncate(e.Label, 80)))
		}
		if e.Kind == KindInput && e.Value != "" && e.Value != e.Label {
			b.WriteString(" value=")
			b.WriteString(strconv.Quote(truncate(e.Value, 60)))
		}
		if e.Hint != "" && e.Hint != e.Label {
			b.WriteString(" hint=")
			b.WriteString(strconv.Quote(e.Hint))
		}
		if e.Resource != "" {
			b.WriteString(" id=")
			b.WriteString(e.Resource)
		}
		if e.State != "" {
			b.WriteString(" state=")
			b.WriteString(strconv.Quote(truncate(e.State, 40)))
		}
		if e.Error != "" {
			b.WriteString(" error=")
			b.WriteString(strconv.Quote(truncate(e.Error, 80)))
		}
		for _, f := range []struct {
			on   bool
			name string
		}{{e.Kind == KindCheckbox && e.Checked, "checked"}, {e.Kind == KindCheckbox && !e.Checked, "unchecked"},
			{e.Password, "password"}, {e.Selected, "selected"}, {e.Focused, "focused"}, {e.Disabled, "disabled"}} {
			if f.on {
				b.WriteString(" ")
				b.WriteString(f.name)
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}
