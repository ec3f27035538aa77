package screen

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
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
// of any app's screen.
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
		if !visible(s, nd) || s.Windows[nd.Window].Type == WindowInputMethod {
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
	return truncate(strings.Join(parts, " · "), 80)
}

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

// ---- volatile text ----

var (
	reDigits   = regexp.MustCompile(`\d+`)
	reVolatile = regexp.MustCompile(`(?i)\b(a\.?m\.?|p\.?m\.?|today|yesterday|tomorrow|` +
		`jan(uary)?|feb(ruary)?|mar(ch)?|apr(il)?|may|june?|july?|aug(ust)?|sep(t(ember)?)?|oct(ober)?|nov(ember)?|dec(ember)?|` +
		`mon(day)?|tue(s(day)?)?|wed(nesday)?|thu(rs(day)?)?|fri(day)?|sat(urday)?|sun(day)?)\b`)
)

// Normalize lower-cases s, folds whitespace and trims it.
func Normalize(s string) string {
	clean := true // already lower-case ASCII with single inner spaces
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return strings.Join(strings.FieldsFunc(strings.ToLower(s), unicode.IsSpace), " ")
		}
		if c >= 'A' && c <= 'Z' || asciiSpace(c) && (c != ' ' || i == 0 || i == len(s)-1 || asciiSpace(s[i+1])) {
			clean = false
		}
	}
	if clean {
		return s
	}
	// ASCII: the same as the Unicode path, in one pass
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if asciiSpace(c) {
			continue
		}
		if len(b) > 0 && asciiSpace(s[i-1]) {
			b = append(b, ' ')
		}
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		b = append(b, c)
	}
	return string(b)
}

// asciiSpace is unicode.IsSpace for ASCII bytes.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// MaskVolatile normalises s and replaces the parts that change while the
// screen stays the same — numbers (clock times, counters, dates, sizes),
// month and weekday names, am/pm — by '#'.
func MaskVolatile(s string) string {
	s = Normalize(s)
	if strings.ContainsRune(s, 'ſ') {
		// (?i) folds the long s (U+017F) onto 's', the only non-ASCII
		// letter that folds onto a letter of reVolatile: keep the
		// regexps' exact semantics for it.
		s = reDigits.ReplaceAllString(s, "#")
		return reVolatile.ReplaceAllString(s, "#")
	}
	return maskVolatileASCII(maskDigits(s))
}

// maskDigits replaces each run of ASCII digits by '#', as reDigits does.
func maskDigits(s string) string {
	i := strings.IndexAny(s, "0123456789")
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			if i == 0 || s[i-1] < '0' || s[i-1] > '9' {
				b.WriteByte('#')
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// maskVolatileASCII is reVolatile.ReplaceAllString(s, "#") for s without
// ASCII digits, upper-case ASCII or 'ſ', without the regexp engine. It
// scans bytes: bytes of multi-byte runes are never word bytes, as non-ASCII
// runes are not \w for RE2's ASCII \b. A match starts at a
// word boundary before a letter; "a.m."/"p.m." forms are tried first,
// longest first, as the regexp's greedy `\.?` does; other alternatives are
// whole words (the \b after them ends a run of letters and '_').
func maskVolatileASCII(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		if !isWordByte(s[i]) {
			i++
			continue
		}
		// i starts a run of word bytes: the only place a match can start
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		n := 0
		if s[i] == 'a' || s[i] == 'p' {
			n = matchMeridiem(s, i)
		}
		if n == 0 && volatileWords[s[i:j]] {
			n = j - i
		}
		if n == 0 {
			i = j
			continue
		}
		if last == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:i])
		b.WriteByte('#')
		i += n
		last = i
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// matchMeridiem matches `[ap]\.?m\.?\b` at i, trying the optional dots
// greedily as the regexp does; it returns the match length or 0.
func matchMeridiem(s string, i int) int {
	for _, dots := range [4][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
		j := i + 1
		if dots[0] {
			if j >= len(s) || s[j] != '.' {
				continue
			}
			j++
		}
		if j >= len(s) || s[j] != 'm' {
			continue
		}
		j++
		if dots[1] {
			if j >= len(s) || s[j] != '.' {
				continue
			}
			j++
		}
		if isWordByte(s[j-1]) != (j < len(s) && isWordByte(s[j])) { // \b
			return j - i
		}
	}
	return 0
}

// isWordByte is RE2's ASCII \w.
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// volatileWords are reVolatile's whole-word alternatives.
var volatileWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("today yesterday tomorrow jan january feb february mar march apr april may " +
		"jun june jul july aug august sep sept september oct october nov november dec december " +
		"mon monday tue tues tuesday wed wednesday thu thurs thursday fri friday sat saturday sun sunday") {
		m[w] = true
	}
	return m
}()

// ---- fingerprint ----

// Fingerprint is a screen's identity: a hex SHA-256 prefix (16 bytes) over
// its structure. It ignores volatile text (MaskVolatile), the text of input
// fields, the content of list items (children of a container whose
// children share one shape: their count and text), the keyboard and system
// windows, and bounds; it keeps the foreground activity, classes,
// resource-ids, the interactive flags and the labels of static elements.
// So a clock ticking or a list growing keeps the fingerprint, a dialog
// opening or a different settings page changes it.
func Fingerprint(s *Snapshot) string {
	toks := structureTokens(s)
	h := sha256.New()
	h.Write([]byte(activityName(s.Activity)))
	h.Write([]byte{0})
	for _, t := range toks {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func activityName(a string) string {
	if i := strings.IndexByte(a, '/'); i >= 0 {
		a = a[i+1:]
	}
	return a
}

// structureTokens returns the sorted, de-duplicated structural tokens of the
// screen: one per kept node, "depth|class|resource|flags|static text".
func structureTokens(s *Snapshot) []string { return s.analysis().toks }

func computeTokens(s *Snapshot, keep, listItem []bool) []string {
	set := map[string]bool{}
	for _, root := range s.Roots() {
		w := s.Windows[s.Nodes[root].Window]
		if w.Type != WindowApplication && w.Type != WindowUnknown {
			continue
		}
		s.Walk(root, func(n *Node, depth int) bool {
			if !keep[n.ID] {
				return false
			}
			set[nodeToken(n, depth, listItem[n.ID])] = true
			return true
		})
	}
	out := make([]string, 0, len(set))
	for t := range set {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

func nodeToken(n *Node, depth int, inList bool) string {
	var flags [5]byte
	for i, f := range []bool{n.Clickable, n.Editable, n.Checkable, n.Scrollable, n.LongClickable} {
		flags[i] = '0'
		if f {
			flags[i] = '1'
		}
	}
	text := ""
	if !n.Editable && !inList {
		text = MaskVolatile(firstNonEmpty(n.Text, n.ContentDesc))
		if len(text) > 60 {
			text = text[:60]
		}
	}
	return strconv.Itoa(depth) + "|" + n.ShortClass() + "|" + n.ResourceName() + "|" + string(flags[:]) + "|" + text
}

// listItems marks nodes inside repeated list items: for every container
// with two or more kept children of the same shape (class, resource-id and
// the shapes of their subtrees, text ignored), those children and their
// subtrees are list items.
func listItems(s *Snapshot, keep []bool) []bool {
	shape := make([]string, len(s.Nodes))
	for i := len(s.Nodes) - 1; i >= 0; i-- {
		n := &s.Nodes[i]
		var b strings.Builder
		b.WriteString(n.ShortClass())
		b.WriteByte('#')
		b.WriteString(n.ResourceName())
		b.WriteByte('(')
		for _, c := range n.Children {
			if keep[c] {
				b.WriteString(shape[c])
				b.WriteByte(',')
			}
		}
		b.WriteByte(')')
		sh := b.String()
		if len(sh) > 64 { // bound the memory of deep trees
			sum := sha256.Sum256([]byte(sh))
			sh = hex.EncodeToString(sum[:8])
		}
		shape[i] = sh
	}
	// kept children of each parent per shape, counted once per parent
	counts := map[int]map[string]int{}
	in := make([]bool, len(s.Nodes))
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if n.Parent >= 0 && in[n.Parent] {
			in[i] = true
			continue
		}
		if n.Parent < 0 || !keep[i] {
			continue
		}
		c, ok := counts[n.Parent]
		if !ok {
			c = map[string]int{}
			for _, sib := range s.Nodes[n.Parent].Children {
				if keep[sib] {
					c[shape[sib]]++
				}
			}
			counts[n.Parent] = c
		}
		in[i] = c[shape[i]] >= 2
	}
	return in
}

// Similarity compares two screens' structures: the Jaccard index of their
// structural tokens, in [0, 1], 1 for the same fingerprint's structure.
// Activities that differ (both known) cap it at 0.5.
func Similarity(a, b *Snapshot) float64 {
	ta, tb := structureTokens(a), structureTokens(b)
	sim := jaccardSorted(ta, tb)
	if a.Activity != "" && b.Activity != "" && activityName(a.Activity) != activityName(b.Activity) {
		sim = min(sim, 0.5)
	}
	return sim
}

func jaccardSorted(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	inter := CommonSorted(a, b)
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// CommonSorted counts the elements two sorted slices share (a merge walk;
// repeated elements count as often as both have them).
func CommonSorted[T cmp.Ordered](a, b []T) int {
	i, j, inter := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return inter
}
