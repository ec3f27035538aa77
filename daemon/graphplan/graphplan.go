// Package graphplan is the planner that needs no model: it reaches the
// goal of a command by planning over the knowledge graph (explored and
// learned transitions, element documentation) and the current screen.
//
// How it decides, per step:
//
//  1. The command is split into terms (stems mapped to generic UI concepts,
//     so "remove" matches "Delete") and values (quoted text, numbers, times).
//     Each term is weighted by its inverse document frequency over the
//     app's elements, so rare words ("snooze") count more than common ones
//     ("ok").
//  2. Every operation on the current screen is scored by the weight of the
//     command terms its element covers that earlier steps have not covered
//     yet — strict match first (the element's label contains a whole
//     command phrase), then term match (PromptRPA §4.3, strict-then-semantic
//     grounding) — divided by 1 + penalty, where the penalty is AutoTask's
//     repetition penalty (10 for an operation already done) plus the
//     backtracking penalties the checks gave (AutoTask §4.3). A small
//     similarity term breaks ties (AutoTask's tie-breaking score).
//  3. Elements on other screens of the UI transition graph are scored the
//     same way and reached through the cheapest known path (edge cost
//     1/(1+ln count) plus failures; UICOMPASS §3.3 simulated paths); the
//     path's first step competes with the on-screen operations, discounted
//     by 0.85 per step.
//  4. Values are typed into editable fields (the field whose label is
//     nearest to the value's words in the command first); a form with typed
//     values is committed with its confirming button (save / OK / done /
//     send / add). A toggle is only tapped when its state differs from the
//     command's polarity (turn on / off).
//  5. The command is complete when every matchable term is covered and
//     every value typed (and committed): the planner stops there, never
//     overshooting. Navigation words (open, view, check, page, tab) guide
//     but are never waited for; a command that only asks to see something
//     is done once the last relevant step shows the rest of what it names.
//     A confirmation that the last relevant step opened is accepted; a
//     toggle realises the command's add / remove, on / off; a search
//     command types its value into the search field, then opens the result
//     carrying it when the command asks to ("… and open it").
//     When nothing matches it scrolls once to reveal more, then gives up
//     with a failure rather than wandering.
//  6. Screens the graph records but no known path reaches are taken to be
//     one scroll down a reachable screen of the same activity (not
//     dialogs), at a discount: exploration rarely records every scroll
//     position of a settings list.
//
// Confidence reports how clearly the chosen operation won, for a
// composite planner that asks an LLM only when the graph planner is unsure
// (UICOMPASS's adaptive replanning).
//
// The package reads the knowledge store and the screen; it must not act on
// the device (the engine does) or write knowledge (the engine records).
package graphplan

import (
	"container/heap"
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Tuning constants. MinScore: below it nothing on screen or in the graph
// is relevant; PathDiscount: per-step discount of a target reached through
// the graph; RepeatPenalty: AutoTask §4.3's repetition penalty.
const (
	MinScore     = 0.12
	PathDiscount = 0.85
	// ConceptWeight scales synonym concepts against literal words: an
	// exact word match ("save" on "Save") is stronger evidence than a
	// synonym ("OK" for save).
	ConceptWeight = 0.6
	// UnknownWeight scales words of the command that no element of the app
	// carries, in the denominator of coverage.
	UnknownWeight = 0.5
	RepeatPenalty = 10
	maxDepth      = 8
	maxScrolls    = 2
)

// debugGraph prints the candidates of every step to stderr
// (WAYFINDER_DEBUG_GRAPH=1).
var debugGraph = os.Getenv("WAYFINDER_DEBUG_GRAPH") != ""

// Planner is the graph planner. Safe for concurrent use across runs.
type Planner struct {
	store *knowledge.Store

	mu      sync.Mutex
	graphs  map[int64]*appGraph
	run     *runState
	exclude map[string]bool
}

// EdgeKey identifies a transition for Exclude: the fingerprints of its
// screens, its action and its element's descriptor key ("" for global
// actions).
func EdgeKey(fromPrint, action, elementKey, toPrint string) string {
	return fromPrint + "|" + action + "|" + elementKey + "|" + toPrint
}

// Exclude hides exploration transitions with these keys (EdgeKey) from
// planning, e.g. the edges of a task's own demonstration during an
// evaluation. Learned transitions are never hidden. It replaces the
// previous set and drops cached graphs.
func (p *Planner) Exclude(keys map[string]bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.exclude = keys
	p.graphs = map[int64]*appGraph{}
}

// New returns a graph planner over the store's knowledge.
func New(store *knowledge.Store) *Planner {
	return &Planner{store: store, graphs: map[int64]*appGraph{}}
}

// Name implements daemon.Planner.
func (p *Planner) Name() string { return "graph" }

// Invalidate drops the cached graph of an app (after an import).
func (p *Planner) Invalidate(appID int64) {
	p.mu.Lock()
	delete(p.graphs, appID)
	p.mu.Unlock()
}

// cmdTerm is one command term and its weight.
type cmdTerm struct {
	t      term
	weight float64
	// nav: a word that only says "go there and look" (open, view, check,
	// page, tab): it may guide the way but the command does not wait for
	// it to be covered
	nav bool
}

// NavWeight scales navigation words (open / view / show / check, page /
// tab / screen): "open the clock page" is done on the Clock page, not
// after tapping something labelled "Open" or a tab.
const NavWeight = 0.3

// navTerms are the terms of the generic vocabulary's navigation groups
// (intent concepts "open" and "page"), literal stems included.
var navTerms = func() map[term]bool {
	out := map[term]bool{"@open": true, "@page": true}
	for _, id := range []string{"open", "page"} {
		for _, s := range intent.Surfaces(id) {
			for _, t := range termsOf(s) {
				if !strings.HasPrefix(string(t), "@") {
					out[t] = true
				}
			}
		}
	}
	return out
}()

// value is a value of the command that must be typed or selected.
type value struct {
	text    string
	quoted  bool   // quoted values are typed; others only into a field whose label fits
	context []term // terms just before the value ("title", "named")
	done    bool
}

// runState is what the planner keeps during one command.
type runState struct {
	cmd       string
	terms     []cmdTerm
	phrases   []string // normalised multi-word chunks of the command
	values    []value
	covered   map[term]bool
	polarity  int
	typed     int
	committed bool
	scrolls   int
	lastPrint string
	// confirmedDialog: the positive button of a final dialog was tapped
	confirmedDialog bool
	reopened        int     // history length at the last reopenInDialog
	unknown         float64 // weight of command words no element of the app carries
	search          bool    // the command asks to search: names go into search fields
	// afterSearch: the terms of what the command asks to do with a search
	// result ("… and open it", "… and play it"); searched: the value typed
	// into a search field; resultOpened: a result carrying it was tapped
	afterSearch  []term
	searched     string
	resultOpened bool
	// viewing: the command only asks to see something (no action verb but
	// open / view / check)
	viewing    bool
	configLike bool // the command changes an option (on/off/change/increase…)
	seen       int  // history length already folded into coverage
}

func (p *Planner) state(st *daemon.PlanState) *runState {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil || p.run.cmd != st.Command || len(st.History) < p.run.seen {
		p.run = newRunState(st.Command, st.AppLabel)
	}
	return p.run
}

func newRunState(cmd, appLabel string) *runState {
	rs := &runState{cmd: cmd, covered: map[term]bool{}, polarity: polarity(cmd)}
	u := intent.Understand(cmd)
	for _, c := range u.Verbs {
		rs.search = rs.search || c == "search"
		switch c {
		case "on", "off", "edit", "increase", "decrease":
			rs.configLike = true
		}
	}
	for _, v := range u.Values {
		if v.Kind == intent.KindWord && !rs.search {
			continue // proper-noun-like words are matched as terms, not typed
		}
		ctx := termsOf(cmd[:v.Start])
		if len(ctx) > 2 {
			ctx = ctx[len(ctx)-2:]
		}
		rs.values = append(rs.values, value{text: v.Text, quoted: v.Kind == intent.KindQuoted, context: ctx})
	}
	rs.viewing = viewingCommand(cmd)
	if rs.search {
		for _, v := range u.Values {
			tail := cmd[v.End:]
			if tu := intent.Understand(tail); len(tu.Verbs) > 0 {
				rs.afterSearch = termsOf(tail)
			}
			break
		}
	}
	seen := map[term]bool{}
	appWords := map[term]bool{}
	for _, tm := range termsOf(appLabel) {
		appWords[tm] = true
	}
	for _, tm := range termsOf(commandWithoutValues(cmd, u)) {
		if !seen[tm] && !isPolarity(tm) {
			seen[tm] = true
			w := 1.0
			if appWords[tm] {
				w = 0.3 // words naming the app mostly identify it ("in Calendar")
			}
			nav := navTerms[tm]
			if nav {
				w *= NavWeight
			}
			rs.terms = append(rs.terms, cmdTerm{t: tm, weight: w, nav: nav})
		}
	}
	rs.phrases = phrases(cmd)
	return rs
}

// commandWithoutValues blanks the quoted values of a command: they are
// typed, not matched against labels. Numbers stay: "5 minutes" is often a
// label to pick. A participle that introduces a quoted value ("called",
// "named", "titled" + 'X') is blanked too: it names the value, it is not
// an action to find on screen.
func commandWithoutValues(cmd string, u intent.Command) string {
	b := []byte(cmd)
	blank := func(from, to int) {
		for i := from; i < to && i < len(b); i++ {
			b[i] = ' '
		}
	}
	for _, v := range u.Values {
		if v.Kind != intent.KindQuoted {
			continue
		}
		blank(v.Start, v.End)
		before := strings.TrimRight(cmd[:v.Start], " '\"“‘«`")
		if i := strings.LastIndexAny(before, " \t"); i >= 0 || before != "" {
			w := before[i+1:]
			if len(w) > 3 && strings.HasSuffix(strings.ToLower(w), "ed") {
				blank(i+1, len(before))
			}
		}
	}
	return string(b)
}

func isPolarity(t term) bool { return t == "@on" || t == "@off" }

// phrases returns the command's word n-grams (2-4 words), normalised, for
// strict matching against element labels.
func phrases(cmd string) []string {
	var words []string
	for _, t := range intent.Tokenize(cmd) {
		if t.Kind == intent.KindWord || t.Kind == intent.KindNumber {
			words = append(words, t.Text)
		}
	}
	var out []string
	for n := 4; n >= 2; n-- {
		for i := 0; i+n <= len(words); i++ {
			out = append(out, strings.Join(words[i:i+n], " "))
		}
	}
	return out
}

// candidate is one scored operation.
type candidate struct {
	action    string
	element   int
	text      string
	direction string
	score     float64
	reason    string
	covers    []term
	via       int // path length: 0 for on-screen
}

// Next implements daemon.Planner.
func (p *Planner) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	rs := p.state(st)
	g, err := p.graph(ctx, st)
	if err != nil {
		return daemon.Decision{}, err
	}
	p.fold(rs, st)
	rs.reopenInDialog(st)
	weights := g.weights(rs, st)
	pending := rs.pendingValues()
	if c, ok := rs.openResult(st); ok {
		return decision(c, 0.8), nil
	}
	if pending == 0 && rs.inView(st, weights) {
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: 0.8,
			Reason: "the screen the command asked to see is shown: the rest of its words are on it"}, nil
	}
	cands := p.screenCandidates(rs, st, weights)
	cands = append(cands, p.graphCandidates(ctx, rs, st, g, weights)...)
	// after scoring: it covers toggles already in the wanted state
	remaining := rs.remaining(weights)
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].score != cands[j].score {
			return cands[i].score > cands[j].score
		}
		if cands[i].via != cands[j].via {
			return cands[i].via < cands[j].via
		}
		return cands[i].element < cands[j].element
	})

	// a committed form ends the command unless most of it is still to do
	if pending == 0 && rs.committed && remaining <= 0.5*totalWeight(rs, weights) {
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: confidence(remaining, rs),
			Reason: "the typed values are committed"}, nil
	}
	// once most of the command is done, only a clearly relevant operation
	// may continue it (no overshoot)
	minScore := MinScore
	if total := totalWeight(rs, weights); total > 0 && remaining < 0.5*total {
		minScore = 2 * MinScore
	}
	var best *candidate
	if len(cands) > 0 && cands[0].score >= minScore {
		best = &cands[0]
	}
	// typed values waiting for a commit, once nothing else of the command
	// is left on this screen
	if pending == 0 && rs.typed > 0 && !rs.committed && (best == nil || best.via > 0) {
		if c, ok := confirmButton(st); ok {
			rs.committed = true
			return decision(c, 0.9), nil
		}
	}
	if debugGraph {
		for i, c := range cands {
			if i >= 6 {
				break
			}
			label := ""
			if c.element >= 0 && c.element < len(st.Elements) {
				label = st.Elements[c.element].Label
			}
			fmt.Fprintf(os.Stderr, "graphplan: step %d cand %.3f %s %q via=%d covers=%v (%s)\n", st.Step, c.score, c.action, label, c.via, c.covers, c.reason)
		}
		fmt.Fprintf(os.Stderr, "graphplan: terms=%v weights=%v covered=%v values=%+v\n", rs.terms, weights, rs.covered, rs.values)
	}
	// the command's last operation opened a dialog asking to confirm it:
	// answer with its positive button (OK / Yes / Allow / Save), then stop.
	// When the step that opened it did part of the command, accept it even
	// if something elsewhere in the graph still matches: leaving by its
	// negative button would undo that step.
	if (best == nil || (best.via > 0 && rs.lastStepCovered(st))) && pending == 0 && rs.coveredAny() &&
		(daemon.IsDialog(st.Screen) || confirmation(st)) && !rs.confirmedDialog {
		if c, ok := positiveButton(st); ok {
			rs.confirmedDialog = true
			return decision(c, 0.7), nil
		}
	}
	if best == nil && pending == 0 && (remaining < 1e-9 || len(st.History) > 0) && rs.coveredAny() {
		// changes made on a form with a save button are kept only once saved
		if !rs.committed && actedHere(st) && !daemon.IsDialog(st.Screen) {
			if c, ok := saveButton(st); ok {
				rs.committed = true
				return decision(c, 0.7), nil
			}
		}
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: confidence(remaining, rs),
			Reason: "every term of the command that the app knows is covered"}, nil
	}
	if best == nil && rs.configLike && !rs.coveredAny() {
		// nothing the app shows matches what is left: an option nobody
		// explored is most often in the app's settings (a generic UI
		// convention), so go there first, then scroll through them
		if c, ok := settingsHub(st); ok && !inSettings(st) {
			return decision(c, 0.3), nil
		}
	}
	if best == nil {
		// nothing relevant: reveal more of the screen, then give up
		if rs.scrolls < maxScrolls {
			if i := scrollable(st); i >= 0 || len(st.Elements) > 0 {
				rs.scrolls++
				return daemon.Decision{Action: device.Scroll, Element: i, Direction: device.Forward, Confidence: 0.2,
					Reason: "nothing on this screen matches the command; scrolling to reveal more"}, nil
			}
		}
		if rs.coveredAny() && pending == 0 {
			return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: confidence(remaining, rs),
				Reason: "no further element matches; the matched part of the command is done"}, nil
		}
		return daemon.Decision{Action: daemon.ActFail, Element: -1, Confidence: 0,
			Reason: "no element on this screen or in the known UI graph matches the command"}, nil
	}
	conf := 1.0
	if len(cands) > 1 && best.score > 0 {
		conf = math.Min(1, (best.score-cands[1].score)/best.score+0.3)
	}
	return decision(*best, conf), nil
}

func decision(c candidate, conf float64) daemon.Decision {
	return daemon.Decision{Action: c.action, Element: c.element, Text: c.text, Direction: c.direction,
		Reason: c.reason, Confidence: conf, Mode: "graph"}
}

func confidence(remaining float64, rs *runState) float64 {
	if remaining < 1e-9 {
		return 0.9
	}
	return 0.5
}

// totalWeight is the weight of the command's terms the command waits
// for (navigation words left out).
func totalWeight(rs *runState, w map[term]float64) float64 {
	t := 0.0
	for _, ct := range rs.terms {
		if !ct.nav {
			t += w[ct.t]
		}
	}
	return t
}

// remaining is the weight of the terms the command still waits for.
func (rs *runState) remaining(w map[term]float64) float64 {
	r := 0.0
	for _, ct := range rs.terms {
		if !rs.covered[ct.t] && !ct.nav {
			r += w[ct.t]
		}
	}
	return r
}

func (rs *runState) pendingValues() int {
	n := 0
	for _, v := range rs.values {
		if !v.done {
			n++
		}
	}
	return n
}

// coveredAny reports whether some term of the command (not merely of the
// labels tapped on the way) is covered, or a value typed.
func (rs *runState) coveredAny() bool {
	if rs.typed > 0 {
		return true
	}
	for _, v := range rs.values {
		if v.done {
			return true
		}
	}
	for _, ct := range rs.terms {
		if rs.covered[ct.t] && !ct.nav {
			return true
		}
	}
	return false
}

// viewingCommand reports whether cmd is one clause that starts with a
// verb of looking (open / view / check / show / go to: the generic
// vocabulary's "open" concept), e.g. "view favorite contacts".
func viewingCommand(cmd string) bool {
	lc := strings.ToLower(cmd)
	if strings.Contains(lc, " and ") || strings.ContainsAny(lc, ",;") {
		return false
	}
	words := strings.Fields(lc)
	if len(words) > 2 {
		words = words[:2]
	}
	u := intent.Understand(strings.Join(words, " "))
	return len(u.Verbs) > 0 && u.Verbs[0] == "open"
}

// inView reports, for a command that only asks to see something, whether
// the last step did part of it and everything else it names is on the
// screen now ("view favorite contacts" after tapping Favorites, which
// lists contacts): going on would leave the screen asked for.
func (rs *runState) inView(st *daemon.PlanState, w map[term]float64) bool {
	if !rs.viewing || !rs.lastStepCovered(st) {
		return false
	}
	shown := map[term]bool{}
	for i := range st.Elements {
		for _, t := range elementTerms(&st.Elements[i], "") {
			shown[t] = true
		}
	}
	for _, ct := range rs.terms {
		if !ct.nav && w[ct.t] > 0 && !rs.covered[ct.t] && !shown[ct.t] {
			return false
		}
	}
	return true
}

// openResult taps the search result that carries the searched value when
// the command asks to do something with it ("search 'X' and open it"):
// the tap is that action, so the command's words after the value are
// covered by it.
func (rs *runState) openResult(st *daemon.PlanState) (candidate, bool) {
	if rs.searched == "" || len(rs.afterSearch) == 0 || rs.resultOpened {
		return candidate{}, false
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind == screen.KindInput || e.Disabled || isSearchField(e) || !containsFold(e.Label, rs.searched) {
			continue
		}
		if penalty(st, device.Tap, screen.Describe(st.Screen, e.NodeID)) > 0 {
			continue
		}
		rs.resultOpened = true
		for _, t := range rs.afterSearch {
			rs.covered[t] = true
		}
		return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("open the search result %q", e.Label)}, true
	}
	return candidate{}, false
}

// isToggle reports whether a tapped element switches a state: checkable,
// or labelled "toggle" (the platform's convention for such buttons).
func isToggle(d screen.Descriptor) bool {
	return d.Checkable || strings.Contains(strings.ToLower(d.Label()+" "+d.Desc+" "+d.ResourceID), "toggle")
}

// targetTerms returns the terms of an acted-on element: its label,
// content-desc and resource-id words.
func targetTerms(d screen.Descriptor) []term {
	return termsOf(d.Label() + " " + d.Desc + " " + d.ResourceID)
}

// isSetVerb reports whether t is, or is a word of, the add / delete / on /
// off concepts.
func isSetVerb(t term) bool {
	for _, c := range termsOf(strings.TrimPrefix(string(t), "@")) {
		switch c {
		case "@add", "@delete", "@on", "@off":
			return true
		}
	}
	return false
}

// lastStepCovered reports whether the last step was a tap that covered a
// word of the command (not a navigation word) and led to this screen.
func (rs *runState) lastStepCovered(st *daemon.PlanState) bool {
	n := len(st.History)
	if n == 0 {
		return false
	}
	h := st.History[n-1]
	if h.Action != device.Tap || !h.OK || h.Backtracked || h.Undo || h.After != st.Print || h.Screen == st.Print {
		return false
	}
	tapped := map[term]bool{}
	for _, t := range targetTerms(h.Target) {
		tapped[t] = true
	}
	for _, ct := range rs.terms {
		if !ct.nav && tapped[ct.t] {
			return true
		}
	}
	return false
}

// fold updates coverage from the steps taken since the last call.
func (p *Planner) fold(rs *runState, st *daemon.PlanState) {
	for ; rs.seen < len(st.History); rs.seen++ {
		h := st.History[rs.seen]
		if h.Backtracked || h.Undo || !h.OK {
			continue
		}
		switch h.Action {
		case device.Input:
			for i := range rs.values {
				if !rs.values[i].done && strings.EqualFold(rs.values[i].text, h.Text) {
					rs.values[i].done = true
					rs.typed++
					break
				}
			}
			// the field typed into is part of what the command asked
			// ("search …" is done by typing into Search)
			field := termsOf(h.Target.Label() + " " + h.Target.Desc + " " + h.Target.Hint + " " + h.Target.ResourceID)
			for _, t := range field {
				rs.covered[t] = true
				if t == "@search" && h.Text != "" {
					rs.searched = h.Text
				}
			}
		case device.Tap, device.LongPress, daemon.ActEnsureOn, daemon.ActEnsureOff:
			for _, t := range targetTerms(h.Target) {
				rs.covered[t] = true
			}
			if isToggle(h.Target) {
				// a toggle is the add / remove, on / off the command asks
				// for ("add Alice to favorites" → "Toggle favorite")
				for _, ct := range rs.terms {
					if isSetVerb(ct.t) {
						rs.covered[ct.t] = true
					}
				}
			}
			for i := range rs.values {
				if !rs.values[i].done && containsFold(h.Target.Label(), rs.values[i].text) {
					rs.values[i].done = true
				}
			}
			if rs.typed > 0 && isConfirm(h.Target.Label()) {
				rs.committed = true
			}
		}
	}
}

// reopenInDialog handles a tap that opened a dialog of choices ("Font
// size" opens Small / Medium / Large): the terms the tap covered that the
// dialog's options also carry are the choice still to make, so they are
// uncovered again for the options.
func (rs *runState) reopenInDialog(st *daemon.PlanState) {
	n := len(st.History)
	if n == 0 || rs.reopened == n || !daemon.IsDialog(st.Screen) {
		return
	}
	last := st.History[n-1]
	if last.Action != device.Tap || last.After != st.Print || last.Screen == st.Print {
		return
	}
	rs.reopened = n
	tapped := map[term]bool{}
	for _, t := range targetTerms(last.Target) {
		tapped[t] = true
	}
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind != screen.KindCheckbox && e.Kind != screen.KindButton {
			continue
		}
		for _, t := range elementTerms(e, "") {
			if tapped[t] && !strings.HasPrefix(string(t), "@") {
				delete(rs.covered, t)
			}
		}
	}
}

// elementTerms returns the terms an element offers: its label, hint,
// resource-id words and stored documentation.
func elementTerms(e *screen.Element, doc string) []term {
	return termsOf(e.Label + " " + e.Hint + " " + e.Resource + " " + doc)
}

// screenCandidates scores the operations on the current screen.
func (p *Planner) screenCandidates(rs *runState, st *daemon.PlanState, w map[term]float64) []candidate {
	var out []candidate
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Disabled {
			continue
		}
		d := screen.Describe(st.Screen, e.NodeID)
		switch e.Kind {
		case screen.KindInput:
			if v := rs.nextValueFor(e); v >= 0 {
				// a field whose label fits the words before the value wins;
				// a dialog's or the focused field is the natural place; a
				// field elsewhere on a busy screen is a weak guess
				sc := 0.2 + 0.5*overlap(rs.values[v].context, elementTerms(e, ""))
				if e.Focused || daemon.IsDialog(st.Screen) {
					sc += 0.25
				}
				if rs.search && isSearchField(e) {
					sc += 0.5 // the command asks to search: this is where
				}
				if e.Value == rs.values[v].text {
					continue
				}
				out = append(out, candidate{action: device.Input, element: i, text: rs.values[v].text,
					score: sc / (1 + penalty(st, device.Input, d)), reason: fmt.Sprintf("type %q into %q", rs.values[v].text, e.Label)})
			}
			continue
		case screen.KindScroll:
			continue
		}
		sc, covers := rs.match(e.Label+" "+e.Resource, elementTerms(e, ""), w)
		if sc <= 0 {
			continue
		}
		action := device.Tap
		if e.Kind == screen.KindCheckbox && rs.polarity != 0 {
			// set the toggle to the command's state: the engine taps it only
			// when it differs, and the flow keeps "switch on/off"
			action = daemon.ActEnsureOff
			if rs.polarity > 0 {
				action = daemon.ActEnsureOn
			}
		}
		if e.Kind == screen.KindText {
			sc *= 0.8 // not clickable on its own; the tap may still reach its row
			if len([]rune(e.Label)) > 60 {
				sc *= 0.3 // a paragraph explains; it is rarely what a step taps
			}
		}
		sc /= 1 + penalty(st, action, d)
		out = append(out, candidate{action: action, element: i, score: sc, covers: covers,
			reason: fmt.Sprintf("%q matches the command", e.Label)})
	}
	return out
}

// nextValueFor returns the index of the pending value that fits field e
// best, or -1. Quoted values go into any field (the best-labelled one
// first); numbers, times and dates only into a field whose label shares a
// word with the words before the value ("resize to width 1000"), since
// they are more often picked from a list than typed.
func (rs *runState) nextValueFor(e *screen.Element) int {
	best, bestScore := -1, -1.0
	for i, v := range rs.values {
		if v.done {
			continue
		}
		s := overlap(v.context, elementTerms(e, ""))
		if !v.quoted && s == 0 && !(rs.search && isSearchField(e)) {
			continue
		}
		if s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// match scores how much of the command's uncovered weight an element's
// terms cover, with a bonus for a strict phrase match.
func (rs *runState) match(label string, terms []term, w map[term]float64) (float64, []term) {
	total := rs.unknown
	for _, ct := range rs.terms {
		total += w[ct.t]
	}
	for _, v := range rs.values {
		if !v.done {
			total += 1
		}
	}
	if total == 0 {
		return 0, nil
	}
	set := map[term]bool{}
	for _, t := range terms {
		set[t] = true
	}
	got := 0.0
	var covers []term
	first := -1 // position of the first uncovered command term
	hitFirst := false
	for i, ct := range rs.terms {
		if rs.covered[ct.t] || w[ct.t] == 0 {
			continue
		}
		if first < 0 {
			first = i
		}
		if set[ct.t] {
			got += w[ct.t]
			covers = append(covers, ct.t)
			hitFirst = hitFirst || i == first
		}
	}
	valueHit := false
	for _, v := range rs.values {
		if !v.done && containsFold(label, v.text) {
			got += 1
			valueHit = true
		}
	}
	if got == 0 {
		return 0, nil
	}
	sc := got / total
	nl := screen.Normalize(label)
	for _, ph := range rs.phrases {
		if strings.Contains(nl, ph) {
			sc += 0.15 // strict match of a whole phrase of the command
			break
		}
	}
	literal := false
	for _, t := range covers {
		literal = literal || !strings.HasPrefix(string(t), "@")
	}
	if !literal && !valueHit {
		sc /= 2 // a synonym alone is weak evidence (strict before semantic)
	}
	// tie-breaks, proportional: the first open term of the command (they
	// tend to name their steps in order), labels made mostly of command
	// words (AutoTask §4.3's tie-breaking score)
	bonus := 0.0
	if hitFirst {
		bonus += 0.1
	}
	if len(set) > 0 {
		bonus += 0.1 * float64(len(covers)) / float64(len(set))
	}
	return sc * (1 + bonus), covers
}

func containsFold(s, sub string) bool {
	return sub != "" && strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

func overlap(a, b []term) float64 {
	if len(a) == 0 {
		return 0
	}
	set := map[term]bool{}
	for _, t := range b {
		set[t] = true
	}
	n := 0
	for _, t := range a {
		if set[t] {
			n++
		}
	}
	return float64(n) / float64(len(a))
}

// penalty is AutoTask's penalty factor of an operation: the repetition
// penalty when it was already done in this run, plus backtracking
// penalties.
func penalty(st *daemon.PlanState, action string, d screen.Descriptor) float64 {
	key := daemon.OperationKey(st.Print, action, d)
	pen := st.Penalties[key]
	for _, h := range st.History {
		if h.Screen == st.Print && h.Action == action && h.Target.Key() == d.Key() && !h.Undo {
			pen += RepeatPenalty
			break
		}
	}
	return pen
}

func scrollable(st *daemon.PlanState) int {
	for i := range st.Elements {
		if st.Elements[i].Kind == screen.KindScroll {
			return i
		}
	}
	return -1
}

// confirmButton finds the button that commits a form on this screen.
func confirmButton(st *daemon.PlanState) (candidate, bool) {
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind == screen.KindButton && !e.Disabled && isConfirm(e.Label+" "+e.Resource) {
			return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("commit the typed values with %q", e.Label)}, true
		}
	}
	return candidate{}, false
}

func isSearchField(e *screen.Element) bool {
	for _, t := range elementTerms(e, "") {
		if t == "@search" {
			return true
		}
	}
	return false
}

// settingsHub finds the way into the app's settings on this screen: an
// element named settings first, else the overflow menu ("More options",
// "⋮"), unless already tried.
func settingsHub(st *daemon.PlanState) (candidate, bool) {
	for pass := 0; pass < 2; pass++ {
		for i := range st.Elements {
			e := &st.Elements[i]
			if e.Kind != screen.KindButton || e.Disabled {
				continue
			}
			hit := false
			for _, t := range elementTerms(e, "") {
				hit = hit || (pass == 0 && t == "set") || (pass == 0 && t == "setting") || (pass == 1 && t == "@settings")
			}
			if hit && penalty(st, device.Tap, screen.Describe(st.Screen, e.NodeID)) == 0 {
				return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("nothing known matches; options like this live in settings: %q", e.Label)}, true
			}
		}
	}
	return candidate{}, false
}

// inSettings reports whether the run already went into settings.
func inSettings(st *daemon.PlanState) bool {
	for _, h := range st.History {
		for _, t := range termsOf(h.Target.Label()) {
			if t == "set" || t == "setting" {
				return true
			}
		}
	}
	return false
}

// confirmation reports whether the screen is a confirmation prompt drawn
// full-screen (permission prompts are): a handful of buttons at most, one
// of them positive, reached by the last step.
func confirmation(st *daemon.PlanState) bool {
	n := len(st.History)
	if n == 0 || st.History[n-1].After != st.Print || st.History[n-1].Screen == st.Print {
		return false
	}
	buttons := 0
	for i := range st.Elements {
		if st.Elements[i].Kind == screen.KindButton || st.Elements[i].Kind == screen.KindCheckbox || st.Elements[i].Kind == screen.KindInput {
			buttons++
		}
	}
	_, ok := positiveButton(st)
	return ok && buttons <= 4
}

// actedHere reports whether the run changed something on the current
// screen or in a dialog it opened: a step taken since the run first came
// to this screen, not undone.
func actedHere(st *daemon.PlanState) bool {
	// a choice picked in a dialog that closed onto this screen ("Theme" →
	// "Light") changed this screen's form, though the screen is new
	if n := len(st.History); n > 0 {
		h := st.History[n-1]
		if h.Action == device.Tap && h.OK && !h.Backtracked && h.Target.Checkable && h.After == st.Print && h.Screen != st.Print {
			return true
		}
	}
	arrived := false
	for _, h := range st.History {
		arrived = arrived || h.Screen == st.Print
		if arrived && h.OK && !h.Backtracked && !h.Undo && h.Action != device.Back && h.Action != device.Scroll {
			return true
		}
	}
	return false
}

// saveButton finds a button named save on this screen (the literal word:
// "OK" or "Done" on a full screen often only closes it).
func saveButton(st *daemon.PlanState) (candidate, bool) {
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind != screen.KindButton || e.Disabled {
			continue
		}
		for _, t := range elementTerms(e, "") {
			if t == "save" && penalty(st, device.Tap, screen.Describe(st.Screen, e.NodeID)) == 0 {
				return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("save the changes made on this screen with %q", e.Label)}, true
			}
		}
	}
	return candidate{}, false
}

// positiveWords label the button that accepts a dialog (generic UI
// vocabulary).
var positiveWords = []string{"ok", "okay", "yes", "allow", "save", "done", "apply", "confirm", "continue", "accept", "set", "delete", "remove", "add", "create"}

// positiveButton finds the button that accepts the dialog on screen.
func positiveButton(st *daemon.PlanState) (candidate, bool) {
	for _, w := range positiveWords {
		for i := range st.Elements {
			e := &st.Elements[i]
			if e.Kind == screen.KindButton && !e.Disabled && strings.EqualFold(strings.TrimSpace(e.Label), w) {
				if penalty(st, device.Tap, screen.Describe(st.Screen, e.NodeID)) > 0 {
					continue
				}
				return candidate{action: device.Tap, element: i, reason: fmt.Sprintf("accept the dialog with %q", e.Label)}, true
			}
		}
	}
	return candidate{}, false
}

func isConfirm(label string) bool {
	for _, t := range termsOf(label) {
		if strings.HasPrefix(string(t), "@") && confirmConcepts[string(t[1:])] {
			return true
		}
	}
	return false
}

// ---- the UI transition graph ----

type gEdge struct {
	to      int64
	action  string
	element int64
	cost    float64
}

type appGraph struct {
	byPrint map[string]int64
	out     map[int64][]gEdge
	elems   map[int64]*knowledge.Element
	onScr   map[int64][]*knowledge.Element
	terms   map[int64][]term // element id -> terms
	df      map[term]int
	n       int
	act     map[int64]string // screen id -> activity
	dialog  map[int64]bool
}

func (p *Planner) graph(ctx context.Context, st *daemon.PlanState) (*appGraph, error) {
	p.mu.Lock()
	g := p.graphs[st.AppID]
	p.mu.Unlock()
	if g != nil && (st.Print == "" || g.byPrint[st.Print] != 0 || len(st.History) == 0) {
		return g, nil
	}
	kg, err := p.store.Graph(ctx, st.AppID)
	if err != nil {
		return nil, fmt.Errorf("graph planner: %w", err)
	}
	p.mu.Lock()
	excl := p.exclude
	p.mu.Unlock()
	g = buildGraph(kg, excl)
	p.mu.Lock()
	p.graphs[st.AppID] = g
	p.mu.Unlock()
	return g, nil
}

func buildGraph(kg *knowledge.Graph, exclude map[string]bool) *appGraph {
	g := &appGraph{byPrint: map[string]int64{}, out: map[int64][]gEdge{}, elems: map[int64]*knowledge.Element{},
		onScr: map[int64][]*knowledge.Element{}, terms: map[int64][]term{}, df: map[term]int{}}
	g.act, g.dialog = map[int64]string{}, map[int64]bool{}
	for _, s := range kg.Screens {
		g.byPrint[s.Fingerprint] = s.ID
		g.act[s.ID] = s.Activity
		g.dialog[s.ID] = s.Dialog
	}
	for i := range kg.Elements {
		e := &kg.Elements[i]
		g.elems[e.ID] = e
		g.onScr[e.ScreenID] = append(g.onScr[e.ScreenID], e)
		ts := termsOf(e.Descriptor.Label() + " " + e.Descriptor.Desc + " " + e.Descriptor.Hint + " " + e.Descriptor.ResourceID)
		g.terms[e.ID] = ts
		seen := map[term]bool{}
		for _, t := range ts {
			if !seen[t] {
				seen[t] = true
				g.df[t]++
			}
		}
		g.n++
	}
	prints := map[int64]string{}
	for _, s := range kg.Screens {
		prints[s.ID] = s.Fingerprint
	}
	for _, t := range kg.Transitions {
		if t.From == t.To || t.Count <= 0 {
			continue
		}
		if len(exclude) > 0 && t.Source == knowledge.SourceExploration {
			ek := ""
			if e := g.elems[t.ElementID]; e != nil {
				ek = e.Key
			}
			if exclude[EdgeKey(prints[t.From], t.Action, ek, prints[t.To])] {
				continue
			}
		}
		cost := 1/(1+math.Log(float64(t.Count))) + float64(t.Failures)
		g.out[t.From] = append(g.out[t.From], gEdge{to: t.To, action: t.Action, element: t.ElementID, cost: cost})
	}
	return g
}

// weights returns each command term's IDF over the app's elements plus
// the current screen; terms no element of the app carries weigh 0 (they
// cannot be matched, so they do not hold completion back).
func (g *appGraph) weights(rs *runState, st *daemon.PlanState) map[term]float64 {
	onScreen := map[term]bool{}
	for i := range st.Elements {
		for _, t := range elementTerms(&st.Elements[i], "") {
			onScreen[t] = true
		}
	}
	w := map[term]float64{}
	n := float64(g.n + len(st.Elements) + 1)
	rs.unknown = 0
	for _, ct := range rs.terms {
		df := float64(g.df[ct.t])
		if onScreen[ct.t] {
			df++
		}
		weight := ct.weight
		if strings.HasPrefix(string(ct.t), "@") {
			weight *= ConceptWeight
		}
		if df == 0 {
			// a word the app never showed: it cannot be matched, but it
			// dilutes how much of the command any element covers
			if !strings.HasPrefix(string(ct.t), "@") {
				rs.unknown += UnknownWeight * weight * math.Log(1+n)
			}
			continue
		}
		w[ct.t] = weight * math.Log(1+n/df)
	}
	return w
}

// graphCandidates scores targets on other screens, reached through the
// cheapest known path; the candidate is the path's first operation,
// grounded on the current screen.
func (p *Planner) graphCandidates(ctx context.Context, rs *runState, st *daemon.PlanState, g *appGraph, w map[term]float64) []candidate {
	start, ok := g.byPrint[st.Print]
	if !ok {
		return nil
	}
	dist, first, hops := g.dijkstra(start)
	byScroll := g.reachByScroll(start, dist, first, hops)
	best := map[int64]candidate{} // first-edge element -> best candidate through it
	screens := make([]int64, 0, len(dist))
	for scr := range dist {
		screens = append(screens, scr)
	}
	sort.Slice(screens, func(i, j int) bool { return screens[i] < screens[j] }) // deterministic ties
	for _, scr := range screens {
		d := dist[scr]
		if scr == start || math.IsInf(d, 1) {
			continue
		}
		fe := first[scr]
		var firstTerms []term // the path's first element covers its words too
		if fe.element != 0 {
			firstTerms = g.terms[fe.element]
		}
		for _, e := range g.onScr[scr] {
			label := e.Descriptor.Label()
			terms := g.terms[e.ID]
			if len(firstTerms) > 0 {
				terms = append(append([]term(nil), terms...), firstTerms...)
			}
			sc, covers := rs.match(label+" "+e.Descriptor.ResourceID, terms, w)
			if sc <= 0 {
				continue
			}
			sc *= math.Pow(PathDiscount, float64(hops[scr]))
			if byScroll[scr] {
				sc *= ScrollDiscount
			}
			key := fe.element
			if c, ok := best[key]; ok && c.score >= sc {
				continue
			}
			best[key] = candidate{action: fe.action, score: sc, covers: covers, via: hops[scr],
				reason: fmt.Sprintf("on the way to %q (%d steps away in the UI graph)", label, hops[scr])}
		}
	}
	var out []candidate
	ids := make([]int64, 0, len(best))
	for id := range best {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, elemID := range ids {
		c := best[elemID]
		if c.action == device.Scroll {
			c.element, c.direction = scrollable(st), device.Forward
			var d screen.Descriptor
			if c.element >= 0 {
				d = screen.Describe(st.Screen, st.Elements[c.element].NodeID)
			}
			c.score /= 1 + penalty(st, c.action, d)
			out = append(out, c)
			continue
		}
		if c.action == device.Back || c.action == device.Home {
			c.element = -1
			c.score /= 1 + penalty(st, c.action, screen.Descriptor{})
			out = append(out, c)
			continue
		}
		ke := g.elems[elemID]
		if ke == nil {
			continue
		}
		m, ok := screen.Ground(st.Screen, ke.Descriptor)
		if !ok {
			continue
		}
		idx := daemon.ElementIndex(st.Screen, st.Elements, m.NodeID)
		if idx < 0 {
			continue
		}
		c.element = idx
		if c.action == device.Input {
			continue // paths through typing are taken by the value logic
		}
		c.score /= 1 + penalty(st, c.action, screen.Describe(st.Screen, st.Elements[idx].NodeID))
		out = append(out, c)
	}
	return out
}

// ScrollCost is the path cost of reaching, by scrolling, a recorded
// screen of the same activity as a reachable one that no known transition
// leads to (a capture further down the same list).
const ScrollCost = 2.0

// ScrollDiscount scales the score of a target reached only by assuming a
// scroll (reachByScroll): weaker evidence than a recorded path. On the
// development apps any value from 0.5 to 0.7 gives the same results; 1
// (no discount) loses five tasks.
const ScrollDiscount = 0.6

// reachByScroll extends a dijkstra result to the screens no known path
// reaches: a screen of the same activity as a reached screen is taken to
// be further down that screen, one scroll away. Dialogs are neither.
func (g *appGraph) reachByScroll(start int64, dist map[int64]float64, first map[int64]gEdge, hops map[int64]int) map[int64]bool {
	virtual := map[int64]bool{}
	bestOf := map[string]int64{} // activity -> cheapest reached screen
	for id, d := range dist {
		a := g.act[id]
		if a == "" || g.dialog[id] {
			continue
		}
		if b, ok := bestOf[a]; !ok || d < dist[b] || (d == dist[b] && id < b) {
			bestOf[a] = id
		}
	}
	for id, a := range g.act {
		if _, ok := dist[id]; ok || g.dialog[id] {
			continue
		}
		r, ok := bestOf[a]
		if !ok || hops[r]+1 > maxDepth {
			continue
		}
		dist[id] = dist[r] + ScrollCost
		hops[id] = hops[r] + 1
		virtual[id] = true
		if r == start {
			first[id] = gEdge{to: id, action: device.Scroll, cost: ScrollCost}
		} else {
			first[id] = first[r]
		}
	}
	return virtual
}

// dijkstra returns, for every screen reachable from start, its path cost,
// the first edge of the cheapest path and the path's length in steps.
func (g *appGraph) dijkstra(start int64) (map[int64]float64, map[int64]gEdge, map[int64]int) {
	dist := map[int64]float64{start: 0}
	first := map[int64]gEdge{}
	hops := map[int64]int{start: 0}
	pq := &pqueue{{id: start}}
	for pq.Len() > 0 {
		it := heap.Pop(pq).(pqItem)
		if it.cost > dist[it.id] || hops[it.id] >= maxDepth {
			continue
		}
		for _, e := range g.out[it.id] {
			nd := it.cost + e.cost
			if old, ok := dist[e.to]; ok && old <= nd {
				continue
			}
			dist[e.to] = nd
			hops[e.to] = hops[it.id] + 1
			if it.id == start {
				first[e.to] = e
			} else {
				first[e.to] = first[it.id]
			}
			heap.Push(pq, pqItem{id: e.to, cost: nd})
		}
	}
	return dist, first, hops
}

type pqItem struct {
	id   int64
	cost float64
}

type pqueue []pqItem

func (q pqueue) Len() int           { return len(q) }
func (q pqueue) Less(i, j int) bool { return q[i].cost < q[j].cost }
func (q pqueue) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *pqueue) Push(x any)        { *q = append(*q, x.(pqItem)) }
func (q *pqueue) Pop() any          { o := *q; it := o[len(o)-1]; *q = o[:len(o)-1]; return it }

// Check implements daemon.Checker without a model: a step that changed
// nothing (an unexplored tap) is wrong and penalised so it is not chosen
// again; completion is decided by Next.
func (p *Planner) Check(ctx context.Context, st *daemon.PlanState, last daemon.StepRecord) (daemon.Verdict, error) {
	// The device performed it (OK) even when the screen's structure stayed
	// (a toggle row, a setting that applies in place): that is progress.
	// An action the device could not perform is wrong.
	if !last.OK {
		return daemon.Verdict{Correct: false, Penalty: 5, Reason: "the action had no effect: " + last.Message}, nil
	}
	return daemon.Verdict{Correct: true}, nil
}

// Observe implements daemon.Learner: a new screen makes the cached graph
// stale, so it is reloaded (with the learned transition) on the next step.
func (p *Planner) Observe(ctx context.Context, st *daemon.PlanState, rec daemon.StepRecord) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if g := p.graphs[st.AppID]; g != nil {
		if _, ok := g.byPrint[rec.After]; !ok {
			delete(p.graphs, st.AppID)
		}
	}
}

var (
	_ daemon.Planner = (*Planner)(nil)
	_ daemon.Checker = (*Planner)(nil)
	_ daemon.Learner = (*Planner)(nil)
)
