package screen

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
)

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
