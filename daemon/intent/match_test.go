package intent

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestRankPositives(t *testing.T) {
	m := NewMatcher(testFlows())
	for _, c := range positiveCases {
		t.Run(c.name, func(t *testing.T) {
			cs := m.Rank(c.cmd, c.pkg, 5)
			if len(cs) == 0 {
				t.Fatalf("%q: no candidates", c.cmd)
			}
			top := cs[0]
			if top.FlowID != c.want {
				t.Fatalf("%q: top flow %d (%.3f, %q), want %d; all %+v", c.cmd, top.FlowID, top.Score, top.Matched, c.want, cs)
			}
			if top.Score < DefaultThreshold {
				t.Errorf("%q: score %.3f below DefaultThreshold %.2f", c.cmd, top.Score, DefaultThreshold)
			}
			want := c.slots
			if want == nil {
				want = map[string]string{}
			}
			if !maps.Equal(top.Slots, want) {
				t.Errorf("%q: slots %v, want %v", c.cmd, top.Slots, want)
			}
			if len(top.Missing) > 0 {
				t.Errorf("%q: missing %v", c.cmd, top.Missing)
			}
			if len(cs) > 1 && cs[1].Score >= DefaultThreshold {
				t.Errorf("%q: runner-up flow %d also replayable (%.3f)", c.cmd, cs[1].FlowID, cs[1].Score)
			}
		})
	}
}

func TestRankNegatives(t *testing.T) {
	m := NewMatcher(testFlows())
	for _, c := range negativeCases {
		t.Run(c.name, func(t *testing.T) {
			cs := m.Rank(c.cmd, c.pkg, 40)
			for _, x := range cs {
				if c.want == 0 && x.Score >= DefaultThreshold {
					t.Errorf("%q: flow %d replayable (%.3f, matched %q, slots %v)", c.cmd, x.FlowID, x.Score, x.Matched, x.Slots)
				}
				if c.want != 0 && x.FlowID == c.want && x.Score >= DefaultThreshold {
					t.Errorf("%q: wrong flow %d replayable (%.3f, matched %q, slots %v)", c.cmd, x.FlowID, x.Score, x.Matched, x.Slots)
				}
			}
		})
	}
}

// TestCalibrationOfDefaultThreshold labels every candidate of every test
// command (right flow with right slots: correct; anything else: wrong) and
// checks DefaultThreshold against Calibrate on them.
func TestCalibrationOfDefaultThreshold(t *testing.T) {
	m := NewMatcher(testFlows())
	var ex []Example
	add := func(c matchCase, positive bool) {
		for _, x := range m.Rank(c.cmd, c.pkg, 40) {
			switch {
			case positive:
				// the wanted flow with the wanted slots is right; any other flow wrong
				ok := x.FlowID == c.want && len(x.Missing) == 0 && maps.Equal(x.Slots, orEmpty(c.slots))
				ex = append(ex, Example{Score: x.Score, Correct: ok})
			case c.want == 0 || x.FlowID == c.want:
				ex = append(ex, Example{Score: x.Score, Correct: false})
			}
			// other candidates of a negative case may be right (the opposite
			// flow for a polarity conflict): not labelled
		}
	}
	for _, c := range positiveCases {
		add(c, true)
	}
	for _, c := range negativeCases {
		add(c, false)
	}
	th, p, r := Calibrate(ex)
	t.Logf("%d examples: calibrated threshold %.3f (precision %.2f, recall %.2f); DefaultThreshold %.2f", len(ex), th, p, r, DefaultThreshold)
	if p < 1 {
		t.Errorf("no threshold separates the examples: precision %.2f", p)
	}
	tp, fp, pos := 0, 0, 0
	for _, e := range ex {
		if e.Correct {
			pos++
		}
		if e.Score >= DefaultThreshold {
			if e.Correct {
				tp++
			} else {
				fp++
			}
		}
	}
	if fp > 0 {
		t.Errorf("DefaultThreshold %.2f accepts %d wrong candidates", DefaultThreshold, fp)
	}
	if tp < pos {
		t.Errorf("DefaultThreshold %.2f rejects %d of %d correct candidates", DefaultThreshold, pos-tp, pos)
	}
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func TestRankPastCommandsAndExamples(t *testing.T) {
	tests := []struct {
		name  string
		flow  knowledge.Flow
		cmd   string
		ok    bool
		slots map[string]string
	}{
		{
			name: "past command wording with new values",
			flow: fl(1, "p", "send {message} to {contact}", sl("message", "hi", "contact", "Alice"), "text Alice saying 'hi'"),
			cmd:  "text Bob saying 'on my way'", ok: true, slots: slots("contact", "Bob", "message", "on my way"),
		},
		{
			name: "example repeated verbatim fills the slot",
			flow: fl(1, "p", "play {song} on shuffle", sl("song", "Morning Rain")),
			cmd:  "shuffle play Morning Rain", ok: true, slots: slots("song", "Morning Rain"),
		},
		{
			name: "example not repeated: no stale value",
			flow: fl(1, "p", "play {song} on shuffle", sl("song", "Morning Rain")),
			cmd:  "play on shuffle", ok: false,
		},
		{
			name: "literal flow without slots needs no values",
			flow: fl(1, "p", "clear all notifications", nil, "dismiss all notifications"),
			cmd:  "dismiss all notifications", ok: true, slots: map[string]string{},
		},
		{
			name: "template placeholder without a Slot entry",
			flow: fl(1, "p", "search for {query}", nil),
			cmd:  "search for cheap flights", ok: true, slots: slots("query", "cheap flights"),
		},
		{
			name: "another name than the flow's literal one",
			flow: fl(1, "p", "pin the chat with maria", nil, "pin the chat with Maria"),
			cmd:  "pin the chat with Pedro", ok: false,
		},
		{
			name: "the flow's literal name",
			flow: fl(1, "p", "pin the chat with maria", nil, "pin the chat with Maria"),
			cmd:  "pin the chat with Maria", ok: true, slots: map[string]string{},
		},
		{
			name: "number slot takes the number",
			flow: fl(1, "p", "set the volume to {number} percent", sl("number", "40")),
			cmd:  "set the volume to 75 percent", ok: true, slots: slots("number", "75"),
		},
		{
			name: "number slot does not take words",
			flow: fl(1, "p", "set the volume to {number} percent", sl("number", "40")),
			cmd:  "set the volume to maximum", ok: false,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewMatcher([]knowledge.Flow{tt.flow})
			cs := m.Rank(tt.cmd, "", 1)
			got := len(cs) > 0 && cs[0].Score >= DefaultThreshold
			if got != tt.ok {
				t.Fatalf("%q: replayable = %v, want %v (%+v)", tt.cmd, got, tt.ok, cs)
			}
			if tt.ok && !maps.Equal(cs[0].Slots, tt.slots) {
				t.Errorf("%q: slots %v, want %v", tt.cmd, cs[0].Slots, tt.slots)
			}
		})
	}
}

func TestMatcherAddRemove(t *testing.T) {
	m := NewMatcher(testFlows())
	if n := m.Len(); n != len(testFlows()) {
		t.Fatalf("Len = %d", n)
	}
	if !m.Remove(fNoteDarkOn) {
		t.Fatal("Remove of an indexed flow returned false")
	}
	if m.Remove(fNoteDarkOn) || m.Remove(999) {
		t.Fatal("Remove of an unknown flow returned true")
	}
	for _, c := range m.Rank("turn on dark mode", pkgNotes, 10) {
		if c.FlowID == fNoteDarkOn {
			t.Fatal("removed flow still ranked")
		}
	}
	// replace a flow by ID
	if err := m.Add(fl(fNoteSort, pkgNotes, "sort notes by title", nil)); err != nil {
		t.Fatal(err)
	}
	cs := m.Rank("sort notes by title", pkgNotes, 1)
	if len(cs) == 0 || cs[0].FlowID != fNoteSort || cs[0].Score < DefaultThreshold {
		t.Fatalf("replaced flow not matched: %+v", cs)
	}
	for _, c := range m.Rank("sort notes by date", pkgNotes, 10) {
		if c.Score >= DefaultThreshold {
			t.Fatalf("old version of a replaced flow still matches: %+v", c)
		}
	}
	if err := m.Add(knowledge.Flow{ID: 77, Package: "p", Intent: "  ", Commands: []string{"?!"}}); !errors.Is(err, ErrNoText) {
		t.Fatalf("Add of a flow without text: %v, want ErrNoText", err)
	}
}

func TestMatcherCompaction(t *testing.T) {
	var flows []knowledge.Flow
	for i := range 200 {
		flows = append(flows, fl(int64(i+1), "p", fmt.Sprintf("open the page number %d of the item%d list", i, i), nil))
	}
	m := NewMatcher(flows)
	for i := range 190 {
		m.Remove(int64(i + 1))
	}
	if m.Len() != 10 {
		t.Fatalf("Len = %d", m.Len())
	}
	cs := m.Rank("open the page number 195 of the item195 list", "p", 3)
	if len(cs) == 0 || cs[0].FlowID != 196 || cs[0].Score < DefaultThreshold {
		t.Fatalf("after compaction: %+v", cs)
	}
	for _, c := range cs {
		if c.FlowID <= 190 {
			t.Fatalf("removed flow %d ranked", c.FlowID)
		}
	}
}

func TestRankPackageFilterAndK(t *testing.T) {
	m := NewMatcher(testFlows())
	for _, c := range m.Rank("turn off dark mode", pkgSettings, 10) {
		if c.Package != pkgSettings {
			t.Fatalf("candidate of package %q for filter %q", c.Package, pkgSettings)
		}
	}
	if cs := m.Rank("turn on wifi", "", 2); len(cs) > 2 {
		t.Fatalf("k=2 gave %d", len(cs))
	}
	if cs := m.Rank("turn on wifi", "", 0); cs != nil {
		t.Fatalf("k=0 gave %v", cs)
	}
	if cs := NewMatcher(nil).Rank("turn on wifi", "", 3); cs != nil {
		t.Fatalf("empty matcher gave %v", cs)
	}
}

func TestMatcherConcurrent(t *testing.T) {
	m := NewMatcher(testFlows())
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				id := int64(1000 + g*100 + i)
				_ = m.Add(fl(id, "p", fmt.Sprintf("rename item %d", id), nil))
				_ = m.Rank("create a note titled x", "", 3)
				m.Remove(id)
			}
		}()
	}
	wg.Wait()
	if m.Len() != len(testFlows()) {
		t.Fatalf("Len = %d after concurrent adds and removes", m.Len())
	}
}

// TestScore: Score scores exactly the flows asked for, in that order,
// with the same score Rank gives, and keeps a flow sharing no word with
// the command (a score near 0) that Rank leaves out.
func TestScore(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "turn on dark mode"},
		{ID: 2, Package: "p", Intent: "send {message} to {contact}", Slots: []knowledge.Slot{{Name: "message", Example: "hi"}, {Name: "contact", Example: "Bob"}}},
		{ID: 3, Package: "q", Intent: "check the storage"},
	})
	cmd := "switch dark mode on"
	rank := m.Rank(cmd, "", 5)
	got := m.Score(cmd, []int64{3, 1, 99})
	if len(got) != 2 || got[0].FlowID != 3 || got[1].FlowID != 1 {
		t.Fatalf("Score = %+v; want flows 3 then 1 (99 unknown)", got)
	}
	if got[0].Score >= 0.1 {
		t.Errorf("flow 3 shares no word: score %.3f, want below 0.1", got[0].Score)
	}
	if len(rank) == 0 || rank[0].FlowID != 1 || rank[0].Score != got[1].Score {
		t.Errorf("Rank %+v and Score %+v disagree on flow 1", rank, got[1])
	}
	if slices.ContainsFunc(rank, func(c Candidate) bool { return c.FlowID == 3 }) {
		t.Errorf("Rank retrieved flow 3: %+v", rank)
	}
	if m.Score("", []int64{1}) != nil || m.Score(cmd, nil) != nil {
		t.Error("empty command or no ids: want nil")
	}
}

// TestExtraRequirementAndQuotedValues: a command asking for more than a
// flow does is not replayed on its words alone ("delete the browsing
// history of Bob" against "delete all browsing history"), while the same
// words without the extra requirement are; a quoted value is a slot's
// whole value, never part of a longer span; a value shaped like the
// slot's example is taken whole.
func TestExtraRequirementAndQuotedValues(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "delete all browsing history"},
		{ID: 2, Package: "p", Intent: "add a reminder titled {title} and save it",
			Slots:    []knowledge.Slot{{Name: "title", Example: "groceries"}},
			Commands: []string{"add a reminder titled 'groceries' and save it"}},
	})
	for _, tt := range []struct {
		cmd    string
		flow   int64
		replay bool
	}{
		{"delete all browsing history", 1, true},
		{"please delete all the browsing history", 1, true},
		{"um delete all the uh browsing history", 1, true}, // a dictated command's hesitations
		{"delete every browsing history", 1, true},
		{"okay so delete all browsing history", 1, true}, // a spoken opener
		{"delete the browsing history of Bob", 1, false},
		{"add a reminder titled 'dentist' and save it", 2, true},
	} {
		c := m.Score(tt.cmd, []int64{tt.flow})
		if len(c) != 1 || (c[0].Score >= DefaultThreshold) != tt.replay {
			t.Errorf("%q: %+v, want replay %v", tt.cmd, c, tt.replay)
		}
	}
	c := m.Score("add a reminder titled 'Dentist' on march 3 at 9 am with a sound, and save it", []int64{2})
	if v := c[0].Slots["title"]; v != "" && v != "Dentist" {
		t.Errorf("title = %q: a quoted value is the whole value or none of it", v)
	}
	// a value of the example's shape is the whole value: "10 minutes"
	// for "1 minute", not "10" and an extra "minutes"
	d := NewMatcher([]knowledge.Flow{{ID: 3, Package: "p", Intent: "set the screen timeout to {duration}",
		Slots: []knowledge.Slot{{Name: "duration", Example: "1 minute"}}}})
	c = d.Score("change the screen timeout to 10 minutes", []int64{3})
	if len(c) != 1 || c[0].Slots["duration"] != "10 minutes" || c[0].Score < DefaultThreshold {
		t.Errorf("%+v: want duration 10 minutes, replayed", c)
	}
}

// replayCase is a command scored against one flow: whether it replays,
// and the value of its one slot when it does ("" unchecked).
type replayCase struct {
	cmd    string
	flow   int64
	replay bool
	value  string
}

func checkReplays(t *testing.T, m *Matcher, cases []replayCase) {
	t.Helper()
	for _, tt := range cases {
		c := m.Score(tt.cmd, []int64{tt.flow})
		if len(c) != 1 || (c[0].Score >= DefaultThreshold) != tt.replay {
			t.Errorf("%q: %+v, want replay %v", tt.cmd, c, tt.replay)
			continue
		}
		for _, v := range c[0].Slots {
			if tt.value != "" && v != tt.value {
				t.Errorf("%q: value %q, want %q", tt.cmd, v, tt.value)
			}
		}
	}
}

// A value the flow names in quotes is the same value said without them:
// "'notebook'" against "notebook", "'weekly report'" against "weekly
// report", and the other way round; another value is still a literal
// the command does not name.
func TestQuotedLiteralUnquoted(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "rename the folder 'notebook' to {name}",
			Slots: []knowledge.Slot{{Name: "name", Example: "archive"}}},
		{ID: 2, Package: "p", Intent: "archive the list 'weekly report' now"},
		{ID: 3, Package: "p", Intent: "pin the chat with the group family trip"},
	})
	checkReplays(t, m, []replayCase{
		{"rename the notebook folder to Drafts", 1, true, "Drafts"},
		{"rename the folder 'notebook' to Drafts", 1, true, "Drafts"},
		{"rename the folder sketches to Drafts", 1, false, ""},
		{"archive the list weekly report now", 2, true, ""},
		{"archive the list weekly now", 2, false, ""},
		{"archive the list monthly report now", 2, false, ""},
		{"pin the chat with the group 'family trip'", 3, true, ""},
	})
}

// A short value (a name, a search term) ends before "then", "but" or a
// negation: the rest is another clause of the command, which the flow
// may not do. A longer free text may hold a negation.
func TestShortValueEndsAtClause(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "look up {term} and open it", Slots: []knowledge.Slot{{Name: "term", Example: "weather"}}},
		{ID: 2, Package: "p", Intent: "reply {text} to Bob", Slots: []knowledge.Slot{{Name: "text", Example: "see you at noon"}}},
		{ID: 3, Package: "p", Intent: "find {x} app and open it", Slots: []knowledge.Slot{{Name: "x", Example: "Weather"}}},
	})
	checkReplays(t, m, []replayCase{
		{"look up traffic then open it", 1, true, "traffic"},
		{"look up traffic but don't open it", 1, false, ""},
		{"reply don't be late to Bob", 2, true, "don't be late"},
		// a one-word value is not run on into a phrase when a shorter
		// reading aligns the rest
		{"hey open up the tides app from the search", 3, true, "tides"},
	})
}

// TestValueEdges: a value of several words begins with no particle of a
// phrasal verb ("look up clip7"), and a typed one not with the command's
// first word where the flow's pattern says words before it ("type moss in
// the search": the verb); a picked value may ("give ben a call").
func TestValueEdges(t *testing.T) {
	input := func(slot string) []knowledge.Step {
		return []knowledge.Step{{Action: "input", Text: "{" + slot + "}"}}
	}
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "search for the song {q} and play it", Slots: []knowledge.Slot{{Name: "q", Example: "tune1"}}, Steps: input("q")},
		{ID: 2, Package: "p", Intent: "search for the {folder} folder and open it", Slots: []knowledge.Slot{{Name: "folder", Example: "Camera"}}, Steps: input("folder")},
		{ID: 3, Package: "p", Intent: "call {contact}", Slots: []knowledge.Slot{{Name: "contact", Example: "Ada"}}},
	})
	for _, tc := range []struct {
		cmd  string
		flow int64
		bad  string // a value it must not take
	}{
		{"look up tune2 with the search and play it", 1, "up tune2"},
		{"type moss in the folder search and open it", 2, "type moss"},
	} {
		for _, c := range m.Score(tc.cmd, []int64{tc.flow}) {
			for _, v := range c.Slots {
				if v == tc.bad {
					t.Errorf("%q: value %q", tc.cmd, v)
				}
			}
		}
	}
	checkReplays(t, m, []replayCase{{"give ben a call", 3, true, ""}})
}

// TestCorrected: a word one edit from a flow word is written as that word
// in Candidate.Corrected, for a model that compares meanings; a command
// with no typo has none.
func TestCorrected(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{{ID: 1, Package: "p", Intent: "enable read receipts"}})
	for _, tt := range []struct{ cmd, want string }{
		{"turn on read reciepts please", "turn on read receipts please"},
		{"turn on read receipts", ""},
	} {
		if c := m.Score(tt.cmd, []int64{1}); len(c) != 1 || c[0].Corrected != tt.want {
			t.Errorf("%q: %+v, want corrected %q", tt.cmd, c, tt.want)
		}
	}
}

// TestPastCommandNames: a name the intent holds as a value is a value in
// the flow's past commands too, however they write it: a command that
// leaves it out is about another item.
func TestPastCommandNames(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{{ID: 1, Package: "p", Intent: "Archive Dana's chat",
		Commands: []string{"archive the whole chat with dana"}}})
	checkReplays(t, m, []replayCase{
		{"archive the whole chat with dana", 1, true, ""},
		{"archive the whole chat", 1, false, ""},
	})
	if c := m.Score("archive the whole chat", []int64{1}); len(c) != 1 || !slices.Contains(c[0].Vetoes, VetoLiteral) {
		t.Errorf("Score = %+v, want VetoLiteral", c)
	}
}
