package semantic_test

import (
	"cmp"
	"context"
	"math"
	"sync/atomic"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/bert"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestDecideGuards covers the rules that keep a bridged rewording from
// replaying another value or another thing: a choice the flow taps, a
// substituted object word, a closer flow vetoed for its value, and the
// vetoes Config.Bridge lets embeddings overrule.
func TestDecideGuards(t *testing.T) {
	grey := th - 0.05
	// choice: a flow whose last tap picks an option of a group
	choice := func(id int64, intent, label string) *knowledge.Flow {
		return &knowledge.Flow{ID: id, Intent: intent, Package: "p", Steps: []knowledge.Step{
			{Action: "tap", Target: screen.Descriptor{Text: "Sort by"}},
			{Action: "tap", Target: screen.Descriptor{Text: label}, Options: []string{label, "Other"}},
		}}
	}
	// plain: a flow whose last tap is a setting's row or a button, no option
	plain := func(id int64, intent, label string, checkable bool) *knowledge.Flow {
		return &knowledge.Flow{ID: id, Intent: intent, Package: "p", Steps: []knowledge.Step{
			{Action: "tap", Target: screen.Descriptor{Text: "Settings"}},
			{Action: "tap", Target: screen.Descriptor{Text: label, Checkable: checkable}},
		}}
	}
	// toggle: a flow whose last tap is on a check box (no option of a group)
	toggle := func(id int64, intent, label string) *knowledge.Flow {
		return &knowledge.Flow{ID: id, Intent: intent, Package: "p", Steps: []knowledge.Step{
			{Action: "tap", Target: screen.Descriptor{Text: "Settings"}},
			{Action: "tap", Target: screen.Descriptor{Text: label, Class: "android.widget.CheckBox", Checkable: true}},
		}}
	}
	tests := []struct {
		name     string
		cfg      semantic.Config
		flows    []*knowledge.Flow
		cands    []intent.Candidate
		promoted int
		command  string // "" for "cmd please"; the fake embeds a text by its first word
	}{
		{"an unmatched flow word is a tapped choice", semantic.MiniLM,
			[]*knowledge.Flow{choice(1, "same sort by first name", "First name")},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"middle"}, FlowUnmatched: []string{"first"}}}, -1, ""},
		{"an unmatched flow word is the label of a checkable element", semantic.MiniLM,
			[]*knowledge.Flow{plain(1, "same sort by first name", "First name", true)},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"middle"}, FlowUnmatched: []string{"first"}}}, -1, ""},
		{"a word of a check box's label left out is a rewording", semantic.MiniLM,
			[]*knowledge.Flow{toggle(1, "same play a sound on key press", "Play a sound on key press")},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"typing"}, FlowUnmatched: []string{"press"}}}, 0,
			"cmd play a sound when typing keys"},
		{"a word of a check box's label swapped in place names a sibling", semantic.MiniLM,
			[]*knowledge.Flow{toggle(1, "same play a sound on key press", "Play a sound on key press")},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"hold"}, FlowUnmatched: []string{"press"}}}, -1,
			"cmd play a sound on key hold"},
		{"a word of a setting's label left out is a rewording", semantic.MiniLM,
			[]*knowledge.Flow{plain(1, "same wrap long lines", "Wrap long lines", false)},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"wide"}, FlowUnmatched: []string{"long"}}}, 0,
			"cmd wrap lines that are too wide"},
		{"a word of a setting's label swapped in place names a sibling setting", semantic.MiniLM,
			[]*knowledge.Flow{plain(1, "same wrap long lines", "Wrap long lines", false)},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"short"}, FlowUnmatched: []string{"long"}}}, -1,
			"cmd wrap short lines"},
		{"a word swapped in place at the label's start", semantic.MiniLM,
			[]*knowledge.Flow{plain(1, "same briefly show clock", "Briefly show clock", false)},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"always"}, FlowUnmatched: []string{"briefly"}}}, -1,
			"cmd always show clock"},
		{"an unmatched flow word that is no tapped label, a bridged veto", semantic.Config{Bridge: []string{intent.VetoAction}},
			[]*knowledge.Flow{choice(1, "same close the keyboard click", "Keyboard click")},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"disable"}, FlowUnmatched: []string{"close"}, Vetoes: []string{intent.VetoAction}}}, 0, ""},
		{"MiniLM bridges an omitted object word", semantic.MiniLM,
			[]*knowledge.Flow{plain(1, "same delete the list 'groceries'", "Delete list", false)},
			[]intent.Candidate{{FlowID: 1, Score: grey, FlowUnmatched: []string{"list"}, Vetoes: []string{intent.VetoOmitted}}}, 0, ""},
		{"MiniLM bridges no omitted action word", semantic.MiniLM,
			[]*knowledge.Flow{plain(1, "same search for the {q} list and open it", "Reading list", false)},
			[]intent.Candidate{{FlowID: 1, Score: grey, FlowUnmatched: []string{"search", "open"}, Vetoes: []string{intent.VetoOmitted}}}, -1, ""},
		{"MiniLM bridges an omitted verb that only opens or confirms", semantic.MiniLM,
			[]*knowledge.Flow{plain(1, "same open the scans folder and save", "Scans", false)},
			[]intent.Candidate{{FlowID: 1, Score: grey, FlowUnmatched: []string{"open", "save"}, Vetoes: []string{intent.VetoOmitted}}}, 0, ""},
		{"MiniLM bridges no omitted verb that does something", semantic.MiniLM,
			[]*knowledge.Flow{plain(1, "same rename the scans folder", "Scans", false)},
			[]intent.Candidate{{FlowID: 1, Score: grey, FlowUnmatched: []string{"rename"}, Vetoes: []string{intent.VetoOmitted}}}, -1, ""},
		{"an omitted requirement is not bridged by default", semantic.Config{},
			[]*knowledge.Flow{plain(1, "same delete the list 'groceries'", "Delete list", false)},
			[]intent.Candidate{{FlowID: 1, Score: grey, FlowUnmatched: []string{"list"}, Vetoes: []string{intent.VetoOmitted}}}, -1, ""},
		{"MiniLM bridges no veto", semantic.MiniLM,
			[]*knowledge.Flow{choice(1, "same close the keyboard click", "Keyboard click")},
			[]intent.Candidate{{FlowID: 1, Score: grey, Unmatched: []string{"disable"}, FlowUnmatched: []string{"close"}, Vetoes: []string{intent.VetoAction}}}, -1, ""},
		{"the action veto is not bridged by default", semantic.Config{},
			[]*knowledge.Flow{choice(1, "same close the keyboard click", "Keyboard click")},
			[]intent.Candidate{{FlowID: 1, Score: grey, Vetoes: []string{intent.VetoAction}}}, -1, ""},
		{"a substituted object word is not bridged with Bridge empty and no grounding", semantic.Config{Bridge: []string{}},
			[]*knowledge.Flow{choice(1, "same open the weather page", "Weather")},
			[]intent.Candidate{{FlowID: 1, Score: grey, Substituted: true}}, -1, ""},
		{"a substituted object word is bridged by default", semantic.Config{},
			[]*knowledge.Flow{choice(1, "same open the weather page", "Weather")},
			[]intent.Candidate{{FlowID: 1, Score: grey, Substituted: true}}, 0, ""},
		{"a closer flow vetoed for its value makes it ambiguous", semantic.MiniLM,
			[]*knowledge.Flow{choice(1, "close timer 5 minutes", "5 minutes"), choice(2, "same alarm 1 minute", "1 minute")},
			[]intent.Candidate{cand(1, grey), cand(2, 0.2, intent.VetoValue, intent.VetoLiteral)}, -1, ""},
		{"a closer flow the command contradicts does not", semantic.MiniLM,
			[]*knowledge.Flow{choice(1, "close turn on x", "X"), choice(2, "same turn off x", "X")},
			[]intent.Candidate{cand(1, grey), cand(2, 0.2, intent.VetoOpposite)}, 0, ""},
		{"an unmatched action word of a tapped button is not a choice", semantic.MiniLM,
			[]*knowledge.Flow{choice(1, "same change view", "Change view")},
			[]intent.Candidate{{FlowID: 1, Score: grey, FlowUnmatched: []string{"change"}}}, 0, ""},
		{"a slot stretched over words the alignment could not place", semantic.MiniLM,
			[]*knowledge.Flow{{ID: 1, Intent: "same open {app} via search", Package: "p", Slots: []knowledge.Slot{{Name: "app", Example: "Gallery"}}}},
			[]intent.Candidate{{FlowID: 1, Score: grey, Slots: map[string]string{"app": "uninstall the clock"}}}, -1, ""},
		{"a slot value as long as the example is not stretched", semantic.MiniLM,
			[]*knowledge.Flow{{ID: 1, Intent: "same send {message}", Package: "p", Slots: []knowledge.Slot{{Name: "message", Example: "see you at noon"}}}},
			[]intent.Candidate{{FlowID: 1, Score: grey, Slots: map[string]string{"message": "running late, sorry"}}}, 0, ""},
		{"MiniLM's grey zone reaches lexical 0.10", semantic.MiniLM,
			[]*knowledge.Flow{choice(1, "same x", "X")}, []intent.Candidate{cand(1, 0.11)}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			flows := map[int64]*knowledge.Flow{}
			for _, f := range tt.flows {
				flows[f.ID] = f
			}
			d := semantic.New(unit(&calls, vecs), nil, tt.cfg).Decide(context.Background(), cmp.Or(tt.command, "cmd please"), tt.cands, flows, th)
			if d.Promoted != tt.promoted || d.Err != nil {
				t.Errorf("promoted %d err %v (%s); want %d", d.Promoted, d.Err, d.Reason, tt.promoted)
			}
		})
	}
}

// TestTunedKeyIsTheLocalModel: the on-device model's vectors are keyed
// by bert.CacheKey (float32 weights) or bert.CacheKeyInt8, and semantic.New
// must find its tuned configuration under either key.
func TestTunedKeyIsTheLocalModel(t *testing.T) {
	var _ semantic.Embedder = (*bert.Model)(nil) // the on-device model is an Embedder
	for _, p := range []bert.Precision{bert.FP32, bert.Int8} {
		if _, ok := semantic.Tuned[p.CacheKey()]; !ok {
			t.Fatalf("no tuned configuration for %q", p.CacheKey())
		}
	}
	if bert.FP32.CacheKey() == bert.Int8.CacheKey() {
		t.Fatal("float32 and int8 vectors share a cache key")
	}
}

// TestMiniLMConfiguration: the configuration shipped for the on-device
// model is the one its documentation and the README describe (the
// agreement check was once documented but left at 0, that is off).
func TestMiniLMConfiguration(t *testing.T) {
	c, ok := semantic.Tuned["local:all-MiniLM-L6-v2"]
	if !ok {
		t.Fatal("no tuned configuration for the on-device model")
	}
	for _, tt := range []struct {
		name      string
		got, want float64
	}{
		{"MinCosine", c.MinCosine, 0.70},
		{"MinMargin", c.MinMargin, 0.05},
		{"MinAgree", c.MinAgree, 0.60},
		{"SuggestMinCosine", c.SuggestMinCosine, 0.55},
		{"Retrieve", float64(c.Retrieve), 5},
		{"MinorExtra", c.MinorExtra, 0.95},
		{"OfferFilled", c.OfferFilled, 0.70},
		{"VerbMinCosine", c.VerbMinCosine, 0.30},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

// TestMinorExtra: a candidate whose only veto is an extra requirement is
// promoted when the command without the words behind it means the same
// (Config.MinorExtra), not when they change it, nor when it fills a slot.
func TestMinorExtra(t *testing.T) {
	grey := th - 0.05
	extra := func(unmatched ...string) intent.Candidate {
		c := cand(1, grey, intent.VetoExtra)
		c.Unmatched = unmatched
		return c
	}
	slotted := extra("close")
	slotted.Slots = map[string]string{"x": "v"}
	for _, tt := range []struct {
		name    string
		command string
		c       intent.Candidate
		minor   float64
		want    bool
	}{
		{"the extra word changes nothing", "cmd close", extra("close"), 0.95, true},
		{"it changes the meaning", "cmd far", extra("cmd"), 0.95, false},
		{"the check is off", "cmd close", extra("close"), 0, false},
		{"the candidate fills a slot", "cmd close", slotted, 0.95, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			cfg := semantic.MiniLM
			cfg.MinorExtra = tt.minor
			d := semantic.New(unit(&calls, vecs), nil, cfg).Decide(context.Background(), tt.command, []intent.Candidate{tt.c}, flowsOf("same b"), th)
			if got := d.Promoted == 0; got != tt.want {
				t.Errorf("promoted %v, want %v (%s)", got, tt.want, d.Reason)
			}
		})
	}
}

// TestGroundSubstitution: under MiniLM a substituted object word is
// bridged unless a word of the command the flow lacks (or a word of a slot
// value) labels another element on the app's recorded screens, by its
// stem or as the acronym of a label.
func TestGroundSubstitution(t *testing.T) {
	grey := th - 0.05
	where := func(labels ...string) *knowledge.Goal { return &knowledge.Goal{Labels: labels} }
	// flow 1 sets the reminder delay on a settings screen; flow 2, of the same
	// app, went through an about screen; flow 3 is of another app
	flows := map[int64]*knowledge.Flow{
		1: {ID: 1, Package: "org.sample.planner", Intent: "same change the reminder delay to {n} min", Slots: []knowledge.Slot{{Name: "n", Example: "30"}},
			Steps: []knowledge.Step{
				{Action: "tap", Target: screen.Descriptor{Text: "Settings"}, Where: where("about", "settings")},
				{Action: "tap", Target: screen.Descriptor{Text: "Reminder wait · 10 minutes"}, Where: where("reminder wait · # minutes", "vibrate on alerts", "first day of week")},
				{Action: "tap", Target: screen.Descriptor{Text: "30 minutes"}, Choices: []string{"30 minutes", "1 hour", "Custom"}},
			}},
		2: {ID: 2, Package: "org.sample.planner", Intent: "far open the about page",
			Steps: []knowledge.Step{
				{Action: "tap", Target: screen.Descriptor{Text: "About"}, Where: where("about", "do not disturb", "send feedback", "planner",
					"note: some phones stop alarms in their battery saver; if reminders come late, allow the app to run in the background")},
				{Action: "tap", Target: screen.Descriptor{Text: "Licenses", Neighbors: []string{"Export data", "Licenses"}}, Where: where()},
			}},
		3: {ID: 3, Package: "other", Intent: "far sort by author", Steps: []knowledge.Step{{Action: "tap", Target: screen.Descriptor{Text: "Author"}, Where: where("author", "length")}}},
	}
	sub := func(unmatched []string, slots map[string]string) []intent.Candidate {
		return []intent.Candidate{{FlowID: 1, Score: grey, Substituted: true, Unmatched: unmatched, FlowUnmatched: []string{"delay"}, Slots: slots}}
	}
	numberedSub := func(unmatched, flowUnmatched []string) []intent.Candidate {
		c := sub(unmatched, nil)
		c[0].FlowUnmatched = flowUnmatched
		return c
	}
	tests := []struct {
		name     string
		cfg      semantic.Config
		cands    []intent.Candidate
		promoted int
	}{
		{"a word no screen shows is a rewording", semantic.MiniLM, sub([]string{"length"}, map[string]string{"n": "30"}), 0},
		{"a word another app shows does not count", semantic.MiniLM, sub([]string{"length"}, nil), 0},
		{"the word of another element on the flow's screen", semantic.MiniLM, sub([]string{"vibration"}, nil), -1},
		{"the word of an element another flow's screen shows", semantic.MiniLM, sub([]string{"feedback"}, nil), -1},
		{"the acronym of another element's label", semantic.MiniLM, sub([]string{"dnd"}, nil), -1},
		{"a menu row beside a tapped one (its neighbours)", semantic.MiniLM, sub([]string{"exports"}, nil), -1},
		{"another option of the flow's choice", semantic.MiniLM, sub([]string{"hour"}, nil), -1},
		{"a slot value with another element's word", semantic.MiniLM, sub(nil, map[string]string{"n": "30 vibrate"}), -1},
		{"the flow's own words and stop words", semantic.MiniLM, sub([]string{"minutes", "the", "reminder"}, nil), 0},
		{"the app's name in its package", semantic.MiniLM, sub([]string{"planner"}, nil), 0},
		{"a word of prose on a screen (a long note) names no element", semantic.MiniLM, sub([]string{"battery"}, nil), 0},
		{"a numbered name where the flow's command has another", semantic.MiniLM, numberedSub([]string{"clip4"}, []string{"go", "clip2"}), -1},
		{"a numbered name where the flow's lone word is a plain one", semantic.MiniLM, numberedSub([]string{"clip4"}, []string{"delay"}), 0},
		{"a count with its unit is no numbered name", semantic.MiniLM, numberedSub([]string{"24h"}, []string{"12h"}), 0},
		{"grounding off", func() semantic.Config { c := semantic.MiniLM; c.GroundSubstitution = false; return c }(), sub([]string{"length"}, nil), -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			d := semantic.New(unit(&calls, vecs), nil, tt.cfg).Decide(context.Background(), "cmd please", tt.cands, flows, th)
			if d.Promoted != tt.promoted || d.Err != nil {
				t.Errorf("promoted %d err %v (%s); want %d", d.Promoted, d.Err, d.Reason, tt.promoted)
			}
		})
	}
}

// TestVerbGap: a command beginning with a verb the vocabulary does not
// know, left unmatched against an action word of the flow, is promoted
// only when the two words alone are close in meaning (Config.VerbMinCosine)
// — not "exclude the folder" for "check the folder"; a first word that no
// article follows is no verb, and the check can be off.
func TestVerbGap(t *testing.T) {
	words := map[string][]float32{
		"cmd":    {1, 0},
		"same":   {1, 0},
		"record": {float32(math.Cos(0.3)), float32(math.Sin(0.3))},
		"delete": {float32(math.Cos(1.4)), float32(math.Sin(1.4))},
	}
	grey := th - 0.05
	withVerb := func(flowVerb string) intent.Candidate {
		c := cand(1, grey)
		c.Unmatched, c.FlowUnmatched = []string{"cmd"}, []string{flowVerb}
		return c
	}
	for _, tt := range []struct {
		name, command string
		c             intent.Candidate
		min           float64
		want          bool
	}{
		{"the verbs agree", "cmd the thing", withVerb("record"), 0.30, true},
		{"the verbs differ", "cmd the thing", withVerb("delete"), 0.30, false},
		{"no article after the first word: no verb", "cmd thing", withVerb("delete"), 0.30, true},
		{"the check is off", "cmd the thing", withVerb("delete"), 0, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			cfg := semantic.MiniLM
			cfg.VerbMinCosine = tt.min
			d := semantic.New(unit(&calls, words), nil, cfg).Decide(context.Background(), tt.command, []intent.Candidate{tt.c}, flowsOf("same b"), th)
			if got := d.Promoted == 0; got != tt.want {
				t.Errorf("promoted %v, want %v (%s)", got, tt.want, d.Reason)
			}
		})
	}
}

// TestOnlyTheAppShared: a grey-zone candidate that shares with the
// command nothing but the app's name, said as the app ("… of the Ticker
// app"), and words that only say to look, is not promoted; a command
// with a word of the flow's is, and so is one that names no app.
func TestOnlyTheAppShared(t *testing.T) {
	flows := map[int64]*knowledge.Flow{1: {ID: 1, Intent: "same open the ticker alarms", Package: "p",
		Steps: []knowledge.Step{{Action: "tap", Target: screen.Descriptor{Text: "Menu"}}, {Action: "tap", Target: screen.Descriptor{Text: "Alarms"}}}}}
	for _, tc := range []struct {
		name, cmd string
		unmatched []string
		want      int
	}{
		{"only the app's name", "cmd check the privacy policy of the ticker app", []string{"cmd", "privacy", "policy"}, -1},
		{"a word of the flow's too", "cmd check the alarms of the ticker app", []string{"cmd"}, 0},
		{"no mention of the app", "cmd check the privacy policy", []string{"cmd", "privacy", "policy"}, 0},
	} {
		var calls atomic.Int32
		c := intent.Candidate{FlowID: 1, Score: th - 0.05, Unmatched: tc.unmatched}
		d := semantic.New(unit(&calls, vecs), nil, semantic.MiniLM).DecideIn(context.Background(), tc.cmd,
			semantic.Input{Cands: []intent.Candidate{c}, Flows: flows, Threshold: th, Label: "Ticker"})
		if d.Promoted != tc.want || d.Err != nil {
			t.Errorf("%s: promoted %d err %v (%s); want %d", tc.name, d.Promoted, d.Err, d.Reason, tc.want)
		}
	}
}
