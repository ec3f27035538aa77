package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func desc(text string) screen.Descriptor { return screen.Descriptor{Text: text} }

func TestClosest1(t *testing.T) {
	for _, tc := range []struct {
		name string
		cos  []float64
		want int
	}{
		{"clear winner", []float64{0.30, 0.72, 0.55}, 1},
		{"too close to the next", []float64{0.70, 0.65}, -1},
		{"below SemLeast", []float64{0.35, 0.10}, -1},
		{"one text", []float64{0.50}, 0},
		{"none", nil, -1},
	} {
		if got := closest1(tc.cos); got != tc.want {
			t.Errorf("%s: closest1(%v) = %d, want %d", tc.name, tc.cos, got, tc.want)
		}
	}
}

func TestValueTerms(t *testing.T) {
	got := valueTerms(`play "Evening Song" and test2 at 50% volume`)
	for _, w := range []string{"evening", "song", "test2", "50"} {
		if !anyIn(termsOf(w), got) {
			t.Errorf("%q is a value of the command, not in %v", w, got)
		}
	}
	for _, w := range []string{"play", "volume"} {
		if anyIn(termsOf(w), got) {
			t.Errorf("%q is no value, in %v", w, got)
		}
	}
}

// nearestGraph: screen 1 holds a switch ("Show a word counter while
// editing", id 10) and an entry ("Text size", id 11) whose tap opens
// screen 2, a dialog offering "Small" and "Huge" (ids 20, 21); screen 3
// offers the layouts "Mosaic" and "Ledger" (ids 30, 31).
func nearestGraph() *appGraph {
	els := []knowledge.Element{
		{ID: 10, ScreenID: 1, Descriptor: desc("Show a word counter while editing")},
		{ID: 11, ScreenID: 1, Descriptor: desc("Text size")},
		{ID: 12, ScreenID: 1, Descriptor: screen.Descriptor{ResourceID: "com.example:id/settings_word_counter_holder"}},
		{ID: 20, ScreenID: 2, Descriptor: desc("Small")},
		{ID: 21, ScreenID: 2, Descriptor: desc("Huge")},
		{ID: 30, ScreenID: 3, Descriptor: desc("Mosaic")},
		{ID: 31, ScreenID: 3, Descriptor: desc("Ledger")},
	}
	kg := &knowledge.Graph{Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a"}, {ID: 2, Fingerprint: "b", Dialog: true}, {ID: 3, Fingerprint: "c", Dialog: true}},
		Elements: els, Transitions: []knowledge.Transition{{From: 1, To: 2, Action: "tap", ElementID: 11, Count: 1}}}
	return buildGraph(kg, nil)
}

func TestNearestCovers(t *testing.T) {
	g := nearestGraph()
	for _, tc := range []struct {
		name, cmd, nearest string
		want, not          []string // words whose terms must / must not be covered
	}{
		{"a rewording of the switch: its words are covered", "count my words as i type", "Show a word counter while editing",
			[]string{"count", "type"}, nil},
		{"an entry opening a dialog: not the options it offers", "make the text huge", "Text size",
			[]string{"make"}, []string{"huge"}},
		{"an entry leading to a value of the command covers nothing", "set the 'huge' text", "Text size",
			nil, []string{"set"}},
		{"values are never covered by meaning", "word counter on for 'notes 2'", "Show a word counter while editing",
			nil, []string{"notes", "2"}},
		{"a word that is another element's whole label is that element's", "count my words in a ledger", "Show a word counter while editing",
			[]string{"count"}, []string{"ledger"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := newRunState(tc.cmd, "")
			rs.nearest = tc.nearest
			got := map[term]bool{}
			for _, tm := range rs.nearestCovers(g, nil) {
				got[tm] = true
			}
			for _, w := range tc.want {
				if !anyIn(termsOf(w), got) {
					t.Errorf("%q not covered: %v", w, got)
				}
			}
			for _, w := range tc.not {
				if anyIn(termsOf(w), got) {
					t.Errorf("%q covered: %v", w, got)
				}
			}
		})
	}
	if next := g.offeredAfter("Text size"); !anyIn(termsOf("huge"), next) || anyIn(termsOf("counter"), next) {
		t.Errorf("offeredAfter(Text size) = %v, want the dialog's options only", next)
	}
	if !g.labelled["Show a word counter while editing"] || g.labelled[g.texts[12]] || g.texts[12] == "" {
		t.Errorf("labelled = %v (texts %q): want the label, not the row's resource-id words", g.labelled, g.texts[12])
	}
	if next := g.offeredAfter("Show a word counter while editing"); len(next) != 0 {
		t.Errorf("offeredAfter(switch) = %v, want none (no known transition)", next)
	}
}

func TestNamesApp(t *testing.T) {
	for _, tc := range []struct {
		text, app string
		want      bool
	}{
		{"Clock", "Clock", true},
		{"Simple Clock", "Simple Clock", true},
		{"Clock settings", "Clock", false},
		{"Rate us", "Clock", false},
		{"", "Clock", false},
	} {
		if got := newRunState("rate the app", tc.app).namesApp(tc.text); got != tc.want {
			t.Errorf("namesApp(%q) with app %q = %v, want %v", tc.text, tc.app, got, tc.want)
		}
	}
}

func TestOnlyNav(t *testing.T) {
	rs := newRunState("switch to the alarms tab", "")
	var nav, other []term
	for _, ct := range rs.terms {
		if ct.nav {
			nav = append(nav, ct.t)
		} else {
			other = append(other, ct.t)
		}
	}
	if len(nav) == 0 || len(other) == 0 {
		t.Fatalf("terms %+v: want a navigation word (tab) and another (alarms)", rs.terms)
	}
	if !rs.onlyNav(nav) || rs.onlyNav(append(nav, other[0])) {
		t.Errorf("onlyNav: %v should be navigation only, %v not", nav, append(nav, other[0]))
	}
}
