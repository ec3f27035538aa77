package intent

import (
	"maps"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestVetoes checks the reasons Rank reports for the hard precision rules.
func TestVetoes(t *testing.T) {
	m := NewMatcher(testFlows())
	tests := []struct {
		cmd  string
		pkg  string
		flow int64
		want []string
	}{
		{"turn off dark mode", pkgNotes, fNoteDarkOn, []string{VetoOpposite, VetoAction}},
		{"show notifications on the lock screen", pkgSettings, fNoLockNotif, []string{VetoNegation}},
		{"convert from fahrenheit to celsius", pkgUnits, fConvert, []string{VetoRoles}},
		// what the flow changes from, not what it changes to
		{"convert celsius please", pkgUnits, fConvert, []string{VetoRoles, VetoOmitted}},
		{"convert to fahrenheit please", pkgUnits, fConvert, []string{VetoOmitted}},
		{"toggle dark mode", pkgNotes, fNoteDarkOn, []string{VetoOmitted, VetoPolarity}},
		{"create a note", pkgNotes, fNoteCreate, []string{VetoUnfilled}},
		{"turn on dark mode at 9 pm", pkgNotes, fNoteDarkOn, []string{VetoValue, VetoExtra}},
		{"add Bob to favorites", pkgContacts, fFavAlice, []string{VetoValue, VetoLiteral}},
		{"call Bob on speaker", pkgContacts, fCall, []string{VetoExtra}},
		{"set an alarm for 7 am every day", pkgClock, fAlarmSet, []string{VetoExtra}},
		{"sort only these files by size in ascending order", pkgFiles, fSortAsc, []string{VetoExtra}},
		{"sort these files by size in ascending order", pkgFiles, fSortAsc, nil},
		// rewordings: no veto
		{"turn on dark theme", pkgNotes, fNoteDarkOn, nil},
		{"turn on hide caller number", pkgSettings, fHideCaller, nil},
		{"enable dark mode", pkgNotes, fNoteDarkOn, nil},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			for _, c := range m.Rank(tt.cmd, tt.pkg, 40) {
				if c.FlowID != tt.flow {
					continue
				}
				if got := slices.Sorted(slices.Values(c.Vetoes)); !slices.Equal(got, slices.Sorted(slices.Values(tt.want))) {
					t.Errorf("vetoes %v (score %.3f), want %v", c.Vetoes, c.Score, tt.want)
				}
				return
			}
			t.Fatalf("flow %d not ranked", tt.flow)
		})
	}
}

// TestGreyZoneHoldsNoWrongCandidate: every wrong candidate of the labelled
// commands (as TestCalibrationOfDefaultThreshold labels them) that scores
// in [DefaultThreshold − GreyZone, DefaultThreshold) carries a veto, so no
// other evidence may promote it; and no right candidate carries one.
func TestGreyZoneHoldsNoWrongCandidate(t *testing.T) {
	m := NewMatcher(testFlows())
	floor := DefaultThreshold - GreyZone
	check := func(c matchCase, positive bool) {
		for _, x := range m.Rank(c.cmd, c.pkg, 40) {
			right := positive && x.FlowID == c.want && len(x.Missing) == 0 && maps.Equal(x.Slots, orEmpty(c.slots))
			wrong := !right && (positive || c.want == 0 || x.FlowID == c.want)
			if right && len(x.Vetoes) > 0 {
				t.Errorf("%q: right flow %d has vetoes %v", c.cmd, x.FlowID, x.Vetoes)
			}
			if wrong && x.Score >= floor && len(x.Vetoes) == 0 {
				t.Errorf("%q: wrong flow %d scores %.3f (grey zone from %.2f) with no veto (matched %q)", c.cmd, x.FlowID, x.Score, floor, x.Matched)
			}
		}
	}
	for _, c := range positiveCases {
		check(c, true)
	}
	for _, c := range negativeCases {
		check(c, false)
	}
}

// TestSwitchScopeAndExtraVetoes: on and off words read together ("turn on
// hide X" hides X), a command saying "all" against a flow picking one
// item, and a command naming things beyond a reworded verb.
func TestSwitchScopeAndExtraVetoes(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "turn on hide the weather widget"},
		{ID: 2, Package: "p", Intent: "disable showing the archive tab"},
		{ID: 3, Package: "p", Intent: "delete the last download"},
		{ID: 4, Package: "p", Intent: "record a voice memo"},
		{ID: 5, Package: "p", Intent: "temporarily show archived threads"},
	})
	for _, tt := range []struct {
		cmd  string
		flow int64
		want string // a veto the candidate must carry; "" none of the three
	}{
		{"show the weather widget", 1, VetoOpposite},
		{"hide the weather widget", 1, ""},
		{"show the archive tab", 2, VetoOpposite},
		{"turn off showing the archive tab", 2, ""},
		{"delete all downloads", 3, VetoLiteral},
		{"delete the last download", 3, ""},
		{"capture a voice memo in the car", 4, VetoExtra},
		{"capture a voice memo", 4, ""},
		{"always show archived threads", 5, VetoOpposite}, // how long it holds
		{"show the archived threads temporarily", 5, ""},
	} {
		c := m.Score(tt.cmd, []int64{tt.flow})
		if len(c) != 1 {
			t.Fatalf("%q: %+v", tt.cmd, c)
		}
		has := func(v string) bool { return slices.Contains(c[0].Vetoes, v) }
		if tt.want != "" && !has(tt.want) {
			t.Errorf("%q: vetoes %v, want %s", tt.cmd, c[0].Vetoes, tt.want)
		}
		if tt.want == "" && (has(VetoOpposite) || has(VetoLiteral) || has(VetoExtra)) {
			t.Errorf("%q: vetoes %v, want none of opposite, literal, extra", tt.cmd, c[0].Vetoes)
		}
	}
}

// TestScopeOfPastCommands: a flow that picks one item stays about one
// item in its past commands' patterns, which may not say "last".
func TestScopeOfPastCommands(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{{ID: 1, Package: "p", Intent: "delete the last download",
		Commands: []string{"delete the last download", "remove the download I just got"}}})
	c := m.Score("remove every download I got", []int64{1})
	if len(c) != 1 || !slices.Contains(c[0].Vetoes, VetoLiteral) {
		t.Errorf("%+v: want a literal veto (all downloads against the last one)", c)
	}
	if c := m.Score("remove the download I just got", []int64{1}); len(c) != 1 || len(c[0].Vetoes) > 0 {
		t.Errorf("%+v: a past command, no veto", c)
	}
}

// TestUnactedLiteral: a literal with digits that no step of the flow types
// or taps (the app filled it in) is no requirement; one a step acts on
// is, and another value in its place is still another value.
func TestUnactedLiteral(t *testing.T) {
	tap := func(label string) knowledge.Step {
		return knowledge.Step{Action: "tap", Target: screen.Descriptor{Text: label}}
	}
	typed := knowledge.Step{Action: "input", Text: "{width}"}
	m := NewMatcher([]knowledge.Flow{
		// the app computed the height from the width typed
		{ID: 1, Package: "p", Intent: "scale the newest scan to {width}:768", Slots: []knowledge.Slot{{Name: "width", Example: "1024"}},
			Steps: []knowledge.Step{tap("Newest scan"), tap("Scale"), typed, tap("OK")}},
		// the same literal, tapped as an option
		{ID: 2, Package: "p", Intent: "set the backup interval to 48 hours", Steps: []knowledge.Step{tap("Backup interval"), tap("48 hours")}},
		// the app's default file name, never typed
		{ID: 3, Package: "p", Intent: "save the log as 'log_2024_01_31.txt'", Steps: []knowledge.Step{tap("Save log"), tap("SAVE")}},
		// a flow with no steps keeps its literals
		{ID: 4, Package: "p", Intent: "scale the newest scan to {width}:768", Slots: []knowledge.Slot{{Name: "width", Example: "1024"}}},
		// a countdown the app starts at 07:30 (a time literal, zeros apart)
		{ID: 5, Package: "p", Intent: "start a countdown of 7:30", Steps: []knowledge.Step{tap("Countdown 07:30"), tap("Start")}},
	})
	for _, tt := range []struct {
		cmd   string
		flow  int64
		veto  string // a veto the candidate must carry
		never string // a veto it must not carry
	}{
		{"scale the newest scan to 800", 1, "", VetoLiteral},
		{"scale the newest scan to 800:600", 1, VetoValue, ""},
		{"set the backup interval", 2, VetoLiteral, ""},
		{"save the log", 3, "", VetoLiteral},
		{"scale the newest scan to 800", 4, VetoLiteral, ""},
		{"start a countdown", 5, VetoLiteral, ""},
	} {
		c := m.Score(tt.cmd, []int64{tt.flow})
		if len(c) != 1 {
			t.Fatalf("%q: %+v", tt.cmd, c)
		}
		if tt.veto != "" && !slices.Contains(c[0].Vetoes, tt.veto) {
			t.Errorf("%q against flow %d: vetoes %v, want %s", tt.cmd, tt.flow, c[0].Vetoes, tt.veto)
		}
		if tt.never != "" && slices.Contains(c[0].Vetoes, tt.never) {
			t.Errorf("%q against flow %d: vetoes %v, want no %s", tt.cmd, tt.flow, c[0].Vetoes, tt.never)
		}
	}
}

func TestCarriesDigits(t *testing.T) {
	for _, tt := range []struct {
		acted, v string
		want     bool
	}{
		{"countdown 07:30", "7:30", true},
		{"48 hours", "48", true},
		{"save log", "'log_2024_01_31.txt'", false},
		{"4 hours", "48", false},
		{"page 10", "0", false},
		{"", "7", false},
	} {
		if got := carriesDigits(tt.acted, tt.v); got != tt.want {
			t.Errorf("carriesDigits(%q, %q) = %v, want %v", tt.acted, tt.v, got, tt.want)
		}
	}
}

// TestReorderedClauses: a name the flow itself says (a file it opens) is
// that word of the flow wherever the command puts it, not the value of a
// slot that comes before it in the template ("open Budget.xlsx from the
// attic folder" against "go to {folder} folder and open Budget.xlsx").
func TestReorderedClauses(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{{ID: 1, Package: "p", Intent: "go to {folder} folder and open Budget.xlsx",
		Slots: []knowledge.Slot{{Name: "folder", Example: "attic"}}, Commands: []string{"go to 'attic' folder and open Budget.xlsx"}}})
	for _, cmd := range []string{"open Budget.xlsx from the attic folder", "in the attic folder open Budget.xlsx"} {
		c := m.Score(cmd, []int64{1})
		if len(c) != 1 || c[0].Slots["folder"] != "attic" || len(c[0].Vetoes) > 0 || c[0].Score < DefaultThreshold {
			t.Errorf("%q: %+v, want folder=attic, no veto, a replay", cmd, c)
		}
	}
	// another file in the flow's place is still another value
	if c := m.Score("open Forecast.xlsx from the attic folder", []int64{1}); len(c) != 1 || len(c[0].Vetoes) == 0 {
		t.Errorf("another file: %+v, want a veto", c)
	}
}

// TestDigitsAreNoTypo: names that differ in a digit are other items, not
// a typo of one another; a typo elsewhere still matches.
func TestDigitsAreNoTypo(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{{ID: 1, Package: "p", Intent: "play the clip intro7 from the library"}})
	if c := m.Score("play the clip intro8 from the library", []int64{1}); len(c) != 1 || !slices.Contains(c[0].FlowUnmatched, "intro7") {
		t.Errorf("intro8 for intro7: %+v, want intro7 left unmatched", c)
	}
	if c := m.Score("play the clip intro7 from the libary", []int64{1}); len(c) != 1 || len(c[0].FlowUnmatched) > 0 {
		t.Errorf("a typo: %+v, want every word matched", c)
	}
}

// TestDirectionsCompose: on/off words and negations are read together on
// each side; a command is contradicted only when the setting ends up the
// other way.
func TestDirectionsCompose(t *testing.T) {
	m := NewMatcher(testFlows())
	for _, tt := range []struct {
		cmd          string
		flow         int64
		contradicted bool
	}{
		{"don't show the caller id", fHideCaller, false},
		{"never show the caller id", fHideCaller, false},
		{"show the caller id", fHideCaller, true},
		{"don't hide the caller id", fHideCaller, true},
		{"turn off hide caller id", fHideCaller, true},
		{"hide notifications on the lock screen", fNoLockNotif, false},
		{"turn off notifications on the lock screen", fNoLockNotif, false},
		{"show notifications on the lock screen", fNoLockNotif, true},
		{"don't hide notifications on the lock screen", fNoLockNotif, true},
	} {
		t.Run(tt.cmd, func(t *testing.T) {
			for _, c := range m.Rank(tt.cmd, pkgSettings, 40) {
				if c.FlowID != tt.flow {
					continue
				}
				got := slices.ContainsFunc(c.Vetoes, func(v string) bool { return v == VetoOpposite || v == VetoNegation })
				if got != tt.contradicted {
					t.Errorf("vetoes %v, contradicted %v, want %v", c.Vetoes, got, tt.contradicted)
				}
				return
			}
			t.Fatalf("flow %d not ranked", tt.flow)
		})
	}
}

// TestPrefixOpposites: a word and its negation by "un" or "non" are
// opposites the vocabulary need not know ("follow the channel" against
// a flow that unfollows it); "dis" and "de" make no opposite ("display"
// is no "play").
func TestPrefixOpposites(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{
		{ID: 1, Package: "p", Intent: "unfollow the quilting channel"},
		{ID: 2, Package: "p", Intent: "mark the thread with Dora as unseen"},
		{ID: 3, Package: "p", Intent: "display the quilting channel"},
	})
	for _, tt := range []struct {
		cmd  string
		flow int64
		opp  bool
	}{
		{"follow the quilting channel", 1, true},
		{"unfollow the quilting channel", 1, false},
		{"mark the thread with Dora as seen", 2, true},
		{"play the quilting channel", 3, false},
	} {
		c := m.Score(tt.cmd, []int64{tt.flow})
		if len(c) != 1 {
			t.Fatalf("%q: %+v", tt.cmd, c)
		}
		if got := slices.Contains(c[0].Vetoes, VetoOpposite); got != tt.opp {
			t.Errorf("%q against flow %d: opposite veto %v, want %v (vetoes %v)", tt.cmd, tt.flow, got, tt.opp, c[0].Vetoes)
		}
	}
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"read", "unread", true}, {"Sync", "non-sync", false}, {"sync", "nonsync", true}, {"seen,", "Unseen", true},
		{"play", "display", false}, {"tail", "detail", false}, {"it", "unit", false}, {"read", "reread", false},
	} {
		if got := PrefixOpposite(tt.a, tt.b); got != tt.want {
			t.Errorf("PrefixOpposite(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestNegated: a negation counts however it is typed — with either
// apostrophe, without one, or as any "n't" contraction — and two cancel.
func TestNegated(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"do not show the clock", true},
		{"the week shouldn't start on monday", true},
		{"the week shouldnt start on monday", true},
		{"the week shouldn’t start on monday", true},
		{"alarms wouldnt ramp up", true},
		{"i cant stand the ticking, turn it off", true},
		{"don't never show it", false},
		{"show the clock", false},
		{"text 'I can't come'", false},
	} {
		if got := Negated(tc.text); got != tc.want {
			t.Errorf("Negated(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestLabelAsked: a command that says the name of a setting and nothing
// else asks to have it on, so it is the opposite of a flow that turns
// that setting off; said with "off", a negation or other words of the
// flow's own, it is not.
func TestLabelAsked(t *testing.T) {
	f := knowledge.Flow{ID: 1, Package: "p", Intent: "let the editor close without asking", Commands: []string{"let the editor close without asking"},
		Steps: []knowledge.Step{{Action: "tap", Target: screen.Descriptor{Text: "Settings"}},
			{Action: knowledge.StepSwitchOff, Target: screen.Descriptor{Text: "Ask before closing the editor", Checkable: true}}}}
	m := NewMatcherFor([]knowledge.Flow{f}, map[string]string{"p": "Penwork"})
	for _, tt := range []struct {
		cmd      string
		opposite bool
	}{
		{"ask before closing the editor", true},
		{"ask before closing the editor in the Penwork app", true},
		{"turn off ask before closing the editor", false},
		{"don't ask before closing the editor", false},
		{"let the editor close without asking", false},
	} {
		cands := m.Rank(tt.cmd, "p", 5)
		if len(cands) == 0 {
			t.Fatalf("%q: no candidate", tt.cmd)
		}
		if got := slices.Contains(cands[0].Vetoes, VetoOpposite); got != tt.opposite {
			t.Errorf("%q: vetoes %v, want the opposite veto %v", tt.cmd, cands[0].Vetoes, tt.opposite)
		}
	}
}

// TestModifiesBefore: a typed value said as the word before the flow's
// noun for it ("a chirp message") says what kind of thing it is, not
// what to type: the slot counts as unfilled. Said after the noun, or
// quoted, it is the value.
func TestModifiesBefore(t *testing.T) {
	f := knowledge.Flow{ID: 1, Package: "p", Intent: "send a text message {body} to Ada", Commands: []string{`send a text message "hello" to Ada`},
		Slots: []knowledge.Slot{{Name: "body", Example: "hello"}},
		Steps: []knowledge.Step{{Action: "tap", Target: screen.Descriptor{Text: "Ada"}}, {Action: "input", Text: "{body}"}}}
	m := NewMatcher([]knowledge.Flow{f})
	for _, tt := range []struct {
		cmd, want string // want: the value, "" unfilled
	}{
		{"send ada a chirp message", ""},
		{"send a text message good night to ada", "good night"},
		{"send ada a 'chirp' message", "chirp"},
	} {
		cands := m.Rank(tt.cmd, "p", 1)
		if len(cands) == 0 {
			t.Fatalf("%q: no candidate", tt.cmd)
		}
		if got := cands[0].Slots["body"]; got != tt.want || (tt.want == "") != slices.Contains(cands[0].Vetoes, VetoUnfilled) {
			t.Errorf("%q: body %q, vetoes %v; want %q", tt.cmd, got, cands[0].Vetoes, tt.want)
		}
	}
}

// TestOnBeforePoliteEnd: "on" read as the particle of "turn … on" also
// when a polite word in chat spelling ends the command ("pls", "thx"):
// the command asks the switch on, against a flow that turns it off.
func TestOnBeforePoliteEnd(t *testing.T) {
	f := knowledge.Flow{ID: 1, Package: "p", Intent: "silence the chime", Commands: []string{"silence the chime", "disable the chime"},
		Steps: []knowledge.Step{{Action: "tap", Target: screen.Descriptor{Text: "Settings"}},
			{Action: knowledge.StepSwitchOff, Target: screen.Descriptor{Text: "Chime", Checkable: true}}}}
	m := NewMatcher([]knowledge.Flow{f})
	for _, cmd := range []string{"turn the chime back on pls", "turn the chime back on thx", "turn the chime back on please"} {
		cands := m.Rank(cmd, "p", 1)
		if len(cands) == 0 {
			continue // no candidate at all: not replayed either
		}
		if len(cands[0].Vetoes) == 0 {
			t.Errorf("%q: score %.2f and no veto against the flow that turns it off", cmd, cands[0].Score)
		}
	}
}

// TestOppositeOfTheIntent: a word of the command that contradicts the
// flow's intent is an opposite even where a past command without that
// word matched best.
func TestOppositeOfTheIntent(t *testing.T) {
	m := NewMatcher([]knowledge.Flow{{ID: 1, Package: "p", Intent: "temporarily show archived threads",
		Commands: []string{"show archived threads"}}})
	for _, tt := range []struct {
		cmd  string
		want bool
	}{
		{"always show archived threads", true},
		{"show archived threads", false},
		{"temporarily show the archived threads", false},
	} {
		c := m.Score(tt.cmd, []int64{1})
		if len(c) != 1 {
			t.Fatalf("%q: %+v", tt.cmd, c)
		}
		if got := slices.Contains(c[0].Vetoes, VetoOpposite); got != tt.want {
			t.Errorf("%q: opposite %v (vetoes %v), want %v", tt.cmd, got, c[0].Vetoes, tt.want)
		}
	}
}
