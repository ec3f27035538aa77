package daemon

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// "Did you mean …?": offering saved flows to the owner, with the values
// they would type, which the owner may correct before anything is typed.

// AnswerNone is the option of a "did you mean" question that declines
// every flow offered.
const AnswerNone = "none of these"

// OfferTypes separates an offered flow's name from the values it would
// type, quoted and comma-separated ("Rename the list — types \"Milk\"").
const OfferTypes = " — types "

// OfferPicks follows an offered flow's name and what it would type with
// the options it would pick in its choice slots, quoted and
// comma-separated ("Set the palette to paper — picks \"Deep blue\"").
const OfferPicks = " — picks "

// OfferOtherValues follows the name of an offered flow that types values
// or picks an option of a choice slot, in a second option: the flow, but
// the owner says what to type and pick ("Rename the list — with other
// values"); run.offer then asks for each value (ValueQuestion,
// ChoiceQuestion).
const OfferOtherValues = " — with other values"

// ValueQuestion is the format of the question for one value the owner
// corrects: the slot's name, the flow's name and the value read from the
// command (all %q). The answer is typed as it is; an empty answer keeps
// the value read.
const ValueQuestion = "What should I type for %q in %q? I read %q."

// MissingQuestion is the format of the question for a value the command
// left out: the slot's name and the flow's name (%q). An empty answer
// replays nothing.
const MissingQuestion = "What should I type for %q in %q?"

// RowQuestion is the format of the question for a list row a flow picks
// by name (semantic.RowNames): the name learned, the flow's name. The
// answer names the row to pick instead; "" (or the learned name) keeps
// the learned one, and with no row named the flow is not replayed.
const RowQuestion = "Which item should I pick instead of %q in %q?"

// ChoiceQuestion is the format of the question for the option of one
// choice slot the owner picks: the slot's name and the flow's name (%q);
// the options are those the flow's step learned. An answer that is none
// of them keeps what the command named.
const ChoiceQuestion = "Which option should I pick for %q in %q?"

// offer asks the owner which of the flows d suggests the command means
// ("did you mean …?"), when there are any and somebody can answer, and
// returns the chosen candidate's index in d.Cands. question is a format
// with one %q for the (redacted) command; "" asks "did you mean". Each
// option is a flow's name and what it would type and pick ("… — types
// \"Milk\""); a flow that types values or picks a choice slot's option
// has a second option, OfferOtherValues: chosen, the owner is asked for
// each value in step order (run.askValues), and the answers replace the
// values read in d.Cands[k].Slots (the caller reads the chosen candidate
// back from d.Cands). A flow the command leaves a value out of
// (intent.Candidate.Missing) has only that second option. An error or a
// cancellation while asking declines. Nothing is replayed without the
// owner's choice; a successful replay the owner chose is remembered as an
// answer for the command's words (answers.go), so the same words replay
// it without asking next time — but not as a past command of the flow,
// which would be lexical evidence for other commands.
func (r *run) offer(ctx context.Context, question string, d semantic.Decision, flows map[int64]*knowledge.Flow) (int, bool) {
	if r.asker() == nil || len(d.Suggest) == 0 {
		return -1, false
	}
	options := make([]string, 0, 2*len(d.Suggest)+1)
	var chosen []int          // per option, the index in d.Cands
	var editing []bool        // per option, whether the owner gives the values
	rebinds := map[int]bool{} // per index in d.Cands: the owner names its row (semantic.Rebinds)
	seen := map[string]bool{}
	for _, i := range d.Suggest {
		f := flows[d.Cands[i].FlowID]
		name := f.Name
		if seen[strings.ToLower(name)] {
			name = fmt.Sprintf("%s (#%d)", f.Name, f.ID)
		}
		seen[strings.ToLower(name)] = true
		shown := name
		vs := typedValues(f, d.Cands[i].Slots)
		if len(vs) > 0 {
			// what it would type, so a wrong value is seen before it is typed
			shown += OfferTypes + strings.Join(vs, ", ")
		}
		ps := pickedOptions(f, r.res.Command, d.Cands[i].Slots)
		rows := semantic.RowNames(f)
		for _, k := range slices.Sorted(maps.Keys(rows)) {
			ps = append(ps, strconv.Quote(rows[k])) // the row it opens by name
		}
		if len(ps) > 0 {
			// and the options it would pick
			shown += OfferPicks + strings.Join(ps, ", ")
		}
		// a row the flow picks by a name the command does not say
		// (semantic.Rebinds): offered only with the owner naming the row
		rebind := semantic.Rebinds(r.res.Command, d.Cands[i], f)
		rebinds[i] = rebind
		if len(d.Cands[i].Missing) == 0 && !rebind {
			// a flow the command leaves a value out of is only offered
			// with the owner giving it: never typed as a placeholder
			options, chosen, editing = append(options, privacy.Redact(shown, r.secrets, false)), append(chosen, i), append(editing, false)
		}
		if len(vs) > 0 || hasChoiceSlot(f) || len(d.Cands[i].Missing) > 0 || rebind {
			options, chosen, editing = append(options, privacy.Redact(name+OfferOtherValues, r.secrets, false)), append(chosen, i), append(editing, true)
		}
	}
	options = append(options, AnswerNone)
	if question == "" {
		question = "No saved flow matches %q word for word. Did you mean one of these?"
	}
	ans, err := r.ask(ctx, fmt.Sprintf(question, privacy.Redact(r.res.Command, r.secrets, false)), options)
	if err != nil {
		return -1, false
	}
	ans = strings.TrimSpace(ans)
	for k, o := range options[:len(options)-1] {
		if !strings.EqualFold(ans, o) && ans != strconv.Itoa(k+1) {
			continue
		}
		i := chosen[k]
		if editing[k] {
			f := flows[d.Cands[i].FlowID]
			slots, ok := r.askValues(ctx, f, d.Cands[i].Slots)
			if ok && rebinds[i] {
				ok = r.askRows(ctx, f)
			}
			if !ok {
				return -1, false
			}
			d.Cands[i].Slots = slots
		}
		return i, true
	}
	return -1, false
}

// askRows asks the owner, for each name by which flow f picks a list row
// (semantic.RowNames; once for a name it taps twice), which row to pick
// instead (RowQuestion), and keeps
// the answers in run.rows; a row left unanswered keeps the one learned.
// False when a question fails, or nothing was answered: the flow would
// only repeat what it learned, which the command did not ask for.
func (r *run) askRows(ctx context.Context, f *knowledge.Flow) bool {
	rows := semantic.RowNames(f)
	r.rows = map[int]string{}
	given := map[string]string{} // by name learned, lower case: one question per name
	for _, i := range slices.Sorted(maps.Keys(rows)) {
		v, asked := given[strings.ToLower(rows[i])]
		if !asked {
			ans, err := r.ask(ctx, privacy.Redact(fmt.Sprintf(RowQuestion, rows[i], f.Name), r.secrets, false), nil)
			if err != nil {
				r.rows = nil
				return false
			}
			v = strings.TrimSpace(ans)
			given[strings.ToLower(rows[i])] = v
		}
		if v != "" && !strings.EqualFold(v, rows[i]) {
			r.rows[f.Steps[i].Index] = v
		}
	}
	if len(r.rows) == 0 {
		r.rows = nil
		return false
	}
	return true
}

// askValues asks the owner for each value flow f would type (its input
// steps' slots) and the option of each of its choice slots, in step
// order, and returns slots with the answers in place, the choice slots
// answered marked in run.given; false when a question fails. A secret
// slot (PasswordSlot) is never asked about or shown.
func (r *run) askValues(ctx context.Context, f *knowledge.Flow, slots map[string]string) (map[string]string, bool) {
	out := maps.Clone(splitSlots(f, slots))
	if out == nil {
		out = map[string]string{}
	}
	asked := map[string]bool{}
	for _, st := range f.Steps {
		name, ok := knowledge.SlotRef(st.Text)
		if !ok || name == PasswordSlot || asked[name] {
			continue
		}
		_, choice := st.ChoiceSlot()
		switch {
		case st.Action == device.Input:
			asked[name] = true
			q := fmt.Sprintf(ValueQuestion, name, f.Name, out[name])
			if out[name] == "" {
				q = fmt.Sprintf(MissingQuestion, name, f.Name)
			}
			ans, err := r.ask(ctx, privacy.Redact(q, r.secrets, false), nil)
			if err != nil {
				return nil, false
			}
			if v := strings.TrimSpace(ans); v != "" {
				out[name] = v
			}
			if out[name] == "" {
				return nil, false // nothing to type: no replay
			}
		case choice:
			asked[name] = true
			options := slices.Compact(slices.Clone(st.Choices))
			shown := make([]string, len(options))
			for j, o := range options {
				shown[j] = privacy.Redact(o, r.secrets, false)
			}
			q := fmt.Sprintf(ChoiceQuestion, name, f.Name)
			ans, err := r.ask(ctx, privacy.Redact(q, r.secrets, false), shown)
			if err != nil {
				return nil, false
			}
			k := slices.IndexFunc(shown, func(o string) bool { return strings.EqualFold(o, strings.TrimSpace(ans)) })
			if k < 0 && out[name] == "" {
				return nil, false // no option, none named: no replay
			}
			if k >= 0 {
				out[name] = options[k]
				if r.given == nil {
					r.given = map[string]bool{}
				}
				r.given[name] = true
			}
		}
	}
	return out, true
}

// hasChoiceSlot reports whether a step of f picks a slot's option among
// the choices it learned (optionGroup).
func hasChoiceSlot(f *knowledge.Flow) bool {
	return slices.ContainsFunc(f.Steps, func(st knowledge.Step) bool {
		_, slot := optionGroup(st)
		return slot != ""
	})
}

// besideTop returns the offer for a lexical match top that is not
// replayed on its own (askTop in matchFlow): top first, then the flows the
// model would offer for the command (semantic.Input.OfferOnly), at most
// semantic.DefaultSuggest in all, each flow once. The value the matcher
// drew for top may be the doubt, and then so may the flow. Without a
// model, when it fails, or with nobody to ask, top alone.
func (r *run) besideTop(ctx context.Context, said string, top intent.Candidate, cands []intent.Candidate, flows map[int64]*knowledge.Flow, m *intent.Matcher) semantic.Decision {
	od := semantic.Decision{Cands: []intent.Candidate{top}, Suggest: []int{0}}
	if r.sem == nil || r.asker() == nil {
		return od // nobody to offer anything to: no need to embed
	}
	d := r.sem.DecideIn(ctx, privacy.Redact(said, r.secrets, false), semantic.Input{Cands: cands, Flows: flows, Threshold: r.cfg.ReplayThreshold,
		Pool: poolOf(flows, r.res.Package), Scorer: m, OfferOnly: true, Label: r.e.matcher.label(r.res.Package)})
	for _, i := range d.Suggest {
		if len(od.Cands) >= semantic.DefaultSuggest {
			break
		}
		if c := d.Cands[i]; !slices.ContainsFunc(od.Cands, func(o intent.Candidate) bool { return o.FlowID == c.FlowID }) {
			od.Suggest = append(od.Suggest, len(od.Cands))
			od.Cands = append(od.Cands, c)
		}
	}
	return od
}
