package eval

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
)

// TestTapped: a replay's taps are its plain taps and the "switch on/off"
// steps that found the switch in the other state and tapped it.
func TestTapped(t *testing.T) {
	tests := []struct {
		name string
		st   daemon.StepRecord
		want bool
	}{
		{"a tap", daemon.StepRecord{Action: device.Tap, OK: true, Screen: "a", After: "b"}, true},
		{"a backtracked tap", daemon.StepRecord{Action: device.Tap, OK: true, Backtracked: true}, false},
		{"an undoing tap", daemon.StepRecord{Action: device.Tap, OK: true, Undo: true}, false},
		{"a switch found off, tapped on", daemon.StepRecord{Action: daemon.ActEnsureOn, OK: true, Changed: true, Screen: "a", After: "a"}, true},
		{"a switch tapped, the screen's text changed", daemon.StepRecord{Action: daemon.ActEnsureOff, OK: true, Screen: "a", After: "b"}, true},
		{"a switch already on", daemon.StepRecord{Action: daemon.ActEnsureOn, OK: true, Screen: "a", After: "a", Message: "already on"}, false},
		{"a switch tap that failed", daemon.StepRecord{Action: daemon.ActEnsureOn, Changed: true}, false},
		{"typing", daemon.StepRecord{Action: device.Input, OK: true, Screen: "a", After: "b"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tapped(tt.st); got != tt.want {
				t.Errorf("tapped = %v, want %v", got, tt.want)
			}
		})
	}
}
