package daemon

import (
	"testing"

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
