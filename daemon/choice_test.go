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
// number words ("30 min", "five"), by part of its words when no other
// option has them, and "dark red" names "Dark red", not "Dark".
func TestChoiceNamedByStemsAndNumbers(t *testing.T) {
	snooze := []string{"30 minutes", "1 minute", "5 minutes", "10 minutes", "1 hour", "Custom"}
	cols := []string{"5 columns", "1 column", "2 columns", "3 columns", "4 columns"}
	theme := []string{"Light", "Auto light / dark", "Dark", "Dark red", "White"}
	for _, tt := range []struct {
		name, command string
		labels        []string
		value         string // choiceValue at learn time
		pick          int    // pickByCommand at replay
	}{
		{"part of the words, unique", "change the snooze time to 30 min", snooze, "30", 0},
		{"a stem", "snooze for 1 minutes", snooze, "", 1},
		{"a number word", "display five images per row", cols, "five", 0},
		{"a shared part names nothing", "snooze for 1", snooze, "", -1},
		{"all the words of one of two", "snooze 1 hour", snooze, "", 4},
		{"the longer of two full matches", "make the theme dark red", theme, "", 3},
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
	if got := pickChoice(snooze, "10"); got != 3 {
		t.Errorf("pickChoice(10) = %d, want 3", got)
	}
	if got := pickChoice(snooze, "1"); got != -1 {
		t.Errorf("pickChoice(1) = %d, want -1 (1 minute or 1 hour)", got)
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
