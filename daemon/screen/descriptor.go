package screen

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sort"
	"strings"
)

// Descriptor identifies "the same element" across snapshots without bounds
// or indices: what a person would use to find it again (its resource-id,
// kind, label and hint), where it sits (the classes and resource-ids of its
// ancestors) and what is written around it (neighbouring labels). Ordinal
// breaks ties between elements whose other fields are all equal (two "OK"
// buttons) and is never used alone.
type Descriptor struct {
	ResourceID string   `json:"rid,omitempty"`
	Class      string   `json:"class,omitempty"`
	Text       string   `json:"text,omitempty"` // own text, or merged descendant text for a row
	Desc       string   `json:"desc,omitempty"`
	Hint       string   `json:"hint,omitempty"`
	Path       []string `json:"path,omitempty"` // ancestors, parent first: "Class#resource-name"
	Neighbors  []string `json:"near,omitempty"` // up to 4 nearby labels, sorted
	Editable   bool     `json:"editable,omitempty"`
	Checkable  bool     `json:"checkable,omitempty"`
	Scrollable bool     `json:"scrollable,omitempty"`
	Password   bool     `json:"password,omitempty"` // what is typed here is secret
	InList     bool     `json:"list,omitempty"`     // inside a repeated list item: text is content
	Ordinal    int      `json:"ord,omitempty"`
}

// maxPath bounds the ancestor path kept in a descriptor.
const maxPath = 8

// Describe builds the descriptor of node id (the zero Descriptor when id is
// out of range). Text of an input field is not part of its identity (it is
// what the user types), and password text is already gone. The first call
// on a snapshot describes all its nodes at once (O(nodes × depth)) and
// caches them with the snapshot's derived data; later calls are a copy.
func Describe(s *Snapshot, id int) Descriptor {
	if s.Node(id) == nil {
		return Descriptor{}
	}
	d := s.descriptors()[id]
	d.Path = append([]string(nil), d.Path...)
	d.Neighbors = append([]string(nil), d.Neighbors...)
	return d
}

// descriptors returns the cached descriptors of every node, and their keys.
func (s *Snapshot) descriptors() []Descriptor {
	c := s.analysis()
	c.descOnce.Do(func() { c.descs, c.keys = computeDescriptors(s, c.list) })
	return c.descs
}

func (s *Snapshot) descriptorKeys() []string {
	s.descriptors()
	return s.cache.keys
}

// computeDescriptors describes every node in O(nodes × (path + labels)):
// the merged texts, neighbour labels and ordinals are tabulated once
// instead of walking the tree per node, with the same results as
// Describe1, neighbors and the ordinal definition. Ordinal counts the
// earlier nodes with the same class, resource-id and Key.
func computeDescriptors(s *Snapshot, list []bool) ([]Descriptor, []string) {
	merged := mergedTexts(s)
	elems := make([]string, len(s.Nodes))
	for i := range s.Nodes {
		if len(s.Nodes[i].Children) > 0 { // only parents are path elements
			elems[i] = pathElem(&s.Nodes[i])
		}
	}
	near := make([]string, len(s.Nodes)) // neighbourLabel of each node, memoised
	done := make([]bool, len(s.Nodes))
	label := func(nid int) string {
		if !done[nid] {
			l := s.Nodes[nid].Label()
			if l == "" {
				l = merged[nid]
			}
			near[nid], done[nid] = truncate(MaskVolatile(l), 40), true
		}
		return near[nid]
	}
	firsts := map[int][]nearEntry{} // parent -> first distinct child labels
	descs := make([]Descriptor, len(s.Nodes))
	keys := make([]string, len(s.Nodes))
	seen := map[string]int{}
	for id := range s.Nodes {
		n := &s.Nodes[id]
		d := describe1(s, id, merged[id], elems)
		d.Checkable, d.Scrollable, d.Password = n.Checkable, n.Scrollable, n.Password
		d.InList = list[id]
		d.Neighbors = tabulatedNeighbors(s, id, label, firsts)
		keys[id] = d.Key()
		look := n.Class + "\x00" + n.ResourceID + "\x00" + keys[id]
		d.Ordinal = seen[look]
		seen[look]++
		descs[id] = d
	}
	return descs, keys
}

// mergedTexts returns mergedText(s, id, nil) of every node, built bottom-up:
// first[i] holds the first 3 labels of i's subtree as mergedText collects
// them (i included, none when i is clickable, editable or checkable).
func mergedTexts(s *Snapshot) []string {
	first := make([][]string, len(s.Nodes))
	out := make([]string, len(s.Nodes))
	for i := len(s.Nodes) - 1; i >= 0; i-- { // children follow parents
		n := &s.Nodes[i]
		var parts []string
		for _, c := range n.Children {
			for _, l := range first[c] {
				if len(parts) < 3 {
					parts = append(parts, l)
				}
			}
		}
		out[i] = truncate(strings.Join(parts, RowTextSep), RowTextLen)
		if n.Clickable || n.Editable || n.Checkable {
			continue
		}
		if l := n.Label(); l != "" {
			parts = append([]string{l}, parts...)
			if len(parts) > 3 {
				parts = parts[:3]
			}
		}
		first[i] = parts
	}
	return out
}

// nearEntry is one distinct neighbour label among a parent's children:
// the positions and IDs of its first two carriers (-1 when there is one).
type nearEntry struct {
	label     string
	pos1, id1 int
	pos2, id2 int
}

// tabulatedNeighbors is neighbors(s, id) from per-parent tables of the
// first 5 distinct child labels, each with its first two carriers: one
// child is excluded per level (id, or the child on the way to id), so at
// most one label moves to its second carrier, and the first 4 labels by
// position are always among those 5 — so the result is the same while a
// parent with many equal-labelled children costs O(children) once, not
// per child.
func tabulatedNeighbors(s *Snapshot, id int, label func(int) string, firsts map[int][]nearEntry) []string {
	var out []string // at most 4, so membership is a scan
	has := func(l string) bool {
		for _, o := range out {
			if o == l {
				return true
			}
		}
		return false
	}
	type cand struct {
		label string
		pos   int
	}
	for p, prev, hops := s.Nodes[id].Parent, id, 0; p >= 0 && hops < 2 && len(out) < 4; p, prev, hops = s.Nodes[p].Parent, p, hops+1 {
		entries, ok := firsts[p]
		if !ok {
			entries = firstLabels(s, p, label)
			firsts[p] = entries
		}
		var cands [5]cand
		nc := 0
		for _, e := range entries {
			switch {
			case e.id1 != id && e.id1 != prev:
				cands[nc] = cand{e.label, e.pos1}
			case e.id2 >= 0 && e.id2 != id && e.id2 != prev:
				cands[nc] = cand{e.label, e.pos2}
			default:
				continue
			}
			nc++
		}
		for i := 1; i < nc; i++ { // insertion sort by position: at most 5
			for j := i; j > 0 && cands[j].pos < cands[j-1].pos; j-- {
				cands[j], cands[j-1] = cands[j-1], cands[j]
			}
		}
		for _, c := range cands[:nc] {
			if len(out) >= 4 {
				break
			}
			if !has(c.label) {
				if out == nil {
					out = make([]string, 0, 4)
				}
				out = append(out, c.label)
			}
		}
	}
	sort.Strings(out)
	return out
}

// firstLabels lists the first 5 distinct non-empty labels of p's children
// with their first two carriers.
func firstLabels(s *Snapshot, p int, label func(int) string) []nearEntry {
	var entries []nearEntry
	index := map[string]int{}
	missing := 0 // entries without a second carrier
	for pos, c := range s.Nodes[p].Children {
		l := label(c)
		if l == "" {
			continue
		}
		if k, ok := index[l]; ok {
			if entries[k].id2 < 0 {
				entries[k].pos2, entries[k].id2 = pos, c
				missing--
			}
		} else if len(entries) < 5 {
			index[l] = len(entries)
			entries = append(entries, nearEntry{label: l, pos1: pos, id1: c, pos2: -1, id2: -1})
			missing++
		}
		if len(entries) == 5 && missing == 0 {
			break
		}
	}
	return entries
}

// Describe1 is Describe without neighbours and ordinal: the cheap part that
// Key depends on. It is not cached. Out of range ids give the zero
// Descriptor.
func Describe1(s *Snapshot, id int) Descriptor {
	if s.Node(id) == nil {
		return Descriptor{}
	}
	return describe1(s, id, "\x00", nil)
}

// describe1 is Describe1 of a valid id; merged is mergedText(s, id, nil)
// when known, else "\x00" to compute it when needed; elems, when not nil,
// holds every node's path element.
func describe1(s *Snapshot, id int, merged string, elems []string) Descriptor {
	n := &s.Nodes[id]
	d := Descriptor{ResourceID: n.ResourceID, Class: n.Class, Desc: strings.TrimSpace(n.ContentDesc), Hint: strings.TrimSpace(n.Hint), Editable: n.Editable}
	if !n.Editable {
		d.Text = strings.TrimSpace(n.Text)
		if d.Text == "" && d.Desc == "" {
			if merged == "\x00" {
				merged = mergedText(s, id, nil)
			}
			d.Text = merged
		}
	}
	// the first maxPath ancestors, parent first
	depth := 0
	for a := n.Parent; a >= 0 && depth < maxPath; a = s.Nodes[a].Parent {
		depth++
	}
	if depth > 0 {
		d.Path = make([]string, 0, depth)
	}
	for a := n.Parent; a >= 0 && len(d.Path) < maxPath; a = s.Nodes[a].Parent {
		if elems != nil {
			d.Path = append(d.Path, elems[a])
		} else {
			d.Path = append(d.Path, pathElem(&s.Nodes[a]))
		}
	}
	return d
}

// pathElem is a node as an element of a descriptor's Path.
func pathElem(n *Node) string { return n.ShortClass() + "#" + n.ResourceName() }

// neighbors collects the labels of the node's siblings and its parent's
// siblings (the texts a person reads next to it), up to 4, sorted.
func neighbors(s *Snapshot, id int) []string {
	return neighborsWith(s, id, func(nid int) string { return neighbourLabel(s, nid) })
}

// neighbourLabel is how node nid reads as a neighbour: its label or merged
// text, masked, at most 40 runes.
func neighbourLabel(s *Snapshot, nid int) string {
	l := s.Node(nid).Label()
	if l == "" {
		l = mergedText(s, nid, nil)
	}
	return truncate(MaskVolatile(l), 40)
}

func neighborsWith(s *Snapshot, id int, label func(int) string) []string {
	n := s.Node(id)
	var out []string
	seen := map[string]bool{}
	add := func(nid int) {
		if nid == id || len(out) >= 4 {
			return
		}
		if l := label(nid); l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	// prev is the child of p on the way to id: the one ancestor of id
	// among p's children
	for p, prev, hops := n.Parent, id, 0; p >= 0 && hops < 2 && len(out) < 4; p, prev, hops = s.Node(p).Parent, p, hops+1 {
		for _, c := range s.Node(p).Children {
			if c != id && c != prev {
				add(c)
			}
		}
	}
	sort.Strings(out)
	return out
}

// Key is a stable hex id (16 hex chars) of the descriptor's identity part:
// resource-id, class, masked label, hint and ancestor path. Two snapshots
// of the same screen give the same Key for the same element, unless a list
// item's content changed.
func (d Descriptor) Key() string {
	h := sha256.New()
	for _, p := range [...]string{d.ResourceID, d.Class, MaskVolatile(d.Text), MaskVolatile(d.Desc), d.Hint} {
		io.WriteString(h, p)
		h.Write([]byte{0})
	}
	for i, p := range d.Path { // strings.Join(d.Path, "/")
		if i > 0 {
			io.WriteString(h, "/")
		}
		io.WriteString(h, p)
	}
	h.Write([]byte{0})
	var sum [sha256.Size]byte
	return hex.EncodeToString(h.Sum(sum[:0])[:8])
}

// Label is the descriptor's human-readable label.
func (d Descriptor) Label() string {
	return firstNonEmpty(d.Text, d.Desc, d.Hint, ResourceName(d.ResourceID))
}

// Weights of ElementSimilarity; they sum to 1. Resource-id and label carry
// most identity; path and neighbours tell apart same-labelled elements.
const (
	wResource  = 0.30
	wLabel     = 0.30
	wClass     = 0.10
	wHint      = 0.05
	wPath      = 0.15
	wNeighbors = 0.10

	// listLabelCredit is the share of wLabel two list rows with different
	// content still earn. It must stay below 1 - wNeighbors/wLabel (2/3)
	// so that the row with the very label outscores another row whose
	// neighbours happen to agree better (the neighbours of a list row are
	// other rows' content, which scrolling changes).
	listLabelCredit = 0.5
)

// ElementSimilarity scores how likely a and b describe the same element, in
// [0, 1]. Differing non-empty resource-ids, or a differing input/checkable
// role, cap the score at 0.4, below any grounding threshold.
func ElementSimilarity(a, b Descriptor) float64 {
	score := 0.0
	switch {
	case a.ResourceID == b.ResourceID:
		score += wResource
	case a.ResourceID == "" || b.ResourceID == "":
		score += wResource / 3
	}
	la, lb := MaskVolatile(firstNonEmpty(a.Text, a.Desc)), MaskVolatile(firstNonEmpty(b.Text, b.Desc))
	switch {
	case la == lb:
		score += wLabel
	case a.InList && b.InList:
		score += wLabel * listLabelCredit // list content changes; the row is still "a row of that list"
	default:
		score += wLabel * TextSimilarity(la, lb)
	}
	if ShortClass(a.Class) == ShortClass(b.Class) {
		score += wClass
	}
	if a.Hint == b.Hint {
		score += wHint
	}
	score += wPath * pathSimilarity(a.Path, b.Path)
	score += wNeighbors * Jaccard(a.Neighbors, b.Neighbors)
	if (a.ResourceID != "" && b.ResourceID != "" && a.ResourceID != b.ResourceID) || a.Editable != b.Editable {
		score = min(score, 0.4)
	}
	return score
}

// ShortClass strips the package of a class name.
func ShortClass(c string) string {
	if i := strings.LastIndexByte(c, '.'); i >= 0 {
		return c[i+1:]
	}
	return c
}

func pathSimilarity(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	n := min(len(a), len(b))
	same := 0
	for i := 0; i < n && a[i] == b[i]; i++ {
		same++
	}
	return float64(same) / float64(max(len(a), len(b)))
}

// Jaccard is the Jaccard index of two string sets, in [0, 1] (1 when both
// are empty).
func Jaccard(a, b []string) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 1
	}
	set := map[string]int{}
	for _, x := range a {
		set[x] |= 1
	}
	for _, x := range b {
		set[x] |= 2
	}
	inter := 0
	for _, v := range set {
		if v == 3 {
			inter++
		}
	}
	return float64(inter) / float64(len(set))
}

// TextSimilarity compares two normalised strings by character-trigram Dice
// coefficient, in [0, 1].
func TextSimilarity(a, b string) float64 {
	if a == b {
		return 1
	}
	if a == "" || b == "" {
		return 0
	}
	ga, gb := trigrams(a), trigrams(b)
	inter := 0
	for g, ca := range ga {
		inter += min(ca, gb[g])
	}
	total := 0
	for _, c := range ga {
		total += c
	}
	for _, c := range gb {
		total += c
	}
	return 2 * float64(inter) / float64(total)
}

func trigrams(s string) map[string]int {
	r := []rune(" " + s + " ")
	m := map[string]int{}
	for i := 0; i+3 <= len(r); i++ {
		m[string(r[i:i+3])]++
	}
	if len(r) < 3 {
		m[string(r)]++
	}
	return m
}

// Match is a grounding result: the node and its similarity.
type Match struct {
	NodeID int
	Score  float64
}

// GroundThreshold is the similarity below which Ground finds no element:
// an equal resource-id and class alone (0.40) is not enough, a label or
// path must agree too.
const GroundThreshold = 0.55

// Ground finds the node of s that d describes: the most similar node, if
// its score reaches GroundThreshold. Bounds play no part. Ties (equal
// score) go to the node with d's Key whose ordinal among look-alikes equals
// d.Ordinal, else to any tied node with that ordinal, else to the
// d.Ordinal-th tied node, else to the first. ok is false when nothing is
// similar enough. Cost: one ElementSimilarity per candidate node, on
// descriptors cached with the snapshot.
func Ground(s *Snapshot, d Descriptor) (m Match, ok bool) {
	keep := Keep(s)
	descs := s.descriptors()
	best := Match{NodeID: -1}
	var ties []int
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if !keep[i] || n.Class == "" {
			continue
		}
		// cheap filter: differing resource-ids cap the score below the threshold
		if d.ResourceID != "" && n.ResourceID != "" && n.ResourceID != d.ResourceID {
			continue
		}
		sc := ElementSimilarity(d, descs[i])
		switch {
		case sc > best.Score+1e-9:
			best, ties = Match{NodeID: i, Score: sc}, []int{i}
		case sc > best.Score-1e-9 && best.NodeID >= 0:
			ties = append(ties, i)
		}
	}
	if best.NodeID < 0 || best.Score < GroundThreshold {
		return best, false
	}
	if len(ties) > 1 {
		best.NodeID = pickTie(s, d, ties)
	}
	return best, true
}

// pickTie chooses among equally similar nodes by d.Ordinal (see Ground).
func pickTie(s *Snapshot, d Descriptor, ties []int) int {
	descs, keys := s.descriptors(), s.descriptorKeys()
	key := d.Key()
	for _, t := range ties {
		if descs[t].Ordinal == d.Ordinal && keys[t] == key {
			return t
		}
	}
	for _, t := range ties {
		if descs[t].Ordinal == d.Ordinal {
			return t
		}
	}
	if d.Ordinal >= 0 && d.Ordinal < len(ties) {
		return ties[d.Ordinal]
	}
	return ties[0]
}
