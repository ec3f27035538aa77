package graphplan

import (
	"slices"
	"strings"
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

// TestBareName: a name said bare for what the command creates is the run
// of words the app does not know right after the thing's noun, up to the
// clause's end; nothing when a word of the run is known or an action,
// when no known noun comes first, or when a stopword or number follows
// the noun.
func TestBareName(t *testing.T) {
	shown := map[term]bool{}
	for _, w := range []string{"entri", "@entry", "weekly", "ledger", "shelf", "favorit", "timer", "minut", "week", "sort", "@sort", "@add", "@save", "save"} {
		shown[term(w)] = true
	}
	known := func(tm term) bool { return shown[tm] || tm == "new" }
	for _, tc := range []struct{ cmd, want string }{
		{"new entry plumber", "plumber"},
		{"add entry: zorbit", "zorbit"},
		{"create a weekly entry glimwick and save it", "glimwick"},
		{"create a fortnightly entry glimwick", "glimwick"}, // a modifier the app does not know
		{"new entry glim wick that repeats every week", "glim wick"},
		{"new ledger plumber zorbit on friday", "plumber zorbit"},
		{"create a ledger plumber sorted by date", "plumber"},
		{"new ledger plumber, sorted by date", "plumber"},
		{"add zorbit to favorites", ""},             // no known noun before the name: an existing thing
		{"add a timer for 5 minutes", ""},           // a stopword after the noun
		{"new entry plumber shelf", ""},             // a known word inside the run
		{"new entry plumber delete", ""},            // an action word inside the run
		{"new entry a b c d e", ""},                 // too long for a name
		{"open entry plumber", ""},                  // nothing created
		{"create a ledger entry call the kids", ""}, // an action in the run
		{"new entry 42", ""},                        // a number, not a name
	} {
		u := intent.Understand(tc.cmd)
		v, ok := bareName(tc.cmd, u, known)
		if got := map[bool]string{true: v.Text}[ok]; got != tc.want {
			t.Errorf("bareName(%q) = %q, %v; want %q", tc.cmd, v.Text, ok, tc.want)
		}
		if ok && tc.cmd[v.Start:v.End] != v.Text {
			t.Errorf("bareName(%q): %q is not the command's text at [%d, %d)", tc.cmd, v.Text, v.Start, v.End)
		}
	}
	// the run types it as a name, as it would a quoted one
	rs := newRunStateIn("new entry plumber", "", known)
	if len(rs.values) != 1 || rs.values[0].text != "plumber" || !rs.values[0].names || !rs.values[0].quoted {
		t.Errorf("values of %q = %+v, want the name \"plumber\" to type", rs.cmd, rs.values)
	}
	if rs := newRunStateIn("new entry plumber", "", nil); len(rs.values) != 0 {
		t.Errorf("values of %q with no app words known = %+v, want none", rs.cmd, rs.values)
	}
}

// FuzzBareName: any command is read without a panic; a bare name is the
// command's own text at its offsets, of one to maxQueryWords words, none
// of them one the app knows.
func FuzzBareName(f *testing.F) {
	f.Add("create a weekly entry glimwick and save it")
	f.Add("new entry: zorbit, then open it")
	f.Add("add entry «plumber» 'x'")
	f.Add("new ledger  plumber\tzorbit on friday")
	f.Add("neu entry ünïcødé")
	shown := map[term]bool{"entri": true, "@entry": true, "ledger": true, "weekly": true, "save": true, "@save": true}
	known := func(tm term) bool { return shown[tm] }
	f.Fuzz(func(t *testing.T, cmd string) {
		v, ok := bareName(cmd, intent.Understand(cmd), known)
		if !ok {
			return
		}
		if v.Start < 0 || v.End > len(cmd) || v.Start >= v.End || cmd[v.Start:v.End] != v.Text {
			t.Fatalf("bareName(%q) = %+v: not the command's text at its offsets", cmd, v)
		}
		ws := strings.Fields(v.Text)
		if len(ws) == 0 || len(ws) > maxQueryWords {
			t.Fatalf("bareName(%q) = %q: %d words", cmd, v.Text, len(ws))
		}
		for _, tm := range termsOf(v.Text) {
			if !strings.HasPrefix(string(tm), "@") && known(tm) {
				t.Fatalf("bareName(%q) = %q holds %q, a word the app shows", cmd, v.Text, tm)
			}
		}
	})
}
