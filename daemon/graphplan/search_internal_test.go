package graphplan

import (
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestSearchQuery: the query of a search said without quote marks is the
// word the app does not show, after the search verb (and its "for",
// "called"); the words the app shows before it say what kind of thing it
// is. Nothing when every word is one the app shows, when the object is an
// action, or a clause too long for a name.
func TestSearchQuery(t *testing.T) {
	shown := map[term]bool{}
	for _, w := range []string{"ledger", "entri", "@entry", "shelf", "contact", "@contact", "tab", "archiv"} {
		shown[term(w)] = true
	}
	known := func(tm term) bool { return shown[tm] }
	app := map[term]bool{"quillbook": true}
	for _, tc := range []struct {
		cmd, want string
		kind      []term
	}{
		{"search the quillbook app for plumber", "plumber", nil},
		{"can you find the entry plumber", "plumber", []term{"entri"}},
		{"look for an entry called zorbit review", "zorbit review", []term{"look", "entri"}},
		{"look up glimwick in the contacts tab", "glimwick", []term{"look"}},
		{"search my shelf for plumber and open it", "plumber", nil},
		{"find the ledger in the archive", "", nil},                       // every word one the app shows
		{"find and delete the plumber entry", "", nil},                    // an action, no query
		{"search for the very long odd plumber visit note list", "", nil}, // no name
		{"open the ledger", "", nil},                                      // no search
	} {
		u := intent.Understand(tc.cmd)
		q, kind, ok := searchQuery(tc.cmd, u, app, known)
		if got := map[bool]string{true: q.Text}[ok]; got != tc.want {
			t.Errorf("%q: query %q, want %q", tc.cmd, got, tc.want)
			continue
		}
		if ok && !slices.Equal(dropConcepts(kind), tc.kind) {
			t.Errorf("%q: kind %v, want %v", tc.cmd, kind, tc.kind)
		}
	}
}

// dropConcepts returns ts without the concept terms ("@entry").
func dropConcepts(ts []term) []term {
	return slices.DeleteFunc(slices.Clone(ts), func(t term) bool { return len(t) > 0 && t[0] == '@' })
}

// TestSearchQueryTyped: the query is a value the run types into the
// search field, the words saying what it names are no target, and typing
// it covers its own words, so the search ends there.
func TestSearchQueryTyped(t *testing.T) {
	known := func(tm term) bool { return tm == "entri" || tm == "@entry" }
	rs := newRunStateIn("can you find the entry plumber", "", known)
	if len(rs.values) != 1 || rs.values[0].text != "plumber" || !rs.values[0].query {
		t.Fatalf("values %+v, want the query plumber", rs.values)
	}
	if slices.ContainsFunc(rs.terms, func(ct cmdTerm) bool { return ct.t == "entri" }) {
		t.Errorf("terms %v: the query's kind is still a target", rs.terms)
	}
	rs.foldStep(daemon.StepRecord{Action: device.Input, OK: true, Text: "plumber", Target: screen.Descriptor{Hint: "Search", ResourceID: "org.example.quill:id/search_field", Editable: true}})
	if !rs.values[0].done || !rs.covered["plumber"] {
		t.Errorf("after typing: value %+v, covered %v", rs.values[0], rs.covered)
	}
	if plain := newRunState("can you find the entry plumber", ""); len(plain.values) != 0 {
		t.Errorf("with no graph to tell shown words: values %+v, want none", plain.values)
	}
}
