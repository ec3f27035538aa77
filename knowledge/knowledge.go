// Package knowledge is Wayfinder's local knowledge graph in SQLite (through
// mattn/go-sqlite3): the three kinds of knowledge of AutoTask §4.1 —
// environmental knowledge (apps, screens, elements with their AppAgent-style
// documentation, and the UI transition graph), task knowledge (flows'
// intents and slots, the commands that used them) and execution knowledge
// (flows' steps, lessons from mistakes) — plus the run log and the
// embedding cache.
//
// The package owns the database file and its schema (embedded numbered
// migrations). It must not touch the device, the network or the LLM; it
// stores screen descriptors and snapshots as the daemon/screen package
// defines them.
package knowledge

import (
	"errors"
	"fmt"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Typed errors; test with errors.Is.
var (
	ErrNotFound = errors.New("not found")
	ErrInvalid  = errors.New("invalid")
	ErrConflict = errors.New("conflict")
	// ErrDamaged: the database file fails SQLite's integrity check or is
	// not a database; Recover moves it aside.
	ErrDamaged = errors.New("damaged")
)

// Error wraps one of the typed errors with the operation and detail.
type Error struct {
	Op   string // e.g. "SaveFlow"
	Kind error  // ErrNotFound, ErrInvalid, ErrConflict, or nil for others
	Err  error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("knowledge: %s: %v", e.Op, e.Kind)
	}
	return fmt.Sprintf("knowledge: %s: %v", e.Op, e.Err)
}

func (e *Error) Unwrap() []error { return []error{e.Kind, e.Err} }

// Transition and flow sources.
const (
	SourceExploration   = "exploration"   // recorded by exploring the app (import)
	SourceLearned       = "learned"       // observed while the agent carried out a command
	SourceDemonstration = "demonstration" // shown by the user
)

// App is an installed app the store knows about.
type App struct {
	ID      int64  `json:"id"`
	Package string `json:"package"`
	Label   string `json:"label,omitempty"`
}

// Screen is a node of the UI transition graph: one screen (state) of an
// app, identified by its structural fingerprint (screen.Fingerprint).
type Screen struct {
	ID          int64  `json:"id"`
	AppID       int64  `json:"app_id"`
	Fingerprint string `json:"fingerprint"`
	Activity    string `json:"activity,omitempty"`
	Description string `json:"description,omitempty"` // what the screen is for (UICOMPASS's manual)
	Dialog      bool   `json:"dialog,omitempty"`      // drawn as a dialog over another screen
	// Snapshot is a representative capture (snapshot JSON), optional.
	Snapshot []byte `json:"-"`
	Visits   int    `json:"visits"`
}

// Element is an element of a screen, identified by its descriptor key.
type Element struct {
	ID         int64             `json:"id"`
	ScreenID   int64             `json:"screen_id"`
	Key        string            `json:"key"` // screen.Descriptor.Key()
	Descriptor screen.Descriptor `json:"descriptor"`
	Label      string            `json:"label,omitempty"`
	// Doc is the element's documentation (AppAgent §3.3): what using it
	// does, written by exploration or learning.
	Doc string `json:"doc,omitempty"`
}

// Transition is an edge of the UI transition graph: acting on an element
// (or a global action when ElementID is 0) on screen From led to screen To,
// Count times, failing Failures times.
type Transition struct {
	ID        int64  `json:"id"`
	AppID     int64  `json:"app_id"`
	From      int64  `json:"from"`
	To        int64  `json:"to"`
	Action    string `json:"action"` // device action type: tap, input, back, ...
	ElementID int64  `json:"element_id,omitempty"`
	Text      string `json:"text,omitempty"` // input text when it matters (not slots)
	Count     int    `json:"count"`
	Failures  int    `json:"failures"`
	Source    string `json:"source"`
}

// Slot is a parameter of a flow: a value taken from the command.
type Slot struct {
	Name    string `json:"name"`
	Example string `json:"example,omitempty"` // the value it had when learned
}

// Step is one step of a flow. Text holds literal input text or a slot
// reference "{name}"; on a tap, a slot reference says the slot's value
// chooses the element: among Choices (an option group), or, without
// Choices, the element carrying the value typed by an earlier step (a
// search result). Screen is the fingerprint of the screen the step acts
// on; Expect the fingerprint expected after it (empty: any).
type Step struct {
	Index   int               `json:"index"`
	Screen  string            `json:"screen"`
	Action  string            `json:"action"`
	Target  screen.Descriptor `json:"target"`
	Text    string            `json:"text,omitempty"`
	Expect  string            `json:"expect,omitempty"`
	Comment string            `json:"comment,omitempty"` // what the step does, for people and prompts
	// Sensitive: acting on the target deletes, sends, pays, calls or
	// changes an account (daemon/safety); replay confirms it first.
	Sensitive bool `json:"sensitive,omitempty"`
	// Where is what the screen the step acts on looked like when learned
	// (nil: unknown), for re-grounding the step after an app update.
	Where *Goal `json:"where,omitempty"`
	// Choices: for a step that taps an option chosen by a slot ("{size}"),
	// the labels of the option group when learned, the tapped one first.
	Choices []string `json:"choices,omitempty"`
	// Options: for a tap on an option of a group that the learning command
	// did not name as a value ("change the layout from board to timeline"
	// names two), the labels of the group when learned, the tapped one
	// first. The step taps its learned option unless a command names
	// another (daemon's option anchors).
	Options []string `json:"options,omitempty"`
}

// Step actions that set a toggle (a switch or check box) to a state: the
// engine taps it only when its checked state differs (daemon.ActEnsureOn,
// daemon.ActEnsureOff are these).
const (
	StepSwitchOn  = "ensure_on"
	StepSwitchOff = "ensure_off"
)

// Flow is a learned route: the shortest correct step sequence for a
// command, with its intent template ("send {message} to {contact}") and
// slots. Commands are the utterances that ran it (task knowledge).
type Flow struct {
	ID        int64    `json:"id"`
	AppID     int64    `json:"app_id"`
	Package   string   `json:"package"`
	Name      string   `json:"name"`
	Intent    string   `json:"intent"`
	Commands  []string `json:"commands,omitempty"`
	Slots     []Slot   `json:"slots,omitempty"`
	Steps     []Step   `json:"steps"`
	Source    string   `json:"source"`
	Uses      int      `json:"uses"`
	Successes int      `json:"successes"`
	Failures  int      `json:"failures"`
	Pinned    bool     `json:"pinned,omitempty"`
	// Token is an unguessable handle (32 hex digits) set when the flow is
	// saved and never reused: shortcuts and other outside callers replay
	// by token, never by the small integer ID.
	Token string `json:"token,omitempty"`
	// Sensitive: a step deletes, sends, pays, calls or changes an account.
	Sensitive bool `json:"sensitive,omitempty"`
	// AllowSensitive: the owner said "don't ask again" for this flow's
	// sensitive steps.
	AllowSensitive bool      `json:"allow_sensitive,omitempty"`
	Created        time.Time `json:"created"`
	Updated        time.Time `json:"updated"`
	// Goal is the end screen the flow reached when it was learned (nil:
	// unknown, e.g. a flow saved before goals were kept): a replay
	// succeeds only when it ends there.
	Goal *Goal `json:"goal,omitempty"`
	// Version is the number of the flow's current version (FlowHistory);
	// 0 in a flow not yet saved.
	Version int `json:"version,omitempty"`
	// FailStreak counts the flow's failures since its last success, new
	// version or rollback; see Healthy.
	FailStreak int `json:"fail_streak,omitempty"`
	// Answers are the commands the owner chose this flow for in "did you
	// mean" (Store.RememberAnswer), each for its own words only. They go
	// with the flow: read with it, exported, salvaged, and written by
	// SaveFlow (an import); UpdateFlow and ReviseFlow leave them as they
	// are, and RememberAnswer adds them.
	Answers []Answer `json:"answers,omitempty"`
}

// Answer is one command the owner chose a flow for (Flow.Answers): the
// command as remembered (lower case, spaces collapsed, secrets redacted)
// and the slot values of that replay (never a password).
type Answer struct {
	Command string            `json:"command"`
	Slots   map[string]string `json:"slots,omitempty"`
}

// UnhealthyAfter is the number of consecutive failures after which a flow
// is unhealthy. One failure can be a passing thing (a dialog recovery
// could not dismiss, other data in the app, the owner touching the
// phone); two in a row can still be chance. A third without a success
// between says the flow no longer fits the app, and every further try is
// a run acting on the phone with a wrong route, so the owner decides from
// there. A success, a new version or a rollback resets the streak.
const UnhealthyAfter = 3

// Healthy reports whether the flow may act on its own: an unhealthy flow
// is never replayed because a command matched it, only when the owner
// names it (by id).
func (f *Flow) Healthy() bool { return f.FailStreak < UnhealthyAfter }

// Goal is what a flow's end screen looked like when it was learned, for
// checking that a replay or a repair really got there: the structural
// fingerprint, and, to recognise the screen after an app update changed
// its ids, labels or layout, its activity, its static labels and its
// resource names (both normalised, sorted, de-duplicated).
type Goal struct {
	Screen   string   `json:"screen"`
	Activity string   `json:"activity,omitempty"`
	Labels   []string `json:"labels,omitempty"`
	IDs      []string `json:"ids,omitempty"`
	Dialog   bool     `json:"dialog,omitempty"` // drawn as a dialog
}

// Flow version reasons written by the engine and the store.
const (
	ReasonLearned  = "learned"
	ReasonRepaired = "repaired"
	ReasonRelearn  = "relearned"
	ReasonImported = "imported"
	ReasonEdited   = "edited"
	ReasonRollback = "rollback"
)

// FlowVersion is one version of a flow's route: its steps and goal, when
// it was written and why ("learned", "repaired: steps 1-2 replaced",
// "rollback to version 1").
type FlowVersion struct {
	FlowID  int64     `json:"flow_id"`
	Version int       `json:"version"`
	Steps   []Step    `json:"steps"`
	Goal    *Goal     `json:"goal,omitempty"`
	Reason  string    `json:"reason"`
	Created time.Time `json:"created"`
	Current bool      `json:"current"`
}

// Validate checks a flow before it is saved.
func (f *Flow) Validate() error {
	if f.Package == "" {
		return errors.New("flow has no package")
	}
	if f.Intent == "" {
		return errors.New("flow has no intent")
	}
	if len(f.Steps) == 0 {
		return errors.New("flow has no steps")
	}
	names := map[string]bool{}
	for _, s := range f.Slots {
		if s.Name == "" || names[s.Name] {
			return fmt.Errorf("slot name %q empty or repeated", s.Name)
		}
		names[s.Name] = true
	}
	for i, s := range f.Steps {
		if s.Action == "" {
			return fmt.Errorf("step %d has no action", i)
		}
	}
	return nil
}

// Lesson is execution knowledge from a mistake (AutoTask §4.1.5, type 2):
// on a screen, for a command like this, what not to do or what to do.
type Lesson struct {
	ID      int64     `json:"id"`
	AppID   int64     `json:"app_id"`
	Screen  string    `json:"screen,omitempty"` // fingerprint
	Command string    `json:"command"`
	Text    string    `json:"text"`
	Created time.Time `json:"created"`
}

// Run outcomes.
const (
	OutcomeSuccess   = "success"
	OutcomeFailure   = "failure"
	OutcomeError     = "error"
	OutcomeCancelled = "cancelled"
)

// Run is one command and its outcome, for the run log.
type Run struct {
	ID         int64     `json:"id"`
	Command    string    `json:"command"`
	Package    string    `json:"package,omitempty"`
	Mode       string    `json:"mode"` // replay | graph | llm | oracle | mixed
	Outcome    string    `json:"outcome"`
	Error      string    `json:"error,omitempty"`
	FlowID     int64     `json:"flow_id,omitempty"`
	Steps      int       `json:"steps"`
	LLMCalls   int       `json:"llm_calls"`
	Tokens     int       `json:"tokens"`
	DurationMS int64     `json:"duration_ms"`
	Started    time.Time `json:"started"`
}

// Graph is one app's UI transition graph as loaded for planning.
type Graph struct {
	App         App          `json:"app"`
	Screens     []Screen     `json:"screens"`
	Elements    []Element    `json:"elements"`
	Transitions []Transition `json:"transitions"`
}
