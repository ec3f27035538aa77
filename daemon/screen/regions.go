package screen

import "strings"

// What a window or a field of a screen is: a dialog over the app, a
// document's body. Guesses from the tree alone, used by the sensitive-action
// policy's caller and the planners.

// IsBody reports whether input field e of s is a document's body: it
// shows text of its own (not its hint, not a password's dots) and scrolls
// or is at least BodyShare of the screen's height tall. Typing there
// (device.Input replaces a field's whole text) replaces what the owner
// wrote, which the sensitive-action policy and the graph planner guard.
func IsBody(s *Snapshot, e *Element) bool {
	if s == nil || e == nil || e.Kind != KindInput || e.Password {
		return false
	}
	v := strings.TrimSpace(e.Value)
	if v == "" || strings.EqualFold(v, strings.TrimSpace(e.Hint)) {
		return false
	}
	if n := s.Node(e.NodeID); n != nil && n.Scrollable {
		return true
	}
	return s.Height > 0 && float64(e.Bounds.Height()) >= BodyShare*float64(s.Height)
}

// BodyShare is the share of the screen's height from which a field with
// text is a document's body (IsBody): a note's or a message's editor, not
// a one-line or a few-line form field.
const BodyShare = 0.4

// IsDialog guesses whether the top of the screen is a dialog or popup: an
// application window whose root does not cover the screen (less than 90%
// of its width or 80% of its height).
func IsDialog(s *Snapshot) bool {
	roots := s.Roots()
	if len(roots) == 0 {
		return false
	}
	b := s.Node(roots[0]).Bounds
	return s.Width > 0 && s.Height > 0 && (b.Width() < s.Width*9/10 || b.Height() < s.Height*8/10)
}

// Writing reports whether the text of input field e is, for certain, what
// the owner wrote. A screen from the Android service ("device") reports a
// field's hint apart from its text, so any text is. A uiautomator dump or
// a DroidBot record shows a placeholder ("Start typing") as the field's
// text: there only a sentence's worth — WritingWords words or a line
// break — is taken for writing, a short text may be the placeholder.
func Writing(s *Snapshot, e *Element) bool {
	if s == nil || e == nil {
		return false
	}
	v := strings.TrimSpace(e.Value)
	switch {
	case v == "":
		return false
	case s.Source == "device":
		return true
	}
	return strings.ContainsAny(v, "\n\r") || len(strings.Fields(v)) >= WritingWords
}

// WritingWords is the fewest words a field's text has to be taken for the
// owner's writing where the screen's source does not tell a placeholder
// from text (Writing).
const WritingWords = 4

// Title guesses the title of the screen's top window: a node's pane title
// (API 28+) there, else its first text element within the top TitleBand
// of the window's height (a toolbar's title), "" when there is none or it
// is longer than MaxTitle characters (prose, not a title). It names the
// screen in the owner's questions ("… tap "Delete" on "Alice"").
func Title(s *Snapshot) string {
	roots := s.Roots()
	if len(roots) == 0 {
		return ""
	}
	top := s.Nodes[roots[0]].Window
	var title string
	s.Walk(roots[0], func(n *Node, _ int) bool {
		if title == "" && strings.TrimSpace(n.PaneTitle) != "" {
			title = strings.TrimSpace(n.PaneTitle)
		}
		return title == ""
	})
	if title == "" {
		b := s.Windows[top].Bounds
		if b.Empty() {
			b = s.Nodes[roots[0]].Bounds
		}
		for _, e := range Elements(s) {
			n := s.Node(e.NodeID)
			if n == nil || n.Window != top || e.Kind != KindText || strings.TrimSpace(e.Label) == "" {
				continue
			}
			if float64(e.Bounds[1]-b[1]) < TitleBand*float64(b.Height()) {
				title = strings.TrimSpace(e.Label)
			}
			break
		}
	}
	if len([]rune(title)) > MaxTitle {
		return ""
	}
	return title
}

// TitleBand is the share of a window's height, from its top, where its
// title sits (Title); MaxTitle the most characters a title has.
const (
	TitleBand = 0.15
	MaxTitle  = 60
)

// IsToggleClass reports whether a checkable view of class (full or short
// name) flips on its own — a switch, a check box, a toggle button — rather
// than being one option of a group (a radio button, a checked text in a
// single-choice list).
func IsToggleClass(class string) bool {
	c := strings.ToLower(ShortClass(class))
	return strings.Contains(c, "switch") || strings.Contains(c, "checkbox") || strings.Contains(c, "toggle")
}
