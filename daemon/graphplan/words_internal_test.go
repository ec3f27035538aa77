package graphplan

import (
	"slices"
	"testing"
)

// TestTermsOfActionPhrase: an action phrase counts by its concept; the
// words completing it are no terms of their own ("rid" of "get rid of"
// would be matched by meaning to some other "remove" button).
func TestTermsOfActionPhrase(t *testing.T) {
	ts := termsOf("get rid of the last picture")
	has := map[term]bool{}
	for _, tm := range ts {
		has[tm] = true
	}
	if !has["@delete"] || has["rid"] {
		t.Errorf("termsOf = %v, want @delete and no \"rid\"", ts)
	}
}

// TestSwitchesSomething: only words that turn something on or off and mean
// nothing else make a command one that must set a switch.
func TestSwitchesSomething(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want bool
	}{
		{"turn off dark mode", true},
		{"Enable read receipts", true},
		{"please disable autosave", true},
		{"switch on the flashlight", true},
		{"show the clock", false},
		{"hide the keyboard", false},
		{"turnover report", false},
		{"open the enabled list", false},
	} {
		if got := switchesSomething(tt.cmd); got != tt.want {
			t.Errorf("switchesSomething(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestParticiplesNameNoAction: a past participle before a noun describes
// a thing ("recorded clips", "deleted items"): no action concept of its
// own; the same word ending the text, or the verb itself, keeps it.
func TestParticiplesNameNoAction(t *testing.T) {
	for _, tc := range []struct {
		text    string
		concept term
		want    bool
	}{
		{"Play recorded clips", "@record", false},
		{"Show deleted notes", "@delete", false},
		{"Delete selected items", "@delete", true},
		{"Delete selected items", "@select", false},
		{"Recently deleted", "@delete", true},
		{"Record video", "@record", true},
		{"Deleted items deleted", "@delete", true},
	} {
		if got := slices.Contains(termsOf(tc.text), tc.concept); got != tc.want {
			t.Errorf("%q carries %s = %v, want %v (terms %v)", tc.text, tc.concept, got, tc.want, termsOf(tc.text))
		}
	}
}

// TestRenameIsATarget: "rename" is looked for as a label ("Rename" in a
// menu) as well as counted as an edit; "change" and "edit" only say that
// something changes.
func TestRenameIsATarget(t *testing.T) {
	for _, tc := range []struct {
		cmd, word string
		want      bool
	}{
		{"rename the last clip to 'dune'", "renam", true},
		{"change the last clip's title to 'dune'", "chang", false},
		{"edit the last clip's title", "edit", false},
	} {
		rs := newRunState(tc.cmd, "")
		got := slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool { return ct.t == term(tc.word) })
		edit := slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool { return ct.t == "@edit" })
		if got != tc.want || !edit {
			t.Errorf("%q: terms %v; want %q among them %v, and @edit", tc.cmd, rs.terms, tc.word, tc.want)
		}
	}
}

// TestNegatedToggle: a negated word that may turn something on or off
// ("don't show", "never allow") asks for a switch, and shows nothing; a
// negated action of another kind, or the word alone, does not; a
// negated view verb asks to show nothing.
func TestNegatedToggle(t *testing.T) {
	for _, tc := range []struct {
		cmd               string
		switches, viewing bool
	}{
		{"dont show the digits on the pad", true, false},
		{"never allow the jotter to ring", true, false},
		{"open the digits on the pad", false, true},
		{"don't delete the memo", false, false},
		{"turn off the chime", true, false},
	} {
		rs := newRunState(tc.cmd, "")
		if rs.switches != tc.switches || rs.viewing != tc.viewing {
			t.Errorf("%q: switches %v viewing %v, want %v %v", tc.cmd, rs.switches, rs.viewing, tc.switches, tc.viewing)
		}
	}
}
