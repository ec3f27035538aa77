package daemon

import (
	"slices"
	"strconv"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestChoiceSlots(t *testing.T) {
	cols := []string{"3 columns", "1 column", "2 columns", "4 columns", "5 columns"}
	theme := []string{"Light", "Dark", "System default"}
	views := []string{"Yearly view", "Monthly view", "Weekly view", "Daily view"}
	for _, tt := range []struct {
		name, command string
		labels        []string
		value         string // choiceValue at learn time
		pick          int    // pickByCommand at replay
	}{
		{"count", "change column count to 3", cols, "3", 0},
		{"other count", "change column count to 5", cols, "", 4},
		{"theme", "set the theme to light", theme, "light", 0},
		{"other theme", "make it dark", theme, "", 1},
		{"two options named: no slot", "change the view from monthly to yearly", views, "", -1},
		{"no option named", "set the theme to purple", theme, "", -1},
		{"too few options", "pick light", []string{"Light", "Dark"}, "", -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := choiceValue(tt.command, tt.labels); got != tt.value && tt.name != "other count" && tt.name != "other theme" {
				t.Errorf("choiceValue = %q, want %q", got, tt.value)
			}
			if got := pickByCommand(tt.labels, tt.command); got != tt.pick {
				t.Errorf("pickByCommand = %d, want %d", got, tt.pick)
			}
		})
	}
	f := &knowledge.Flow{Intent: "set the theme to {theme}", Steps: []knowledge.Step{{Action: "tap", Text: "{theme}", Choices: theme}}}
	if _, unknown := unknownChoice(f, "set the theme to purple", map[string]string{"theme": "purple"}); !unknown {
		t.Error("a command naming no known option must not replay the flow")
	}
	if _, unknown := unknownChoice(f, "set the theme to dark", map[string]string{"theme": "dark"}); unknown {
		t.Error("a known option was refused")
	}
}

// TestChoiceNamedByStemsAndNumbers: an option is named by stems and
// number words ("45 sec", "five"), by part of its words when no other
// option has them, and "dark blue" names "Dark blue", not "Dark".
func TestChoiceNamedByStemsAndNumbers(t *testing.T) {
	delay := []string{"45 seconds", "1 second", "5 seconds", "15 seconds", "1 hour", "Custom"}
	cols := []string{"5 per row", "1 per row", "2 per row", "3 per row", "4 per row"}
	theme := []string{"Light", "Sepia", "Dark", "Dark blue", "White"}
	for _, tt := range []struct {
		name, command string
		labels        []string
		value         string // choiceValue at learn time
		pick          int    // pickByCommand at replay
	}{
		{"part of the words, unique", "change the delay to 45 sec", delay, "45", 0},
		{"a stem", "delay it 1 seconds", delay, "", 1},
		{"a number word", "show five items per row", cols, "five", 0},
		{"a shared part names nothing", "delay it 1", delay, "", -1},
		{"all the words of one of two", "delay it 1 hour", delay, "", 4},
		{"the longer of two full matches", "make the theme dark blue", theme, "", 3},
		{"a word of another option too: no value", "from light to dark", []string{"Light", "Dark", "System default"}, "", -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := choiceValue(tt.command, tt.labels); got != tt.value {
				t.Errorf("choiceValue = %q, want %q", got, tt.value)
			}
			if got := pickByCommand(tt.labels, tt.command); got != tt.pick {
				t.Errorf("pickByCommand = %d, want %d", got, tt.pick)
			}
		})
	}
	if got := pickChoice(delay, "15"); got != 3 {
		t.Errorf("pickChoice(15) = %d, want 3", got)
	}
	if got := pickChoice(delay, "1"); got != -1 {
		t.Errorf("pickChoice(1) = %d, want -1 (1 second or 1 hour)", got)
	}
}

// TestPeersPreferTheRadioGroup: a dialog with two radio groups (sort by
// name / size / date, and ascending / descending) under one layout: an
// option's peers are its own group's when it has three or more, else the
// whole dialog's.
func TestPeersPreferTheRadioGroup(t *testing.T) {
	radio := func(text string, top int) string {
		return `<node text="` + text + `" class="android.widget.RadioButton" checkable="true" clickable="true" enabled="true" bounds="[0,` + strconv.Itoa(top) + `][500,` + strconv.Itoa(top+90) + `]"/>`
	}
	xml := `<?xml version="1.0"?><hierarchy rotation="0"><node class="android.widget.LinearLayout" bounds="[0,0][1080,1000]">` +
		`<node class="android.widget.RadioGroup" bounds="[0,0][1080,300]">` + radio("Name", 0) + radio("Size", 100) + radio("Date", 200) + `</node>` +
		`<node class="android.widget.RadioGroup" bounds="[0,400][1080,600]">` + radio("Ascending", 400) + radio("Descending", 500) + `</node>` +
		`</node></hierarchy>`
	s, err := screen.ParseUIAutomator([]byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	find := func(label string) *screen.Element {
		for _, el := range screen.Elements(s) {
			if el.Label == label {
				return &el
			}
		}
		t.Fatalf("no element %q", label)
		return nil
	}
	if got := peers(s, find("Size")); !slices.Equal(got, []string{"Size", "Name", "Date"}) {
		t.Errorf("peers(Size) = %q, want its own group", got)
	}
	if got := peers(s, find("Descending")); len(got) != 5 || got[0] != "Descending" {
		t.Errorf("peers(Descending) = %q, want the whole dialog (its group has 2)", got)
	}
	if v := choiceValue("sort by size in descending order", peers(s, find("Size"))); v != "size" {
		t.Errorf("choiceValue with the other group's word = %q, want size", v)
	}
}

// TestRunOnValue: a slot value that runs on over a date, time or number
// its example never had, at more than twice the example's words, has
// swallowed another requirement; a long value of the same kind as its
// example, or a short one, has not.
func TestRunOnValue(t *testing.T) {
	f := &knowledge.Flow{Name: "f", Intent: "add event {title}", Slots: []knowledge.Slot{{Name: "title", Example: "standup"}}}
	msg := &knowledge.Flow{Name: "m", Intent: "remind me at {when}", Slots: []knowledge.Slot{{Name: "when", Example: "7:30 on monday"}}}
	for _, tt := range []struct {
		name  string
		f     *knowledge.Flow
		value string
		want  bool
	}{
		{"a date and a reminder swallowed", f, "dinner with mom on july 14, remind me 30 min before", true},
		{"a long title without a date", f, "dinner with mom and the kids at grandma's", false},
		{"a short title with a number", f, "gym 2", false},
		{"a date where the example had one", msg, "8:15 on the first friday of june next year please", false},
		{"no value for the slot", f, "", false},
	} {
		slots := map[string]string{}
		if tt.value != "" {
			slots[tt.f.Slots[0].Name] = tt.value
		}
		if _, _, got := runOnValue(tt.f, slots); got != tt.want {
			t.Errorf("%s: runOnValue = %v, want %v", tt.name, got, tt.want)
		}
	}
}
