package daemon

import (
	"context"
	"fmt"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Decision kinds beyond the device action types.
const (
	ActDone = "done" // the command is complete: stop, no action
	ActAsk  = "ask"  // the planner needs the user (Text is the question)
	ActFail = "fail" // the planner gives up (Reason says why)
	// ActEnsureOn and ActEnsureOff set a toggle (switch, checkbox) to a
	// state: the engine taps it only when its checked state differs, and a
	// flow keeps the step as such, so a replay from the other state still
	// ends in the wanted one.
	ActEnsureOn  = knowledge.StepSwitchOn
	ActEnsureOff = knowledge.StepSwitchOff
)

// Decision is a planner's next step. Element is an index into
// PlanState.Elements (-1 for global actions). Confidence in [0, 1] lets a
// composite planner decide whether to ask a stronger one (UICOMPASS's
// adaptive replanning); LLMCalls and Tokens report what the decision cost.
type Decision struct {
	Action     string  `json:"action"` // device.Tap ... device.Launch, ActDone, ActAsk
	Element    int     `json:"element"`
	Text       string  `json:"text,omitempty"`
	Direction  string  `json:"direction,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	Confidence float64 `json:"confidence"`
	LLMCalls   int     `json:"llm_calls,omitempty"`
	Tokens     int     `json:"tokens,omitempty"`
	Mode       string  `json:"mode,omitempty"` // who decided: graph | llm | oracle
	// Unsure, with ActDone: the planner cannot tell that this screen is
	// the command's end (part of what the command names was never
	// covered). The owner is asked to confirm it; without a yes, no flow
	// is learned from the run (the run still ends as a success).
	Unsure bool `json:"unsure,omitempty"`
}

// StepRecord is one executed step, as planners and checks see the history.
type StepRecord struct {
	Step        int               `json:"step"`
	Screen      string            `json:"screen"` // fingerprint before
	After       string            `json:"after"`  // fingerprint after
	Action      string            `json:"action"`
	Target      screen.Descriptor `json:"target"`
	Label       string            `json:"label,omitempty"`
	Text        string            `json:"text,omitempty"`
	Reason      string            `json:"reason,omitempty"`
	Mode        string            `json:"mode"`
	OK          bool              `json:"ok"`
	Changed     bool              `json:"changed"`
	Message     string            `json:"message,omitempty"`
	Backtracked bool              `json:"backtracked,omitempty"` // undone: not part of the learned path
	Undo        bool              `json:"undo,omitempty"`        // this step undid an earlier one
	// Sensitive: the step deleted, sent, paid, called or changed an
	// account (daemon/safety), after the policy allowed it.
	Sensitive bool `json:"sensitive,omitempty"`
	// Where describes the screen the step acted on (for a flow step's
	// re-grounding after an app update); not sent to planners.
	Where *knowledge.Goal `json:"-"`
	// Choices: for a tap on one option of a group (a list's rows, a
	// dialog's choices), the group's labels, the tapped one first; a
	// command that names the option makes it a choice slot (choice.go).
	Choices []string `json:"-"`
	// Group: for a tap on an option (a radio button, a checked text view),
	// the labels of the options of its own container, the tapped one
	// first, when there are two or more (ownGroup).
	Group []string `json:"-"`
	// Toggle: for a tap on a switch or check box, or on a row holding one,
	// its state before the tap ("on", "off"); "" otherwise (toggle.go).
	Toggle string `json:"toggle,omitempty"`
	// Toggled: that toggle, found again on the screen after the tap (by
	// its descriptor), shows the other state: the tap flipped it.
	Toggled bool `json:"toggled,omitempty"`
}

// PlanState is everything a planner may look at to choose the next step.
type PlanState struct {
	Command  string
	Package  string
	AppLabel string // the app's display label, when known
	AppID    int64
	Slots    map[string]string // values the command carries, when known
	Screen   *screen.Snapshot
	Elements []screen.Element
	Print    string // fingerprint of Screen
	// Before is the screen before the last step, for checks (nil at step 0).
	Before    []screen.Element
	History   []StepRecord
	Guides    []string // instruction lists from similar flows (UICOMPASS)
	Lessons   []string
	Step      int
	StepLimit int
	// Emit publishes a progress event of the run (prompts, replies);
	// never nil when set by the engine.
	Emit func(typ string, data any)
	// Secrets are values no model may see (daemon/privacy): an LLM
	// planner replaces them in prompts by privacy.SecretMark.
	Secrets []string
	// Penalties of operations the correctness check rejected, keyed by
	// OperationKey (AutoTask §4.3 backtracking penalty).
	Penalties map[string]float64
	// Private are the owner's private values of this run: a planner that
	// talks to a model sends its prompts through Scrub. Nil: none.
	Private *Private
	// Embedder is the engine's embedding model (Config.Embedder), which a
	// planner may use to compare meanings (the graph planner's
	// command↔element scoring); nil: none.
	Embedder semantic.Embedder
	// Check: the state is one of a saved flow's recorded screens, shown
	// to the route checker (routecheck.go), not the phone's. A done
	// there must account for every word of the command (Learned's by
	// the flow's recording), or be Unsure.
	Check bool
	// Strict: for the route check, words of the command that the flow
	// does not carry in their place (intent.Candidate.Substituted: "the
	// last video" for its "the last photo"); a done must have them on a
	// step's own target or field, as written or by concept, not only by
	// meaning — a model bridges "video" and "photo" too readily — nor on
	// one that carries a word of Replaced too, the flow's own words they
	// stand in for (a "photo_video_preview" tells neither apart).
	Strict, Replaced []string
	// Learned: for the route check, the command the walked flow was
	// learned for. Its recording did every word of it, so the words this
	// command shares with it (as written or by concept) need no step of
	// the walk to account for them; the others do.
	Learned string
}

// OperationKey identifies an operation (action, element, screen) for
// penalties: AutoTask §4.3 footnote 5.
func OperationKey(print, action string, d screen.Descriptor) string {
	return print + "|" + action + "|" + d.Key()
}

// Planner chooses the next step. Implementations: the graph planner (no
// model), the LLM planner, the oracle (a test double that answers from
// ground truth). Next returns an error only when it cannot decide at all
// (an LLM fault); "nothing to do" is a Decision with Action ActDone.
type Planner interface {
	Name() string
	Next(ctx context.Context, st *PlanState) (Decision, error)
}

// WayTeller is implemented by planners that look ahead through the UI
// transition graph. After Next, WayTo reports whether the planner weighed
// a tap on element (an index into that PlanState's Elements) as a relevant
// step on its way to an element that matches the command, and that
// element's descriptor key (screen.Descriptor.Key). The route check
// (routeways.go) reads it where the planner chose another step than the
// flow's.
type WayTeller interface {
	WayTo(element int) (dest string, ok bool)
}

// Verdict is the result of the checking module (AutoTask §4.5): whether the
// command is complete, whether the last step was correct, and if not how
// severe the mistake (penalty 0-9).
type Verdict struct {
	Completed bool    `json:"completed"`
	Correct   bool    `json:"correct"`
	Penalty   float64 `json:"penalty"`
	Reason    string  `json:"reason,omitempty"`
	LLMCalls  int     `json:"llm_calls,omitempty"`
	Tokens    int     `json:"tokens,omitempty"`
}

// Checker is optionally implemented by planners that can check a step
// after it ran (completion and correctness, AutoTask §4.5).
type Checker interface {
	Check(ctx context.Context, st *PlanState, last StepRecord) (Verdict, error)
}

// Learner is optionally implemented by planners that learn from outcomes
// (the graph planner updates its costs).
type Learner interface {
	Observe(ctx context.Context, st *PlanState, rec StepRecord)
}

// Asker answers the agent's questions (confirmation of sensitive actions,
// clarification). The CLI asks on the terminal, the app in a dialog; nil
// means nobody is there, and sensitive actions proceed only when the
// configuration allows it.
type Asker interface {
	Ask(ctx context.Context, question string, options []string) (string, error)
}

// actionFor turns a decision on a screen into a device action.
func actionFor(st *PlanState, d Decision) (device.Action, *screen.Element, error) {
	a := device.Action{Type: d.Action, Node: -1, Text: d.Text, Direction: d.Direction}
	switch d.Action {
	case device.Back, device.Home:
		return a, nil, nil
	case device.Launch:
		a.Package = st.Package
		return a, nil, nil
	case device.Scroll:
		if a.Direction == "" {
			a.Direction = device.Forward
		}
		if d.Element < 0 {
			for i := range st.Elements {
				if st.Elements[i].Kind == screen.KindScroll || st.Screen.Node(st.Elements[i].NodeID).Scrollable {
					d.Element = i
					break
				}
			}
		}
		if d.Element < 0 {
			return a, nil, nil
		}
	case device.ImeEnter:
		if d.Element < 0 {
			return a, nil, nil // the focused field
		}
	case device.Tap, device.LongPress, device.Input:
	case ActEnsureOn, ActEnsureOff:
		a.Type = device.Tap
	default:
		return a, nil, fmt.Errorf("planner chose unknown action %q", d.Action)
	}
	if d.Element < 0 || d.Element >= len(st.Elements) {
		return a, nil, fmt.Errorf("planner chose element %d, but the screen has elements 0..%d", d.Element, len(st.Elements)-1)
	}
	e := &st.Elements[d.Element]
	if d.Action == device.Input && e.Kind != screen.KindInput {
		return a, nil, fmt.Errorf("planner chose to type into element %d (%s %q), which is not editable", d.Element, e.Kind, e.Label)
	}
	if d.Action == device.ImeEnter && e.Kind != screen.KindInput {
		return a, nil, fmt.Errorf("planner chose to press enter in element %d (%s %q), which is not an input field", d.Element, e.Kind, e.Label)
	}
	a.Node, a.Bounds, a.Label = e.NodeID, e.Bounds, e.Label
	return a, e, nil
}

// undoFor returns the action that undoes rec (AutoTask Table 3): navigate
// up for a tap, clear text for an input, scroll backward for a scroll.
func undoFor(rec StepRecord) device.Action {
	switch rec.Action {
	case device.Input:
		return device.Action{Type: device.Input, Node: -1, Text: ""}
	case device.Scroll:
		return device.Action{Type: device.Scroll, Node: -1, Direction: device.Backward}
	}
	return device.Action{Type: device.Back, Node: -1}
}

// ElementIndex returns the index in elems of the element whose node is
// id, else of the element that owns it (its clickable ancestor), else of
// the nearest element enclosing it, else of an element inside id (a row
// tapped for its label), or -1.
func ElementIndex(s *screen.Snapshot, elems []screen.Element, id int) int {
	for i := range elems {
		if elems[i].NodeID == id {
			return i
		}
	}
	owner := s.ClickableAncestor(id)
	if owner != nil {
		for i := range elems {
			if elems[i].NodeID == owner.ID {
				return i
			}
		}
	}
	// a node whose text was merged into an enclosing element (nearest first)
	for _, a := range s.Ancestors(id) {
		for i := range elems {
			if elems[i].NodeID == a {
				return i
			}
		}
	}
	// a container tapped for a label inside it
	for i := range elems {
		for _, a := range s.Ancestors(elems[i].NodeID) {
			if a == id {
				return i
			}
		}
	}
	return -1
}
