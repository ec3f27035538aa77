package graphplan

import (
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
)

// TestTheVerbLeftCompletes: once the run has reached the command's object
// and only its action is left, an element on screen doing that action
// completes the command, however little it weighs; not a path, not an
// element for another action, not while a word of the object or a value
// is still to do; the verb of a clause that says which thing ("the
// picture we took") is no such word.
func TestTheVerbLeftCompletes(t *testing.T) {
	for _, tc := range []struct {
		name    string
		cmd     string
		covered []term
		c       candidate
		want    bool
	}{
		{"the verb on screen", "get rid of the last picture", []term{"@last", "last", "@photo"},
			candidate{via: 0, score: 0.08, covers: []term{"@delete"}}, true},
		{"a path to it", "get rid of the last picture", []term{"@last", "last", "@photo"},
			candidate{via: 1, score: 0.08, covers: []term{"@delete"}}, false},
		{"another action", "get rid of the last picture", []term{"@last", "last", "@photo"},
			candidate{via: 0, score: 0.08, covers: []term{"@add"}}, false},
		{"the object not reached", "get rid of the last picture", []term{"@last", "last"},
			candidate{via: 0, score: 0.08, covers: []term{"@delete"}}, false},
		{"too weak", "get rid of the last picture", []term{"@last", "last", "@photo"},
			candidate{via: 0, score: 0.05, covers: []term{"@delete"}}, false},
		{"a value to type", "rename the newest clip to 'harbour'", []term{"@last", "last", "@photo", "photo"},
			candidate{via: 0, score: 0.08, covers: []term{"@edit"}}, false},
		{"a clause that says which", "get rid of the last picture we took", []term{"@last", "last", "@photo"},
			candidate{via: 0, score: 0.08, covers: []term{"@delete"}}, true},
		{"a word of the object left", "get rid of the last picture taken outdoors", []term{"@last", "last", "@photo"},
			candidate{via: 0, score: 0.08, covers: []term{"@delete"}}, false},
	} {
		rs := newRunState(tc.cmd, "")
		w := map[term]float64{}
		for _, ct := range rs.terms {
			w[ct.t] = 1
		}
		for _, t := range tc.covered {
			rs.covered[t] = true
		}
		if got := rs.completes(tc.c, w); got != tc.want {
			t.Errorf("%s: completes = %v, want %v (terms %v)", tc.name, got, tc.want, rs.terms)
		}
	}
}

// TestUnknownWordDoneByItsConcept: a word no element of the app carries
// is done when a step covered a concept of that very word ("make" of
// "make a page" by a tap on "New page", both create); a word with no
// concept a step covered ("rate") is still left.
func TestUnknownWordDoneByItsConcept(t *testing.T) {
	cases := []struct {
		name, command string
		steps         []daemon.StepRecord
		left          bool
	}{
		{"its concept covered", "make a page", []daemon.StepRecord{tapOn("New page")}, false},
		{"no concept of it covered", "rate the page", []daemon.StepRecord{tapOn("Page")}, true},
		{"another word's concept covered", "make a page and rate it", []daemon.StepRecord{tapOn("New page")}, true},
	}
	for _, tc := range cases {
		rs := newRunState(tc.command, "")
		rs.unknownW = map[term]float64{}
		for _, ct := range rs.terms {
			if !strings.HasPrefix(string(ct.t), "@") && ct.t != "page" {
				rs.unknownW[ct.t] = 1 // no element of the app carries the verbs
			}
		}
		for _, h := range tc.steps {
			rs.foldStep(h)
		}
		if got := rs.unknownLeft(); got != tc.left {
			t.Errorf("%s: unknownLeft %v, want %v (terms %v, covered %v)", tc.name, got, tc.left, rs.terms, rs.covered)
		}
	}
}
