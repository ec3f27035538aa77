// Package device defines the Device interface through which the agent sees
// and operates a phone, and the action and result shapes that cross it. The
// simulated phone (daemon/sim), the Android AccessibilityService (through
// bridge/) and adb all implement Device. The package holds no
// implementation and must not import the agent, the store or a transport.
package device

import (
	"context"
	"errors"
	"fmt"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Action types: the small action set of AppAgent §3.2 plus the navigation
// keys and app launch that AutoTask's backtracking (Table 3) needs.
const (
	Tap       = "tap"        // tap a node (Node), or the point (X, Y) when Node < 0
	LongPress = "long_press" // long press a node or point
	Input     = "input"      // replace the text of an editable node with Text
	Scroll    = "scroll"     // scroll a node (or the first scrollable) Direction forward|backward
	Back      = "back"       // global BACK
	Home      = "home"       // global HOME
	Launch    = "launch"     // launch Package's main activity
	// ImeEnter presses the keyboard's Enter / submit action (search, send,
	// go, done) in the input node Node, or in the focused input field when
	// Node < 0: what a person does after typing into a search box.
	ImeEnter = "ime_enter"
)

// Scroll directions.
const (
	Forward  = "forward"
	Backward = "backward"
)

// Action is one operation on the device. Node is the ID of a node in the
// snapshot the action was chosen on (a handle valid for that snapshot
// only, -1 for none); Bounds are that node's bounds in px, which a device
// may use as a gesture fallback. Label is the node's label, for logs and
// for devices that re-find the node by text.
type Action struct {
	Type      string      `json:"type"`
	Node      int         `json:"node"`
	Bounds    screen.Rect `json:"bounds,omitzero"`
	Label     string      `json:"label,omitempty"`
	X         int         `json:"x,omitempty"` // px, for point actions
	Y         int         `json:"y,omitempty"` // px
	Text      string      `json:"text,omitempty"`
	Direction string      `json:"direction,omitempty"`
	Package   string      `json:"package,omitempty"`
	// CaptureID is the capture id of the snapshot the action was chosen on
	// (screen.Snapshot.CaptureID), echoed so that a device resolves Node
	// against that capture even if another snapshot was taken since; ""
	// when the snapshot had none (the device then uses its latest).
	CaptureID string `json:"capture_id,omitempty"`
}

// Validate checks an action's shape, before it reaches a device.
func (a Action) Validate() error {
	switch a.Type {
	case Tap, LongPress:
		if a.Node < 0 && a.X <= 0 && a.Y <= 0 {
			return fmt.Errorf("%s needs a node or a point", a.Type)
		}
	case Input:
		if a.Node < 0 {
			return errors.New("input needs a node")
		}
	case Scroll:
		if a.Direction != Forward && a.Direction != Backward {
			return fmt.Errorf("scroll direction %q: want forward or backward", a.Direction)
		}
	case Back, Home, ImeEnter:
	case Launch:
		if a.Package == "" {
			return errors.New("launch needs a package")
		}
	default:
		return fmt.Errorf("unknown action type %q", a.Type)
	}
	return nil
}

// String renders the action for logs, e.g. `tap "Save"` or `input "Alice" into "Name"`.
func (a Action) String() string {
	switch a.Type {
	case Input:
		return fmt.Sprintf("input %q into %q", a.Text, a.Label)
	case Scroll:
		return fmt.Sprintf("scroll %s %q", a.Direction, a.Label)
	case Back, Home:
		return a.Type
	case ImeEnter:
		if a.Node < 0 {
			return "ime_enter"
		}
		return fmt.Sprintf("ime_enter in %q", a.Label)
	case Launch:
		return "launch " + a.Package
	}
	if a.Node < 0 {
		return fmt.Sprintf("%s (%d,%d)", a.Type, a.X, a.Y)
	}
	return fmt.Sprintf("%s %q", a.Type, a.Label)
}

// Result is what the device reports once an action has completed (the
// gesture's completion callback fired, or the node action returned).
// Changed says whether the screen changed; Message explains a no-op (an
// unexplored action on the simulator, a node that vanished on a phone).
type Result struct {
	OK         bool   `json:"ok"`
	Changed    bool   `json:"changed"`
	Message    string `json:"message,omitempty"`
	DurationMS int64  `json:"duration_ms"`
}

// App is one launchable app.
type App struct {
	Package string `json:"package"`
	Label   string `json:"label"`
}

// Device is a phone, real or simulated. Every method honours ctx
// cancellation and returns an error only for failures of the device itself
// (disconnected, malformed reply); an action that had no effect is a
// Result with OK false, not an error.
type Device interface {
	// Snapshot captures every window's accessibility tree, after the UI
	// has settled.
	Snapshot(ctx context.Context) (*screen.Snapshot, error)
	// Perform carries out a and returns once it has completed.
	Perform(ctx context.Context, a Action) (Result, error)
	// InstalledApps lists the launchable apps.
	InstalledApps(ctx context.Context) ([]App, error)
	// ForegroundApp returns the package in the foreground.
	ForegroundApp(ctx context.Context) (string, error)
}

// ErrDisconnected is returned by devices that lost their connection.
var ErrDisconnected = errors.New("device disconnected")

// Redacted is String without the typed text: for error messages about an
// action whose text may be secret.
func (a Action) Redacted() string {
	if a.Type == Input && a.Text != "" {
		a.Text = "…"
	}
	return a.String()
}
