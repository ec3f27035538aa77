package daemon

import (
	"maps"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestNamesInLowerCase: a word of the command that is, but for its
// capital, a name the app's flows picked from a list of content or typed
// into a slot is read with its capital — not an option of a group, not a
// name a flow writes in lower case, not a quoted value — and the slot
// values keep the owner's own spelling.
func TestNamesInLowerCase(t *testing.T) {
	row := screen.Descriptor{Class: "android.widget.LinearLayout", Text: "Dora · 555 0100", InList: true}
	radio := screen.Descriptor{Class: "android.widget.RadioButton", Text: "Sepia", Checkable: true, InList: true}
	flows := map[int64]*knowledge.Flow{
		1: {ID: 1, Package: "p", Intent: "call {contact}", Steps: []knowledge.Step{{Action: device.Tap, Target: row, Text: "{contact}", Choices: []string{"Dora · 555 0100", "Ezra · 555 0101", "June · 555 0102"}}}},
		2: {ID: 2, Package: "p", Intent: "tint the photo {tint}", Steps: []knowledge.Step{{Action: device.Tap, Target: radio, Text: "{tint}", Choices: []string{"Sepia", "Noir"}}}},
		3: {ID: 3, Package: "p", Intent: "search the log for {q}", Slots: []knowledge.Slot{{Name: "q", Example: "Orla"}}, Steps: []knowledge.Step{{Action: device.Input, Text: "{q}"}}},
		4: {ID: 4, Package: "p", Intent: "show the events of june"},
	}
	names := flowNames(flows, "p")
	for _, tc := range []struct{ cmd, want string }{
		{"find dora in the log", "find Dora in the log"},
		{"ezra's number", "Ezra's number"},
		{"search the log for orla", "search the log for Orla"},
		{"tint it sepia", "tint it sepia"},             // an option, no name
		{"events of june", "events of june"},           // a flow writes it in lower case
		{"text 'dora' to ezra", "text 'dora' to Ezra"}, // quoted: as written
		{"Dora is here", "Dora is here"},
	} {
		got, changed := readNames(tc.cmd, names)
		if got != tc.want || changed != (tc.want != tc.cmd) {
			t.Errorf("readNames(%q) = %q, %v; want %q", tc.cmd, got, changed, tc.want)
		}
	}
	slots := asWritten(map[string]string{"q": "Orla", "n": "Ezra's"}, "search the log for orla, see ezra's")
	if want := map[string]string{"q": "orla", "n": "ezra's"}; !maps.Equal(slots, want) {
		t.Errorf("asWritten = %v, want %v", slots, want)
	}
}

// TestWithoutPoliteEnds: a closing "pls" or "thanks" is no part of a
// name, but is of a message set apart after "saying" and of a value
// learned longer than a name.
func TestWithoutPoliteEnds(t *testing.T) {
	f := &knowledge.Flow{Slots: []knowledge.Slot{{Name: "name", Example: "beach"}, {Name: "body", Example: "see you at the dock"}}}
	for _, tt := range []struct {
		cmd      string
		in, want map[string]string
	}{
		{"rename it to dunes pls", map[string]string{"name": "dunes pls"}, map[string]string{"name": "dunes"}},
		{"rename it to dunes thanks", map[string]string{"name": "dunes thanks"}, map[string]string{"name": "dunes"}},
		{"rename it to pls", map[string]string{"name": "pls"}, map[string]string{"name": "pls"}},
		{"name it dunes saying thanks", map[string]string{"name": "thanks"}, map[string]string{"name": "thanks"}},
		{"text mia saying on my way thanks", map[string]string{"body": "on my way thanks"}, map[string]string{"body": "on my way thanks"}},
	} {
		if got := withoutPoliteEnds(f, tt.cmd, tt.in); !maps.Equal(got, tt.want) {
			t.Errorf("%q: %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestWithoutPossessive: a one-word name owning the word after it is
// typed without its "'s"; a value closing the command, of a longer slot
// or learned with its "'s" stays as said.
func TestWithoutPossessive(t *testing.T) {
	f := &knowledge.Flow{Slots: []knowledge.Slot{{Name: "name", Example: "Ada"}, {Name: "body", Example: "see you at the dock"}, {Name: "shop", Example: "Joe's"}}}
	for _, tt := range []struct {
		cmd      string
		in, want map[string]string
	}{
		{"find theo's number", map[string]string{"name": "theo's"}, map[string]string{"name": "theo"}},
		{"find Theo’s card", map[string]string{"name": "Theo’s"}, map[string]string{"name": "Theo"}},
		{"open the last note of theo's", map[string]string{"name": "theo's"}, map[string]string{"name": "theo's"}},
		{"find theo's and call", map[string]string{"name": "theo's"}, map[string]string{"name": "theo's"}},
		{"text mia saying theo's here", map[string]string{"body": "theo's"}, map[string]string{"body": "theo's"}},
		{"find mel's diner", map[string]string{"shop": "mel's"}, map[string]string{"shop": "mel's"}},
		{"find theo number", map[string]string{"name": "theo"}, map[string]string{"name": "theo"}},
	} {
		if got := withoutPossessive(f, tt.cmd, tt.in); !maps.Equal(got, tt.want) {
			t.Errorf("%q: %v, want %v", tt.cmd, got, tt.want)
		}
	}
}

// TestDigitsAsLearned: a number said in groups goes into a slot learned
// as one run of digits as one run; a slot learned otherwise, or a value
// with words or double separators, stays as said.
func TestDigitsAsLearned(t *testing.T) {
	f := &knowledge.Flow{Intent: "add {phone} as a contact", Slots: []knowledge.Slot{{Name: "phone", Example: "4155550100"}, {Name: "intl", Example: "+4930123456"}, {Name: "code", Example: "12-34"}}}
	for _, tt := range []struct {
		in, want map[string]string
	}{
		{map[string]string{"phone": "555 123 4567"}, map[string]string{"phone": "5551234567"}},
		{map[string]string{"phone": "07700-900123"}, map[string]string{"phone": "07700900123"}},
		{map[string]string{"intl": "+44 7700 900123"}, map[string]string{"intl": "+447700900123"}},
		{map[string]string{"phone": "5551234567"}, map[string]string{"phone": "5551234567"}},
		{map[string]string{"phone": "555  123"}, map[string]string{"phone": "555  123"}},
		{map[string]string{"phone": "555 ext 12"}, map[string]string{"phone": "555 ext 12"}},
		{map[string]string{"code": "55 12"}, map[string]string{"code": "55 12"}},
	} {
		if got := digitsAsLearned(f, "add it", tt.in); !maps.Equal(got, tt.want) {
			t.Errorf("%v: %v, want %v", tt.in, got, tt.want)
		}
	}
	// a text said, not a number given: as said
	for _, cmd := range []string{"new note with the text 555 0100", "add a note saying 555 0100", "note '555 0100'"} {
		in := map[string]string{"phone": "555 0100"}
		if got := digitsAsLearned(f, cmd, in); !maps.Equal(got, in) {
			t.Errorf("%q: %v, want it as said", cmd, got)
		}
	}
	memo := &knowledge.Flow{Intent: "write a memo that says {body}", Slots: []knowledge.Slot{{Name: "body", Example: "1234"}}}
	if got := digitsAsLearned(memo, "write a memo 12 34", map[string]string{"body": "12 34"}); got["body"] != "12 34" {
		t.Errorf("a slot after a saying word: %v, want it as said", got)
	}
}
