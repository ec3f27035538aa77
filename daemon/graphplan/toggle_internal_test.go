package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestFlippedToggle: a step set a setting when an element found again
// after it (same kind, label and resource-id) shows the other checked
// state, whatever was tapped; a new screen or an unchanged one is no
// evidence.
func TestFlippedToggle(t *testing.T) {
	row := func(checked bool) screen.Element {
		return screen.Element{Kind: "button", Label: "Send receipts", Resource: "row", Checked: checked}
	}
	other := screen.Element{Kind: "button", Label: "Font size", Resource: "font"}
	for _, tt := range []struct {
		name          string
		before, after []screen.Element
		want          bool
	}{
		{"a row's state flipped", []screen.Element{other, row(false)}, []screen.Element{other, row(true)}, true},
		{"unchanged", []screen.Element{other, row(false)}, []screen.Element{other, row(false)}, false},
		{"another screen", []screen.Element{row(false)}, []screen.Element{{Kind: "button", Label: "Back", Checked: true}}, false},
		{"the same label, another element", []screen.Element{row(false)}, []screen.Element{{Kind: "button", Label: "Send receipts", Resource: "other", Checked: true}}, false},
	} {
		if got := flippedToggle(tt.before, tt.after); got != tt.want {
			t.Errorf("%s: flippedToggle = %v, want %v", tt.name, got, tt.want)
		}
	}
}
