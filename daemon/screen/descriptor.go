package screen

import (
	"crypto/sha256"
	"encoding/hex"
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
	InList     bool     `json:"list,omitempty"` // inside a repeated list item: text is content
	Ordinal    int      `json:"ord,omitempty"`
}

// maxPath bounds the ancestor path kept in a descriptor.
const maxPath = 8

// Describe builds the descriptor of node id. Text of an input field is not
// part of its identity (it is what the user types), and password text is
// already gone.
func Describe(s *Snapshot, id int) Descriptor {
	n := s.Node(id)
	if n == nil {
		return Descriptor{}
	}
	d := Descriptor{ResourceID: n.ResourceID, Class: n.Class, Desc: strings.TrimSpace(n.ContentDesc),
		Hint: strings.TrimSpace(n.Hint), Editable: n.Editable, Checkable: n.Checkable, Scrollable: n.Scrollable}
	if !n.Editable {
		d.Text = strings.TrimSpace(n.Text)
		if d.Text == "" && d.Desc == "" {
			d.Text = mergedText(s, id, nil)
		}
	}
	for _, a := range s.Ancestors(id) {
		if len(d.Path) == maxPath {
			break
		}
		an := s.Node(a)
		d.Path = append(d.Path, an.ShortClass()+"#"+an.ResourceName())
	}
	d.InList = s.analysis().list[id]
	d.Neighbors = neighbors(s, id)
	// ordinal among nodes that look the same
	key := d.Key()
	for i := 0; i < id; i++ {
		if s.Nodes[i].Class == n.Class && s.Nodes[i].ResourceID == n.ResourceID && Describe1(s, i).Key() == key {
			d.Ordinal++
		}
	}
	return d
}

// Describe1 is Describe without neighbours and ordinal: the cheap part that
// Key depends on.
func Describe1(s *Snapshot, id int) Descriptor {
	n := s.Node(id)
	d := Descriptor{ResourceID: n.ResourceID, Class: n.Class, Desc: strings.TrimSpace(n.ContentDesc), Hint: strings.TrimSpace(n.Hint), Editable: n.Editable}
	if !n.Editable {
		d.Text = strings.TrimSpace(n.Text)
		if d.Text == "" && d.Desc == "" {
			d.Text = mergedText(s, id, nil)
		}
	}
	for _, a := range s.Ancestors(id) {
		if len(d.Path) == maxPath {
			break
		}
		an := s.Node(a)
		d.Path = append(d.Path, an.ShortClass()+"#"+an.ResourceName())
	}
	return d
}

// neighbors collects the labels of the node's siblings and its parent's
// siblings (the texts a person reads next to it), up to 4, sorted.
func neighbors(s *Snapshot, id int) []string {
	n := s.Node(id)
	var out []string
	seen := map[string]bool{}
	add := func(nid int) {
		if nid == id || len(out) >= 4 {
			return
		}
		l := s.Node(nid).Label()
		if l == "" {
			l = mergedText(s, nid, nil)
		}
		l = truncate(MaskVolatile(l), 40)
		if l != "" && !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	for p, hops := n.Parent, 0; p >= 0 && hops < 2 && len(out) < 4; p, hops = s.Node(p).Parent, hops+1 {
		for _, c := range s.Node(p).Children {
			if c != id && !isAncestor(s, c, id) {
				add(c)
			}
		}
	}
	sort.Strings(out)
	return out
}

func isAncestor(s *Snapshot, a, id int) bool {
	for _, x := range s.Ancestors(id) {
		if x == a {
			return true
		}
	}
	return false
}

// Key is a stable hex id (16 hex chars) of the descriptor's identity part:
// resource-id, class, masked label, hint and ancestor path. Two snapshots
// of the same screen give the same Key for the same element, unless a list
// item's content changed.
func (d Descriptor) Key() string {
	h := sha256.New()
	for _, p := range []string{d.ResourceID, d.Class, MaskVolatile(d.Text), MaskVolatile(d.Desc), d.Hint, strings.Join(d.Path, "/")} {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
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
		score += wLabel * 0.8 // list content changes; the row is still "a row of that list"
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
	score += wNeighbors * jaccard(a.Neighbors, b.Neighbors)
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

func jaccard(a, b []string) float64 {
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
// its score reaches GroundThreshold. Ties (equal score) go to the node
// whose ordinal among look-alikes equals d.Ordinal. ok is false when
// nothing is similar enough.
func Ground(s *Snapshot, d Descriptor) (m Match, ok bool) {
	keep := Keep(s)
	best := Match{NodeID: -1}
	var ties []int
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if !keep[i] || n.Class == "" {
			continue
		}
		// cheap filter: share at least the resource-id, the class or a label
		if d.ResourceID != "" && n.ResourceID != "" && n.ResourceID != d.ResourceID {
			continue
		}
		sc := ElementSimilarity(d, Describe(s, i))
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
		if d.Ordinal < len(ties) {
			best.NodeID = ties[d.Ordinal]
		}
	}
	return best, true
}
