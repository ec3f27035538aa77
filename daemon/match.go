package daemon

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Which saved flow a command means: the lexical matcher (daemon/intent),
// the embedding checks (daemon/semantic), the owner's choice when they
// are unsure ("did you mean …?"), and the flows shown to planners as
// guides.

// matcherCache keeps the intent matcher over all saved flows, rebuilt
// after a flow is saved, repaired or deleted.
type matcherCache struct {
	mu    sync.Mutex
	m     *intent.Matcher
	flows map[int64]*knowledge.Flow
	// labels are the installed apps' labels, kept across rebuilds (they
	// change when an app is installed, not when a flow does) and asked
	// again only when a flow's app has none
	labels map[string]string
	// names: the names of each app's flows (flowNames), by package, built
	// when first asked after flows changed
	names map[string]map[string]string
}

// label returns the installed app's label of pkg as the last build knew
// it, "" when unknown.
func (c *matcherCache) label(pkg string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.labels[pkg]
}

// namesOf returns flowNames of pkg over the flows of the last build.
func (c *matcherCache) namesOf(pkg string) map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.names[pkg]; ok {
		return n
	}
	if c.names == nil {
		c.names = map[string]map[string]string{}
	}
	n := flowNames(c.flows, pkg)
	c.names[pkg] = n
	return n
}

func (c *matcherCache) invalidate() {
	c.mu.Lock()
	c.m, c.flows, c.names = nil, nil, nil
	c.mu.Unlock()
}

// get returns the matcher over st's healthy flows and every flow by ID,
// building them when flows changed; labels gives the installed apps'
// labels (package → label), asked at the first build and when a flow's
// app is not among them.
func (c *matcherCache) get(ctx context.Context, st *knowledge.Store, labels func(context.Context) map[string]string) (*intent.Matcher, map[int64]*knowledge.Flow, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m != nil {
		return c.m, c.flows, nil
	}
	flows, err := st.Flows(ctx, knowledge.FlowFilter{})
	if err != nil {
		return nil, nil, err
	}
	c.flows, c.names = make(map[int64]*knowledge.Flow, len(flows)), nil
	healthy := flows[:0:0]
	for i := range flows {
		c.flows[flows[i].ID] = &flows[i]
		if flows[i].Healthy() {
			healthy = append(healthy, flows[i])
		}
	}
	// an unhealthy flow acts only when the owner names it (Options.FlowID)
	if c.labels == nil || slices.ContainsFunc(healthy, func(f knowledge.Flow) bool { _, ok := c.labels[f.Package]; return !ok }) {
		c.labels = labels(ctx)
	}
	c.m = intent.NewMatcherFor(healthy, c.labels)
	return c.m, c.flows, nil
}

// appLabels returns the label of each installed app by package, nil when
// the device cannot say: flows and commands are then matched with their
// mentions of the app.
func (e *Engine) appLabels(ctx context.Context) map[string]string {
	apps, err := e.dev.InstalledApps(ctx)
	if err != nil || len(apps) == 0 {
		return nil
	}
	out := make(map[string]string, len(apps))
	for _, a := range apps {
		out[a.Package] = a.Label
	}
	return out
}

// InvalidateFlows must be called after flows change outside the engine
// (import, rename, delete).
func (e *Engine) InvalidateFlows() { e.matcher.invalidate() }

// MatchFlow ranks the saved flows of pkg ("" for all) against a command
// and returns the best candidates, best first.
func (e *Engine) MatchFlow(ctx context.Context, command, pkg string, k int) ([]intent.Candidate, error) {
	m, _, err := e.matcher.get(ctx, e.store, e.appLabels)
	if err != nil {
		return nil, machineErr{err}
	}
	return m.Rank(command, pkg, k), nil
}

// semanticCandidates is how many lexical candidates the embedding check
// sees: every flow close to the command must be compared, or a closer one
// ranked lower could not make the command ambiguous (daemon/semantic).
const semanticCandidates = 10

// matchFlow returns the saved flow to replay, or nil when none fits well
// enough: a wrong flow replayed is worse than planning, so below the
// calibrated threshold nothing is replayed — except a candidate just below
// it that embeddings promote under daemon/semantic's rule, when an
// embedder is configured and reachable.
func (r *run) matchFlow(ctx context.Context, opt Options) (*knowledge.Flow, error) {
	e := r.e
	if opt.FlowID != 0 {
		f, err := e.store.Flow(ctx, opt.FlowID)
		if err != nil {
			return nil, err
		}
		r.slots = map[string]string{}
		for _, s := range f.Slots {
			r.slots[s.Name] = s.Example
		}
		for k, v := range opt.Slots {
			r.slots[k] = v
		}
		r.res.FlowID, r.res.FlowName, r.res.Matched, r.res.Score, r.res.Slots = f.ID, f.Name, true, 1, r.slots
		r.emit(event.FlowMatched, event.FlowMatch{FlowID: f.ID, Name: f.Name, Score: 1, Threshold: r.cfg.ReplayThreshold, Slots: r.slots, Replay: true})
		return f, nil
	}
	if f, ok, err := r.answered(ctx); err != nil || ok {
		return f, err
	}
	m, flows, err := e.matcher.get(ctx, e.store, e.appLabels)
	if err != nil {
		return nil, machineErr{err}
	}
	k := 3
	if r.sem != nil {
		k = semanticCandidates
	}
	// the command as matched: an acronym of a flow's words read as them
	// (acronym.go) …
	texts := flowTextsOf(flows, r.res.Package)
	if x, ok := intent.Spelled(r.res.Command, r.knownWords(ctx, texts)); ok && len(r.secrets) == 0 {
		// typed in a hurry: chat forms written out, misspelt words of the
		// vocabulary corrected ("dleete teh last pic"), for the planner
		// and the route check too; never a command that carries a
		// password ("pin msgs" is typed "msgs", and its redaction would
		// miss a corrected copy)
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("read %q as %q", r.private(r.res.Command), r.private(x))})
		r.res.Command = x
	}
	said := r.res.Command
	if x, ok := expandAcronyms(said, texts); ok {
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: read %q as %q", r.private(said), r.private(x))})
		said = x
	}
	// … and a number with a unit glued on read as the flows say it
	// (units.go)
	if x, ok := expandUnits(said, texts); ok {
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: read %q as %q", r.private(said), r.private(x))})
		said = x
	}
	// … and two words the flows write as one ("auto play", compound.go),
	// and spelt digits as digits ("nine one one", numwords.go)
	for _, read := range []func(string, []string) (string, bool){ReadCompounds, readDigitNames} {
		if x, ok := read(said, texts); ok {
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: read %q as %q", r.private(said), r.private(x))})
			said = x
		}
	}
	// … and a name the flows picked or typed, written in lower case
	// ("dora" for "Dora", names.go)
	label := e.matcher.label(r.res.Package) // the app's mentions are compared apart (semantic.Input.Label)
	namesRead := false
	if x, ok := readNames(said, e.matcher.namesOf(r.res.Package)); ok {
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: read %q as %q", r.private(said), r.private(x))})
		said, namesRead = x, true
	}
	r.readAs = said
	cands := r.knownChoices(ctx, m.Rank(said, r.res.Package, k), flows)
	var top intent.Candidate
	if len(cands) > 0 {
		top = cands[0]
	}
	var sm *event.SemanticMatch
	var d semantic.Decision
	promoted, anchoredTo, consulted := false, false, false
	anchorText := ""
	if top.Score < r.cfg.ReplayThreshold && r.sem != nil {
		// a secret the command carries is never embedded: the model may be
		// an endpoint, and vectors are cached in the store with their text
		d = r.sem.DecideIn(ctx, privacy.Redact(said, r.secrets, false), semantic.Input{Cands: cands, Flows: flows, Threshold: r.cfg.ReplayThreshold, Pool: poolOf(flows, r.res.Package), Scorer: m, Label: label})
		if d.Err != nil {
			r.emit(event.Log, event.LogInfo{Level: "warn", Text: "flow matching: " + d.Reason})
		}
		if (d.Consulted || d.Err != nil) && len(d.Cands) > 0 {
			consulted = true
			sm = &event.SemanticMatch{Model: r.sem.Model(), Requests: d.Requests, CacheHits: d.CacheHits, Reason: d.Reason, Offline: d.Err != nil}
			promoted = d.Promoted >= 0
			if promoted {
				// the doubts the lexical match and the route check have of
				// their values hold for a promotion too ("set the alice
				// chat as unread" is no new name for the chat): the flow
				// is offered, never replayed on its own
				c := d.Cands[d.Promoted]
				if why := r.valueDoubt(flows[c.FlowID], c.Slots); why != "" {
					promoted = false
					sm.Reason += "; not replayed on its own: " + why
					if !slices.Contains(d.Suggest, d.Promoted) {
						d.Suggest = append([]int{d.Promoted}, d.Suggest...)
					}
					r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %d not replayed on its own: %s", c.FlowID, r.private(why))})
				} else if relied, ok := r.reliedOption(ctx, flows[c.FlowID], c); ok {
					// the flow relied on an option the command replaces
					// ("by rating" for a flow that found "Cuisine" chosen): a
					// promotion only when the route, planned again, agrees
					r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %d relied on %q already chosen, and the command names something else in its place: its route is checked", c.FlowID, r.private(relied))})
					if rc, ok := r.routeCheck(ctx, semantic.Decision{}, []intent.Candidate{c}, flows); ok {
						d.Cands[d.Promoted] = rc // with the values the walk gave
					} else {
						promoted = false
						sm.Reason += "; not replayed on its own: it relied on an option the command replaces"
						if !slices.Contains(d.Suggest, d.Promoted) {
							d.Suggest = append([]int{d.Promoted}, d.Suggest...)
						}
					}
				}
			}
		}
	}
	if top.Score < r.cfg.ReplayThreshold && !promoted {
		// a command naming an option of one flow's choice step (anchor.go)
		if a, picks, named, ok := r.anchorMatch(ctx, said, m, flows); ok {
			top, anchoredTo, r.picks, anchorText = a, true, picks, named
		}
	}
	routed := false
	if top.Score < r.cfg.ReplayThreshold && !promoted && !anchoredTo && opt.FlowID == 0 {
		// planned again over a candidate's recorded screens (routecheck.go)
		if c, ok := r.routeCheck(ctx, d, cands, flows); ok {
			top, routed = c, true
		}
	}
	best := max(d.Promoted, 0)
	if !promoted && !anchoredTo && !routed && (consulted || len(r.near) > 0) {
		// "did you mean …?": the flows an anchor took but for a word
		// that labels another element first, then those close in meaning
		if o, ok := r.offerNear(ctx, d, consulted, flows); ok {
			r.res.Chosen = true
			if o.near != nil {
				top, anchoredTo, r.picks, anchorText = o.near.cand, true, o.near.picks, privacy.Redact(o.near.describe(), r.secrets, false)
			} else {
				best, promoted = o.index, true
				sm.Chosen = true
			}
		}
	}
	if consulted {
		if !anchoredTo && !routed {
			top = d.Cands[best]
		}
		sm.Promoted, sm.Cosine = promoted, max(0, d.Cosine[best])
		sm.Candidates, sm.RouteCheck = semanticCandidatesOf(d), r.routeWhy
		r.res.Semantic = sm
	}
	if len(cands) == 0 && sm == nil && !anchoredTo {
		r.emit(event.FlowMatched, event.FlowMatch{Threshold: r.cfg.ReplayThreshold})
		return nil, nil
	}
	disagreed := false
	if len(cands) > 1 && top.FlowID == cands[0].FlowID && cands[1].Score >= r.cfg.ReplayThreshold && cands[0].Score-cands[1].Score < ambiguityMargin && opt.FlowID == 0 {
		// two flows fit about equally well ("create a note named ideas"
		// against a "text list named" and a "checklist named" flow): which one is
		// meant is a guess, so the owner is asked, and nothing replays
		// without an answer
		d := semantic.Decision{Cands: cands[:2], Suggest: []int{0, 1}}
		if i, chosen := r.offer(ctx, "Two saved flows fit %q about equally. Which one did you mean?", d, flows); chosen {
			top = cands[i]
			r.res.Chosen = true
		} else {
			disagreed = true
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow matching: flows %d and %d fit the command about equally (%.3f, %.3f); none replayed", cands[0].FlowID, cands[1].FlowID, cands[0].Score, cands[1].Score)})
		}
	}
	if g := flows[top.FlowID]; g != nil && top.Score >= r.cfg.ReplayThreshold && opt.FlowID == 0 && !disagreed && !r.res.Chosen {
		// askTop offers the lexical match alone: it replays only when the
		// owner chooses it
		askTop := func() bool {
			od := r.besideTop(ctx, said, top, cands, flows, m)
			i, chosen := r.offer(ctx, "", od, flows)
			if chosen {
				top = od.Cands[i] // with the values the owner gave, if any
			}
			r.res.Chosen, disagreed = chosen, !chosen
			return chosen
		}
		// doubted settles a doubt of the values the matcher read: by the
		// route check first (planned again over the flow's screens, the
		// walk reads the values itself, and its own doubts, valueDoubt,
		// still bar them), else by the owner
		doubted := func() {
			if c, ok := r.routeCheck(ctx, semantic.Decision{}, []intent.Candidate{top}, flows); ok {
				top, routed = c, true
				return
			}
			askTop()
		}
		if name, v, ok := runOnValue(g, said, top.Slots); ok {
			// the value ran on over another requirement of the command
			// ("add event dinner on july 14, remind me 30 min before" as
			// the title of a flow that only names the event): typing it
			// would do half of what was asked, so the owner decides
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed on its own: the value %q for {%s} runs on over more words than its example, and over a date, time or number it never had or words the command does not set apart", g.Name, privacy.Redact(v, r.secrets, false), name)})
			doubted()
		} else if name, ok := unnamedValue(g, r.res.Command, top.Slots); ok {
			// which words are the name is a guess ("make the jotter text 90
			// percent" against "create a jotter page named {title}")
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed on its own: the command gives {%s} without naming it as the flow did", g.Name, name)})
			doubted()
		} else if name, ok := fileInValue(g, r.res.Command, top.Slots); ok {
			// a file named among the words typed: something to attach or
			// open, not text
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed on its own: the value for {%s} names a file among other words", g.Name, name)})
			doubted()
		} else if name, ok := misplacedValue(g, said, top.Slots); ok {
			// an option's word in a typed value, or a picked option with
			// words it lacks: the slots were drawn in the wrong places
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed on its own: the value for {%s} crosses an option of a choice step", g.Name, name)})
			doubted()
		} else if relied, ok := r.reliedOption(ctx, g, top); ok {
			// an option the flow found already chosen, which the command
			// replaces with another ("by rating" for "by cuisine")
			r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed on its own: it relied on %q already chosen, and the command names something else in its place", g.Name, r.private(relied))})
			doubted()
		} else if r.sem != nil {
			// the lexical match must also mean what the command means
			// with its typos read as the matcher read them: a model embeds a
			// misspelt word far from the right one
			said := cmp.Or(top.Corrected, said)
			ok, cos, err := r.sem.Agrees(ctx, privacy.Redact(said, r.secrets, false), label, top, g)
			if rewritten, _, _, _, named := anchorsOf(said, g, nil); err == nil && !ok && named && rewritten != said {
				// another option than the flow learned ("daily planner"
				// for a flow that picked "Yearly planner") is far from its texts
				// by the model's measure: compare the command as it reads
				// with the learned option (anchor.go, rule 2)
				ok, cos, err = r.sem.Agrees(ctx, privacy.Redact(rewritten, r.secrets, false), label, top, g)
			}
			if err != nil {
				r.emit(event.Log, event.LogInfo{Level: "warn", Text: "flow matching: embeddings unavailable, the lexical match stands: " + err.Error()})
			}
			if !ok {
				sm = &event.SemanticMatch{Model: r.sem.Model(), Cosine: cos,
					Reason: fmt.Sprintf("flow %d: lexical %.3f, but the model finds it far from the command (cosine %.3f)", top.FlowID, top.Score, cos)}
				sm.Chosen = askTop()
				r.res.Semantic = sm
			}
		}
	}
	f := flows[top.FlowID]
	fm := event.FlowMatch{FlowID: top.FlowID, Score: top.Score, Threshold: r.cfg.ReplayThreshold, Slots: top.Slots, Semantic: sm, Anchor: anchorText}
	if f != nil {
		fm.Name = f.Name
	}
	r.res.Score = top.Score
	if f == nil || (top.Score < r.cfg.ReplayThreshold && !promoted && !anchoredTo && !routed && !r.res.Chosen) || disagreed {
		r.emit(event.FlowMatched, fm)
		return nil, nil
	}
	top.Slots = splitSlots(f, top.Slots)
	if namesRead {
		top.Slots = asWritten(top.Slots, r.res.Command)
	}
	if name, ok := unknownChoice(f, r.res.Command, top.Slots, r.byMeaning(ctx)); ok && opt.FlowID == 0 {
		// "add the holidays of Atlantis": no option the flow knows
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed: the command names no option it knows for {%s}", f.Name, name)})
		r.emit(event.FlowMatched, fm)
		return nil, nil
	}
	if words, ok := unmetCondition(f, said); ok && opt.FlowID == 0 && !r.res.Chosen {
		// "set the theme to light but only at night": the flow sets it
		// for every hour
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed: the command restricts it (%s), which the flow never says", f.Name, r.private(strings.Join(words, " ")))})
		r.emit(event.FlowMatched, fm)
		return nil, nil
	}
	if place, ok := r.otherPlace(ctx, texts, top.Slots); ok && opt.FlowID == 0 && !r.res.Chosen {
		// "… on Chirper": another app than the one in front (unless the
		// owner chose the flow for these words)
		r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q not replayed: the command says to do it in %q, which this app's screens and flows never name", f.Name, r.private(place))})
		r.emit(event.FlowMatched, fm)
		return nil, nil
	}
	if r.picks == nil && !routed {
		// an option tap that is no slot, whose other option the command
		// names ("daily planner" for a flow that picked "Yearly planner"): the
		// replay taps the option named, never the learned one
		if _, _, picks, _, ok := anchorsOf(said, f, nil); ok {
			r.picks = picks
		}
	}
	top.Slots = tidySlots(f, r.res.Command, top.Slots) // "rename it to beach pls", "bob's contact info", "555 123 4567"
	fm.Replay, fm.Slots = true, top.Slots
	r.emit(event.FlowMatched, fm)
	r.slots = top.Slots
	r.res.FlowID, r.res.FlowName, r.res.Matched, r.res.Slots, r.res.Promoted, r.res.Anchored, r.res.Routed = f.ID, f.Name, true, top.Slots, promoted, anchoredTo, routed
	return f, nil
}

// ambiguityMargin is how much the best flow must beat a second one that
// also reaches the replay threshold to be replayed without asking. On
// the development and tuning sets (testdata/commands.jsonl, frozen
// tune, tune2, tune3) one command had two flows within 0.06 of each
// other, and its replay was the wrong flow.
const ambiguityMargin = 0.05

// knownChoices returns cands without the flows whose choice slot the
// command fills with no option the flow knows ("call 112" against "call
// {contact}", learned over the contact rows): such a flow cannot be
// replayed for the command, so it must not hide one ranked below it that
// can ("call 112" itself).
func (r *run) knownChoices(ctx context.Context, cands []intent.Candidate, flows map[int64]*knowledge.Flow) []intent.Candidate {
	out := cands[:0:0]
	for _, c := range cands {
		if f := flows[c.FlowID]; f != nil {
			if name, unknown := unknownChoice(f, r.res.Command, splitSlots(f, c.Slots), r.byMeaning(ctx)); unknown {
				r.emit(event.Log, event.LogInfo{Level: "info", Text: fmt.Sprintf("flow %q set aside: the command names no option it knows for {%s}", f.Name, name)})
				continue
			}
		}
		out = append(out, c)
	}
	return out
}

// byMeaning is pickByMeaning bound to ctx, nil without an embedding
// model.
func (r *run) byMeaning(ctx context.Context) func([]string) int {
	if r.sem == nil {
		return nil
	}
	return func(labels []string) int { return r.pickByMeaning(ctx, labels) }
}

// splitSlots is intent.SplitAdjacent over f's template and slot examples:
// slots as a replay of f would fill them.
func splitSlots(f *knowledge.Flow, slots map[string]string) map[string]string {
	examples := map[string]string{}
	for _, sl := range f.Slots {
		examples[sl.Name] = sl.Example
	}
	return intent.SplitAdjacent(f.Intent, slots, examples)
}

// typedValues lists, quoted, what flow f would type for a command whose
// candidate slots are slots: the value of each slot an input step types,
// in step order (a password slot never: it is asked for at replay).
func typedValues(f *knowledge.Flow, slots map[string]string) []string {
	slots = splitSlots(f, slots)
	var out []string
	for _, st := range f.Steps {
		if name, ok := knowledge.SlotRef(st.Text); ok && st.Action == device.Input && name != PasswordSlot && slots[name] != "" {
			out = append(out, strconv.Quote(slots[name]))
		}
	}
	return out
}

// pickedOptions lists, quoted, the option each choice slot of flow f
// would pick for command, whose candidate slots are slots (pickOption
// without the model: named by the command, else by the slot's value), in
// step order; a slot that names none is left out (the replay would stop
// there, never guess).
func pickedOptions(f *knowledge.Flow, command string, slots map[string]string) []string {
	slots = splitSlots(f, slots)
	var out []string
	for _, st := range f.Steps {
		name, ok := st.ChoiceSlot()
		if !ok {
			continue
		}
		i := pickByCommand(st.Choices, command)
		if i < 0 {
			i = pickChoice(st.Choices, slots[name])
		}
		if i >= 0 {
			out = append(out, strconv.Quote(st.Choices[i]))
		}
	}
	return out
}

// poolOf lists the healthy flows of pkg ("" for every app), by ID: the
// flows embeddings may retrieve by meaning (semantic.Input.Pool).
func poolOf(flows map[int64]*knowledge.Flow, pkg string) []int64 {
	var ids []int64
	for id, f := range flows {
		if f.Healthy() && (pkg == "" || f.Package == pkg) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// semanticShown is how many candidates a SemanticMatch event lists.
const semanticShown = 5

// semanticCandidatesOf lists the candidates of d with the highest
// cosines, highest first, for the event and the result.
func semanticCandidatesOf(d semantic.Decision) []event.SemanticCandidate {
	out := make([]event.SemanticCandidate, 0, len(d.Cands))
	for i, c := range d.Cands {
		sc := event.SemanticCandidate{FlowID: c.FlowID, Lexical: c.Score, Cosine: d.Cosine[i], Vetoes: c.Vetoes, Missing: c.Missing, Unmatched: c.Unmatched, FlowUnmatched: c.FlowUnmatched, Slots: c.Slots, Substituted: c.Substituted}
		if i < len(d.Barred) {
			sc.Barred = d.Barred[i]
		}
		out = append(out, sc)
	}
	slices.SortStableFunc(out, func(a, b event.SemanticCandidate) int { return cmp.Compare(b.Cosine, a.Cosine) })
	if len(out) > semanticShown {
		out = out[:semanticShown]
	}
	return out
}

// similarFlowGuides turns saved flows that resemble the command (below
// the replay threshold) into instruction lists for the planner: the
// virtual-assistant seed's "find similar flows" and UICOMPASS's guide.
// With an embedder, flows close in meaning fill the places the lexical
// ranking left (guides.go).
func (r *run) similarFlowGuides(ctx context.Context) []string {
	m, flows, err := r.e.matcher.get(ctx, r.e.store, r.e.appLabels)
	if err != nil {
		return nil
	}
	var out []string
	picked := map[int64]bool{}
	for _, c := range m.Rank(r.res.Command, r.res.Package, maxGuides) {
		if f := flows[c.FlowID]; f != nil && c.Score >= 0.3 {
			out = append(out, guideFromFlow(f, 0))
			picked[c.FlowID] = true
		}
	}
	return append(out, r.closeFlowGuides(ctx, flows, picked, maxGuides-len(out))...)
}

// guideFromFlow writes a flow's steps from index from on as a numbered
// instruction list.
func guideFromFlow(f *knowledge.Flow, from int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Saved flow %q (%s):", f.Name, f.Intent)
	for i := from; i < len(f.Steps); i++ {
		s := f.Steps[i]
		fmt.Fprintf(&b, " %d. %s", i+1, describeStep(s))
	}
	return b.String()
}

// bridged reports whether the flow replays on the model's word alone: the
// lexical matcher left the command below the threshold, embeddings promoted
// it (daemon/semantic) or the route check confirmed it (routecheck.go),
// and the owner was not asked. Such a command is not
// kept among the flow's past commands even when the replay reaches the
// goal: the goal says the route still works, not that the command meant
// it, and a kept command is lexical evidence for every later match (a
// wrong promotion would make more).
func (r *run) bridged() bool {
	if (r.res.Anchored || r.res.Routed) && !r.res.Chosen {
		return true
	}
	sm := r.res.Semantic
	return sm != nil && sm.Promoted && !sm.Chosen && !r.res.Chosen
}
