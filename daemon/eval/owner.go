package eval

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
)

// The simulated owners of Config.Owner: they answer the engine's
// questions as the writer of a command, looking at the phone, would.

// owner answers "did you mean …?" as the writer of a command would
// (Config.Owner): the option naming the command's flow, else none.
type owner struct {
	want           string   // name of the command's flow; "\x00" for none
	typed          []string // what the command types (CommandCase.ExpectTyped)
	picked         []string // what it picks (CommandCase.ExpectPicked)
	offered, right bool
	// giving are the values still to give after the owner chose to give
	// them (daemon.OfferOtherValues); gave: it did.
	giving []string
	gave   bool
	// rows: the options it picks (picked) not yet given as a row's name
	// (daemon.RowQuestion)
	rows []string
}

// doneOwner answers a planner's unsure "done" (daemon.confirmDone) as the
// owner looking at the phone: done on the task's final screen, not done
// elsewhere. Other questions go unanswered.
type doneOwner struct {
	state func() string // the phone's current state (sim.Phone.State)
	want  string
	said  string // "yes" or "no", the last answer
}

func (o *doneOwner) Ask(ctx context.Context, question string, options []string) (string, error) {
	if !slices.Equal(options, []string{daemon.AnswerDone, daemon.AnswerNotDone}) {
		return "", errors.New("eval owner: answers only whether the command is done")
	}
	if o.state() == o.want {
		o.said = "yes"
		return daemon.AnswerDone, nil
	}
	o.said = "no"
	return daemon.AnswerNotDone, nil
}

func (o *owner) Ask(ctx context.Context, question string, options []string) (string, error) {
	if o.gave && !slices.Contains(options, daemon.AnswerNone) {
		// after choosing "with other values" (daemon.OfferOtherValues):
		// the values the command types, in order (daemon.ValueQuestion),
		// the options it picks (daemon.ChoiceQuestion), and the rows it
		// names, in order, from the options it picks (daemon.RowQuestion)
		if isRowQuestion(question) {
			if len(o.rows) == 0 {
				return "", errors.New("eval owner: the command names no other row")
			}
			v := o.rows[0]
			o.rows = o.rows[1:]
			return v, nil
		}
		if len(options) == 0 && len(o.giving) > 0 {
			v := o.giving[0]
			o.giving = o.giving[1:]
			return v, nil
		}
		for _, opt := range options {
			if slices.ContainsFunc(o.picked, func(p string) bool { return labelIs(opt, p) }) {
				return opt, nil
			}
		}
		return "", errors.New("eval owner: none of these is what the command meant")
	}
	if !slices.Contains(options, daemon.AnswerNone) {
		return "", errors.New("eval owner: answers only which flow was meant, and the values it types and picks")
	}
	o.offered = true
	for _, opt := range options {
		if name, ok := strings.CutSuffix(opt, daemon.OfferOtherValues); ok && o.isWant(name) &&
			!slices.ContainsFunc(options, func(s string) bool {
				return s == name || strings.HasPrefix(s, name+daemon.OfferTypes) || strings.HasPrefix(s, name+daemon.OfferPicks)
			}) {
			// offered only with the owner giving the values (the command
			// leaves one out): it gives its command's
			o.right = true
			o.give()
			return opt, nil
		}
		rest, picked, _ := strings.Cut(opt, daemon.OfferPicks)
		name, typed, _ := strings.Cut(rest, daemon.OfferTypes)
		if !o.isWant(name) {
			continue
		}
		o.right = true
		typesOK := typed == "" || o.typesRight(typed)
		picksOK := picked == "" || o.picksRight(picked)
		if typesOK && picksOK && (picked != "" || len(o.picked) == 0) {
			return opt, nil
		}
		// it would type or pick another value, or shows no option where the
		// command picks one: the owner gives the values when the offer
		// lets them (daemon.OfferOtherValues) and the flow types as many
		// as the command does, else takes it as shown when nothing shown
		// is wrong, else declines
		other := name + daemon.OfferOtherValues
		if slices.Contains(options, other) && (typed == "" && len(o.typed) == 0 || typed != "" && len(strings.Split(typed, ", ")) == len(o.typed)) {
			o.give()
			return other, nil
		}
		if typesOK && picksOK {
			return opt, nil
		}
		return daemon.AnswerNone, nil
	}
	return daemon.AnswerNone, nil
}

// isWant reports whether an offered flow's name (as an offer shows it,
// "(#id)" added when two flows share it) is the command's flow's.
func (o *owner) isWant(name string) bool {
	return name == o.want || strings.HasPrefix(name, o.want+" (#")
}

// give makes the owner give its command's values to the questions that
// follow (daemon.ValueQuestion, daemon.ChoiceQuestion, daemon.RowQuestion).
func (o *owner) give() {
	o.giving, o.rows, o.gave = slices.Clone(o.typed), slices.Clone(o.picked), true
}

// isRowQuestion reports whether question is a daemon.RowQuestion.
func isRowQuestion(question string) bool {
	prefix, _, _ := strings.Cut(daemon.RowQuestion, "%")
	return strings.HasPrefix(question, prefix)
}

// picksRight reports whether each option of shown (`"a", "b"`, as an
// offer lists what a flow would pick) is one the owner's command picks
// (CommandCase.ExpectPicked); a command that names no pick takes any.
func (o *owner) picksRight(shown string) bool {
	if len(o.picked) == 0 {
		return true
	}
	for _, q := range strings.Split(shown, ", ") {
		v, err := strconv.Unquote(q)
		if err != nil || !slices.ContainsFunc(o.picked, func(p string) bool { return labelIs(v, p) }) {
			return false
		}
	}
	return true
}

// typesRight reports whether each value of shown (`"a", "b"`, as an
// offer lists what a flow would type) is one the owner's command types.
func (o *owner) typesRight(shown string) bool {
	for _, q := range strings.Split(shown, ", ") {
		v, err := strconv.Unquote(q)
		if err != nil || !slices.ContainsFunc(o.typed, func(t string) bool { return strings.EqualFold(t, v) }) {
			return false
		}
	}
	return true
}
