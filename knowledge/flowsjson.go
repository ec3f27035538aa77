package knowledge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// FlowsVersion is the version of the flows JSON document that MarshalFlows
// writes and ParseFlows reads.
const FlowsVersion = 1

// flowsDoc is the flows JSON document: {"version":1,"flows":[...]}, each
// flow in Flow's JSON shape.
type flowsDoc struct {
	Version int     `json:"version"`
	Flows   *[]Flow `json:"flows"`
}

// MarshalFlows writes flows as an indented flows JSON document
// {"version":1,"flows":[...]} (for export and sharing). ErrInvalid: a flow
// fails ValidateFlow (the message names the field, e.g.
// "flows[2].steps[0].action: empty"), so every document it writes parses.
func MarshalFlows(flows []Flow) ([]byte, error) {
	for i := range flows {
		if err := validateFlow(&flows[i], fmt.Sprintf("flows[%d].", i)); err != nil {
			return nil, &Error{Op: "MarshalFlows", Kind: ErrInvalid, Err: err}
		}
	}
	out := make([]Flow, len(flows))
	for i, f := range flows {
		out[i] = exportable(f)
	}
	b, err := json.MarshalIndent(flowsDoc{Version: FlowsVersion, Flows: &out}, "", "  ")
	if err != nil {
		return nil, &Error{Op: "MarshalFlows", Err: err}
	}
	return append(b, '\n'), nil
}

// ParseFlows reads a flows JSON document (outside input: an export, a
// shared file). Unknown fields, a missing or other version, trailing data
// and invalid flows are errors (ErrInvalid) naming the field, e.g.
// "flows[2].steps[0].action: empty"; two flows of one package with the
// same non-empty name are an error too. ID and AppID are reset to 0 (they
// are local to the database that wrote the document; Package names the
// app) and step indexes are set to the steps' positions.
func ParseFlows(b []byte) ([]Flow, error) {
	fail := func(err error) ([]Flow, error) {
		return nil, &Error{Op: "ParseFlows", Kind: ErrInvalid, Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var doc flowsDoc
	if err := dec.Decode(&doc); err != nil {
		return fail(fmt.Errorf("flows document: %w", err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fail(errors.New("flows document: data after the document"))
	}
	switch {
	case doc.Version == 0:
		return fail(errors.New("version: missing"))
	case doc.Version != FlowsVersion:
		return fail(fmt.Errorf("version: %d not supported (this build reads %d)", doc.Version, FlowsVersion))
	case doc.Flows == nil:
		return fail(errors.New("flows: missing"))
	}
	flows := *doc.Flows
	type appName struct{ pkg, name string }
	names := map[appName]int{}
	for i := range flows {
		f := &flows[i]
		f.ID, f.AppID = 0, 0
		// consent and handles are this phone's: an imported flow asks
		// before its sensitive steps and gets a token of its own
		f.Token, f.AllowSensitive = "", false
		for j := range f.Steps {
			f.Steps[j].Index = j
		}
		if err := validateFlow(f, fmt.Sprintf("flows[%d].", i)); err != nil {
			return fail(err)
		}
		if f.Name != "" {
			k := appName{f.Package, f.Name}
			if j, dup := names[k]; dup {
				return fail(fmt.Errorf("flows[%d].name: %q repeats flows[%d] of package %q", i, f.Name, j, f.Package))
			}
			names[k] = i
		}
	}
	return flows, nil
}

// ValidateFlow checks flow f field by field, naming the field in the error
// ("steps[0].action: empty"): package, intent and steps present; every
// step has an action; slot names non-empty and unique; a step text that
// is a slot reference "{name}" names a declared slot; a known source (or
// empty); commands non-empty; counters not negative. It accepts every
// flow SaveFlow accepts and checks more than Flow.Validate.
func ValidateFlow(f *Flow) error { return validateFlow(f, "") }

func validateFlow(f *Flow, at string) error {
	switch {
	case f.Package == "":
		return fmt.Errorf("%spackage: empty", at)
	case f.Intent == "":
		return fmt.Errorf("%sintent: empty", at)
	case len(f.Steps) == 0:
		return fmt.Errorf("%ssteps: empty", at)
	case f.Source != "" && !validSource(f.Source):
		return fmt.Errorf("%ssource: unknown %q", at, f.Source)
	case f.Uses < 0:
		return fmt.Errorf("%suses: negative", at)
	case f.Successes < 0:
		return fmt.Errorf("%ssuccesses: negative", at)
	case f.Failures < 0:
		return fmt.Errorf("%sfailures: negative", at)
	}
	slots := make(map[string]int, len(f.Slots))
	for i, s := range f.Slots {
		if s.Name == "" {
			return fmt.Errorf("%sslots[%d].name: empty", at, i)
		}
		if j, dup := slots[s.Name]; dup {
			return fmt.Errorf("%sslots[%d].name: %q repeats slots[%d]", at, i, s.Name, j)
		}
		slots[s.Name] = i
	}
	for i, s := range f.Steps {
		if s.Action == "" {
			return fmt.Errorf("%ssteps[%d].action: empty", at, i)
		}
		if name, ok := SlotRef(s.Text); ok {
			if _, declared := slots[name]; !declared {
				return fmt.Errorf("%ssteps[%d].text: slot %q not declared in slots", at, i, name)
			}
		}
	}
	for i, c := range f.Commands {
		if c == "" {
			return fmt.Errorf("%scommands[%d]: empty", at, i)
		}
	}
	answers := make(map[string]int, len(f.Answers))
	for i, a := range f.Answers {
		if strings.TrimSpace(a.Command) == "" {
			return fmt.Errorf("%sanswers[%d].command: empty", at, i)
		}
		if j, dup := answers[a.Command]; dup {
			return fmt.Errorf("%sanswers[%d].command: %q repeats answers[%d]", at, i, a.Command, j)
		}
		answers[a.Command] = i
	}
	return nil
}

// SlotRef reports whether step text is a slot reference "{name}" and
// returns the name.
func SlotRef(text string) (string, bool) {
	if len(text) < 3 || text[0] != '{' || text[len(text)-1] != '}' {
		return "", false
	}
	name := text[1 : len(text)-1]
	if strings.ContainsAny(name, "{}") {
		return "", false
	}
	return name, true
}

// ChoiceSlot returns the slot whose value picks the option step s taps
// among the option group it learned (Step.Choices): a tap whose text is
// a slot reference and that has Choices. ok is false for any other step:
// a typed value, the tap on the row carrying a value typed before (a slot
// reference without Choices), a tap on a learned option (Step.Options).
func (s Step) ChoiceSlot() (name string, ok bool) {
	name, ok = SlotRef(s.Text)
	if !ok || s.Action != stepTap || len(s.Choices) == 0 {
		return "", false
	}
	return name, true
}

// stepTap is the tap action's name in a step (daemon/device.Tap).
const stepTap = "tap"

// exportable is f as it may leave the phone: without its token (a replay
// handle), without the owner's "don't ask again" consent, and without the
// example values of private slots (those typed into password fields), in
// its slots and its answers.
func exportable(f Flow) Flow {
	f.Token, f.AllowSensitive = "", false
	private := map[string]bool{}
	for _, s := range f.Steps {
		if name, ok := SlotRef(s.Text); ok && s.Target.Password {
			private[name] = true
		}
	}
	if len(private) > 0 {
		slots := make([]Slot, len(f.Slots))
		for i, sl := range f.Slots {
			if private[sl.Name] {
				sl.Example = ""
			}
			slots[i] = sl
		}
		f.Slots = slots
		answers := make([]Answer, len(f.Answers))
		for i, a := range f.Answers {
			kept := map[string]string{}
			for k, v := range a.Slots {
				if !private[k] {
					kept[k] = v
				}
			}
			if len(kept) == 0 {
				kept = nil
			}
			answers[i] = Answer{Command: a.Command, Slots: kept}
		}
		f.Answers = answers
	}
	return f
}
