package graphplan

import (
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestNumbersBelongToTheirSetting: on a settings list, the command's
// number is passed over in another row's summary (that row's current
// value) and on a switch (which holds no number), but not on the row it
// names, nor on a switch the command turns on, nor on one whose label
// carries the number.
func TestNumbersBelongToTheirSetting(t *testing.T) {
	s := screenOf(t, `	 {"id":1,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,200,1080,400],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":1,"class":"android.widget.TextView","text":"Reminder length","bounds":[40,220,900,300],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":1,"class":"android.widget.TextView","text":"5 minutes","bounds":[40,300,900,380],"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.LinearLayout","bounds":[0,400,1080,600],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":5,"parent":4,"class":"android.widget.TextView","text":"Nap time","bounds":[40,420,900,500],"enabled":true,"visible_to_user":true},
	 {"id":6,"parent":4,"class":"android.widget.TextView","text":"10 minutes","bounds":[40,500,900,580],"enabled":true,"visible_to_user":true},
	 {"id":7,"parent":0,"class":"android.widget.Switch","text":"Always use the same nap time","bounds":[0,600,1080,700],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":8,"parent":0,"class":"android.widget.Switch","text":"Ring 3 times","bounds":[0,700,1080,800],"checkable":true,"clickable":true,"enabled":true,"visible_to_user":true}`)
	els := screen.Elements(s)
	st := &daemon.PlanState{Screen: s, Elements: els, Print: "p"}
	at := byLabel(els)
	for _, tc := range []struct {
		cmd, label string
		want       string
	}{
		{"set the nap time to 5 minutes", "Reminder length · 5 minutes", "the command's number is another setting's current value here"},
		{"set the nap time to 5 minutes", "Nap time · 10 minutes", ""},
		{"set the reminder length to 5 minutes", "Reminder length · 5 minutes", ""},
		{"set the nap time to 5 minutes", "Always use the same nap time", "a switch holds no number, and the command gives one without asking to turn anything on or off"},
		{"turn on the same nap time for 5 alarms", "Always use the same nap time", ""},
		{"ring 3 times before stopping", "Ring 3 times", ""},
		{"use the same nap time", "Always use the same nap time", ""},
	} {
		rs := newRunState(tc.cmd, "")
		i, ok := at[tc.label]
		if !ok {
			t.Fatalf("no element %q among %v", tc.label, els)
		}
		// what the row's words cover of the command, as scoring finds it
		var covers []term
		for _, ct := range rs.terms {
			for _, lt := range termsOf(tc.label) {
				if ct.t == lt {
					covers = append(covers, ct.t)
				}
			}
		}
		if got := rs.passOver(st, candidate{action: device.Tap, element: i, covers: covers}, map[term]float64{}, 1); got != tc.want {
			t.Errorf("%q, %q: passed over because %q, want %q", tc.cmd, tc.label, got, tc.want)
		}
	}
}

// TestUnquotedValueNeedsAFittingField: an unquoted value is typed only into
// a field whose shown words (label, hint) fit the words before it; a
// resource-id sharing the command's object ("countdown_label" for "a
// countdown of 7:30") does not make a label field the place for a duration. A quoted
// value, or one the command gives as the field's, is typed.
func TestUnquotedValueNeedsAFittingField(t *testing.T) {
	field := &screen.Element{Kind: screen.KindInput, Label: "Label", Resource: "countdown_label"}
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{"start a countdown of 7:30", false},
		{"start a countdown with the label 7:30", true},
		{"start a countdown 'Tea'", true},
	} {
		rs := newRunState(tc.cmd, "")
		if got := rs.nextValueFor(field) >= 0; got != tc.want {
			t.Errorf("%q: a value for the label field = %v, want %v (values %+v)", tc.cmd, got, tc.want, rs.values)
		}
	}
}

// TestDatesAndClocksHoldNoBareNumber: a command's bare number ("a 1 minute
// reminder") is not found among the digits of a date or a clock time on
// screen, while a command's own date still finds a day of a date picker.
func TestDatesAndClocksHoldNoBareNumber(t *testing.T) {
	for _, tc := range []struct {
		cmd, label string
		want       bool
	}{
		{"set the reminder to 1 minute", "Reminder · 1 minute", true},
		{"set the reminder to 1 minute", "Mon, 1 Aug", false},
		{"set the reminder to 1 minute", "10:41 AM", false},
		{"move the party to march 30", "30", true},
		{"move the party to march 30", "Fri, 30 Mar", true},
		{"wake me at 6:30 am", "6:30 AM", true},
	} {
		rs := newRunState(tc.cmd, "")
		w := map[term]float64{}
		for _, ct := range rs.terms {
			w[ct.t] = 1
		}
		_, covers := rs.match(tc.label, termsOf(tc.label), semHit{}, w, -1)
		got := slices.ContainsFunc(covers, func(t term) bool { b, _ := bareOf(t); return isNumber(string(t)) || isNumber(string(b)) })
		if got != tc.want {
			t.Errorf("%q against %q: a number covered = %v (covers %v), want %v", tc.cmd, tc.label, got, covers, tc.want)
		}
	}
}

func TestContainsValue(t *testing.T) {
	for _, tc := range []struct {
		s, v string
		want bool
	}{
		{"Mon, 3 Aug", "3", true},
		{"1 minute", "1", true},
		{"10:37 AM", "3", false},
		{"Page 10", "1", false},
		{"Page 10", "10", true},
		{"09:45", "9:45", true},
		{"19:45", "9:45", false},
		{"Shared", "share", true},
		{"Call Dora", "dora", true},
		{"", "1", false},
		{"1", "", false},
	} {
		if got := containsValue(tc.s, tc.v); got != tc.want {
			t.Errorf("containsValue(%q, %q) = %v, want %v", tc.s, tc.v, got, tc.want)
		}
	}
}
