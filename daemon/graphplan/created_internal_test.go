// After the save of what the command creates: no setting, nothing
// created again, no tap that only does the creating word again.

package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestSettingAfterCreated: once the form of what the command creates was
// filled and saved, a switch or check box of the app is no part of it —
// unless the command sets something on or off; a radio button (an
// option), or the same switch before the save, is read as before.
func TestSettingAfterCreated(t *testing.T) {
	sw := screen.Descriptor{Class: "android.widget.Switch", Text: "Begin the fortnight on Tuesday", Checkable: true}
	radio := screen.Descriptor{Class: "android.widget.RadioButton", Text: "Fortnightly", Checkable: true}
	for _, tc := range []struct {
		name, command   string
		committed, want bool
		d               screen.Descriptor
	}{
		{"saved", "new entry plumber that repeats every fortnight", true, true, sw},
		{"not saved yet", "new entry plumber that repeats every fortnight", false, false, sw},
		{"an option", "new entry plumber that repeats every fortnight", true, false, radio},
		{"the command sets something on", "new entry plumber and turn on begin the fortnight on tuesday", true, false, sw},
		{"nothing created", "open entry plumber, every fortnight", true, false, sw},
	} {
		rs := newRunState(tc.command, "")
		rs.committed, rs.typed = tc.committed, 1
		if got := rs.settingAfterCreated(tc.d); got != tc.want {
			t.Errorf("%s: %q, %q: %v, want %v", tc.name, tc.command, tc.d.Label(), got, tc.want)
		}
	}
}

// TestCreatesAgain: once the form of what the command creates was saved
// and no value is left to type, an element whose label begins by creating
// something is no way on; one whose label only describes ("When
// created"), or the same before the save or with a value still to type,
// is read as before.
func TestCreatesAgain(t *testing.T) {
	for _, tc := range []struct {
		name, command, label string
		committed, want      bool
	}{
		{"saved", "add entry 'plumber' repeating every fortnight", "Add ledger birthdays", true, true},
		{"saved, a new one", "add entry 'plumber' repeating every fortnight", "New entry", true, true},
		{"describes", "add entry 'plumber' repeating every fortnight", "When created", true, false},
		{"not saved yet", "add entry 'plumber' repeating every fortnight", "Add ledger birthdays", false, false},
		{"a value left to type", "add entry 'plumber' and add item 'pipes'", "Add new items", true, false},
		{"nothing created", "open entry 'plumber'", "Add ledger birthdays", true, false},
	} {
		rs := newRunState(tc.command, "")
		rs.committed, rs.typed = tc.committed, 1
		if len(rs.values) > 0 {
			rs.values[0].done, rs.values[0].typed = true, true
		}
		if got := rs.createsAgain(tc.label); got != tc.want {
			t.Errorf("%s: %q, %q: %v, want %v", tc.name, tc.command, tc.label, got, tc.want)
		}
	}
}

// TestOnlyDoneVerb: a candidate covering nothing but the command's
// creating word, whose concept a step covered already ("add" once "New
// entry" was tapped), would create another thing; one covering another
// word too, before the concept was covered, or covering a commit's word
// ("save" after a dialog's OK) is read as before.
func TestOnlyDoneVerb(t *testing.T) {
	for _, tc := range []struct {
		name   string
		done   bool
		covers []term
		want   bool
	}{
		{"the verb alone, done by its concept", true, []term{"add"}, true},
		{"the verb and its concept, done", true, []term{"@add", "add"}, true},
		{"the verb and another word", true, []term{"add", "remind"}, false},
		{"the verb, not done yet", false, []term{"add"}, false},
		{"nothing", true, nil, false},
		{"a commit's word, its concept covered by a dialog's OK", true, []term{"save"}, false},
	} {
		rs := newRunState("add entry 'plumber' and remind me, then save it", "")
		if tc.done {
			rs.covered["@add"], rs.covered["@save"] = true, true
		}
		if got := rs.onlyDoneVerb(candidate{action: device.Tap, covers: tc.covers}); got != tc.want {
			t.Errorf("%s: covers %v: %v, want %v", tc.name, tc.covers, got, tc.want)
		}
	}
}
