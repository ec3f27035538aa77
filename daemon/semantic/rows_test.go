package semantic_test

import (
	"maps"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func row(label string) knowledge.Step {
	return knowledge.Step{Index: 0, Action: device.Tap, Target: screen.Descriptor{Text: label, InList: true}}
}

func TestRowNames(t *testing.T) {
	tap := func(label string) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: screen.Descriptor{Text: label}}
	}
	for _, tt := range []struct {
		name string
		flow knowledge.Flow
		want map[int]string
	}{
		{"a person's row", knowledge.Flow{Intent: "archive the thread with Dora", Steps: []knowledge.Step{row("Dora · See you · 12.05"), tap("Archive")}}, map[int]string{0: "Dora"}},
		{"a possessive name", knowledge.Flow{Intent: "pin Dora's thread", Steps: []knowledge.Step{row("Dora"), tap("Pin")}}, map[int]string{0: "Dora"}},
		{"a quoted file", knowledge.Flow{Intent: `share 'plan7' from the drafts`, Steps: []knowledge.Step{tap("Drafts"), row("plan7 · 2 kB")}}, map[int]string{1: "plan7"}},
		{"a word inside an action's label", knowledge.Flow{Intent: "mark it as Starred", Steps: []knowledge.Step{row("Mark as starred")}}, nil},
		{"a row bound to a slot", knowledge.Flow{Intent: "archive the thread with Dora", Steps: []knowledge.Step{{Action: device.Tap, Text: "{name}", Target: screen.Descriptor{Text: "Dora", InList: true}}}}, nil},
		{"a tap that is no list row", knowledge.Flow{Intent: "archive the thread with Dora", Steps: []knowledge.Step{tap("Dora")}}, nil},
		{"no name in the intent", knowledge.Flow{Intent: "open the first thread", Steps: []knowledge.Step{row("Dora")}}, nil},
	} {
		if got := semantic.RowNames(&tt.flow); !maps.Equal(got, tt.want) {
			t.Errorf("%s: RowNames = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestRebinds(t *testing.T) {
	f := &knowledge.Flow{Intent: "archive the thread with Dora", Steps: []knowledge.Step{row("Dora · See you · 12.05")}}
	for _, tt := range []struct {
		name    string
		command string
		c       intent.Candidate
		want    bool
	}{
		{"another name", "archive the thread with Eli", intent.Candidate{FlowUnmatched: []string{"dora"}, Vetoes: []string{intent.VetoValue, intent.VetoLiteral}}, true},
		{"the same name", "archive Dora's thread", intent.Candidate{FlowUnmatched: []string{"dora"}}, false},
		{"the name is not what differs", "archive the thread with Eli", intent.Candidate{FlowUnmatched: []string{"archive"}}, false},
		{"a contradicted candidate", "don't archive the thread with Eli", intent.Candidate{FlowUnmatched: []string{"dora"}, Vetoes: []string{intent.VetoNegation}}, false},
	} {
		if got := semantic.Rebinds(tt.command, tt.c, f); got != tt.want {
			t.Errorf("%s: Rebinds = %v, want %v", tt.name, got, tt.want)
		}
	}
	if semantic.Rebinds("archive the thread with Eli", intent.Candidate{FlowUnmatched: []string{"dora"}}, &knowledge.Flow{Intent: "open the first thread", Steps: []knowledge.Step{row("Dora")}}) {
		t.Error("a flow with no row picked by name rebinds nothing")
	}
}

func TestRowNamesOfItems(t *testing.T) {
	f := &knowledge.Flow{Intent: "open the clip intro7.ogg from recents", Steps: []knowledge.Step{
		{Action: device.Tap, Target: screen.Descriptor{Text: "Recents"}}, row("intro7.ogg · 2 MB")}}
	f.Steps[1].Index = 1
	if got, want := semantic.RowNames(f), map[int]string{1: "intro7.ogg"}; !maps.Equal(got, want) {
		t.Errorf("RowNames = %v, want %v (a name of letters and digits)", got, want)
	}
	// the command says the extension, not the name
	c := intent.Candidate{FlowUnmatched: []string{"intro7"}, Unmatched: []string{"intro8"}}
	if !semantic.Rebinds("open the clip intro8.ogg from recents", c, f) {
		t.Error("another clip: want Rebinds")
	}
}
