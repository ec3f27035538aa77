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
//     similarity term breaks ties (AutoTask's tie-breaking score). The
//     resource-id that the rows of one list share names the list, not a
//     row: its words cover nothing for those rows.
//  3. Elements on other screens of the UI transition graph are scored the
//     same way and reached through the cheapest known path (edge cost
//     1/(1+ln count) plus failures; UICOMPASS §3.3 simulated paths); the
//     path's first step competes with the on-screen operations, discounted
//     by 0.85 per step. A path never goes through a tap on a switch, check
//     box or radio button: that would change a setting on the way (a
//     screen recorded after a font size was picked is not reached by
//     picking it).
//  4. Values are typed into editable fields (the field whose label is
//     nearest to the value's words in the command first); a form with typed
//     values is committed with its confirming button (save / OK / done /
//     send / add): committed once that tap worked, and a commit that did
//     nothing is not tried again until the form changes; the dialog a
//     commit opens is accepted by its positive button, else by the
//     command's own verb ("Send"). A value typed beside a commit button
//     that stays disabled is done, but not sure of it. A toggle is only
//     tapped when its state differs from the command's polarity (turn on /
//     off).
//  5. The command is complete when every matchable term is covered and
//     every value typed (and committed): the planner stops there, never
//     overshooting. Navigation words (open, view, check, page, tab) guide
//     but are never waited for; a command that only asks to see something
//     is done once the last relevant step shows the rest of what it names.
//     A confirmation that the last relevant step opened is accepted; a
//     toggle realises the command's add / remove, on / off; a search
//     command types its value into the search field, then opens the result
//     carrying it when the command asks to ("… and open it"). A query
//     said without quote marks is the word after the search verb that the
//     app never shows ("find the entry plumber": "entry" says what it
//     names; search.go).
//     When nothing matches it scrolls once to reveal more, then gives up
//     with a failure rather than wandering. An action the command names
//     that no element of the app carries, by word or by meaning ("mute"
//     where only a "Doorbell" button matched), and that no switch set on
//     the way realised, is not done: the planner gives up rather than
//     declare it (unknownAction). After MaxStale steps in a row that did
//     nothing the command asks, it gives up too: wandering taps are not
//     free on a person's phone.
//     A command that turns something on or off in so many words ("enable",
//     "turn off", or a negated "show" / "allow": "don't show the digits")
//     is not done until a step set a switch or a check box
//     changed state (switchSet, flippedToggle): reaching the screen that
//     names the setting is not setting it, and the planner gives up
//     rather than report it done.
//     A "done" that leaves part of the command's weight uncovered says so
//     (daemon.Decision.Unsure): the engine asks the owner to confirm it
//     and learns no flow from it without a yes. So does a "done" on a
//     screen the last step brought up that offers options, none chosen
//     (choicePending: the value is still to be picked there).
//  6. Screens the graph records but no known path reaches are taken to be
//     one scroll down a reachable screen of the same activity (not
//     dialogs), at a discount: exploration rarely records every scroll
//     position of a settings list. A path leaves a dialog (by back or a
//     button) only for the screen that opened it, and accepts a dialog
//     holding a choice or a text field only as its first step, and flips a
//     setting in place (a toggle; "Show hidden albums" leading to another
//     state of the same screen) only as a first step the command names. A
//     paragraph (a message, a help answer) is a path's target only for a
//     command that asks to see something.
//  7. Some candidates are passed over however well they score (passOver):
//     a commit ("… and save it") before what it commits or on another
//     screen, a tap on text no interactive element holds, Cancel right
//     after a choice made here, a second tap on a toggle, "create" for a
//     command that changes what exists or makes nothing (no add, no send,
//     no value for a new thing), a keypad's key (here or as a path's
//     target) for a command with no number, a deletion of one item for a
//     command about all, a row whose summary alone holds the command's
//     number, a switch for a command that gives a number, another tab of the tab
//     bar whose tab a step chose for the command. An element here
//     outranks a path elsewhere that covers no more (onScreenFirst).
//  8. When nothing known matches a command that views or sets something
//     (before any of it is done, or before giving up on what is left),
//     it explores (AutoTask §3 trial and error, §4.4 backtracking): it taps
//     elements no known transition starts from, then menus with untried
//     items, and goes back from what leads nowhere; never a setting, a
//     field, a row of content, an element that creates or one the
//     sensitive-action policy names (explore.go). Before "done" with a
//     word of the command on no element of the screen, a settings row
//     whose summary (its value now) is of that word's kind by the model
//     is opened: a list preference's choices are behind its row
//     (valuerow.go). When the graph knows the command's words on a
//     settings screen no known path reaches, at least twice as well as
//     anything reachable, the run heads for the app's settings (its
//     settings button, else its overflow menu).
//  9. A dialog nobody asked for that a step brings up (a rating prompt, a
//     "what's new" notice: nothing of the command in it, nothing to set)
//     is put off with its "Not now" / "Got it" first, and the rules read
//     the route as if it had not been there (interstitial.go). A switch
//     labelled with an on/off word the vocabulary does not know is read as
//     the model reads that word (polar.go).
//
// Confidence reports how clearly the chosen operation won, for a
// composite planner that asks an LLM only when the graph planner is unsure
// (UICOMPASS's adaptive replanning).
//
// The package reads the knowledge store and the screen; it must not act on
// the device (the engine does) or write knowledge (the engine records).
//
// Files by job: graphplan.go (the planner and each step's decision),
// terms.go (command terms and scoring), path.go (path search through the
// UI graph), forms.go (forms, fields, values and dialogs), completion.go
// (coverage and when the command is done), filters.go (candidates passed
// over, an element here before a path elsewhere), explore.go (trying what
// the graph does not know), valuerow.go (a setting's choices behind its
// value), semantic.go (meaning from the embedder), interstitial.go
// (dialogs nobody asked for), polar.go (a switch's unknown on/off word),
// commits.go (committing forms, accepting dialogs).
package graphplan

import (
	"context"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
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
	// NoEffectPenalty is Check's penalty for a step the device could not
	// perform (AutoTask §4.3 gives penalties 0–9 by severity; a tap that
	// did nothing is a mild mistake).
	NoEffectPenalty = 5
	maxDepth        = 8
	maxScrolls      = 2
	// MaxStale is how many steps in a row may do nothing the command asks
	// (cover none of its words, type none of its values) before the
	// planner gives up rather than wander on: on the development and
	// tuning sets' runs (302) 6 lost no task and took 60 of 1232 steps
	// fewer; 5 lost two recorded tasks, 4 three.
	MaxStale = 6
)

// debugGraph prints the candidates of every step to stderr
// (WAYFINDER_DEBUG_GRAPH=1).
var debugGraph = os.Getenv("WAYFINDER_DEBUG_GRAPH") != ""

// Planner is the graph planner. Safe for concurrent use across runs.
type Planner struct {
	store *knowledge.Store

	mu      sync.Mutex
	memo    *simil.Memo // embeddings (semantic.go); nil: words only
	own     bool        // memo is UseEmbedder's, not the engine's
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

// IgnoresGuides implements daemon.GuideFree: the planner reads the graph,
// not guides.
func (p *Planner) IgnoresGuides() bool { return true }

// Invalidate drops the cached graph of an app (after an import).
func (p *Planner) Invalidate(appID int64) {
	p.mu.Lock()
	delete(p.graphs, appID)
	p.mu.Unlock()
}

// Reset implements daemon.Resetter: the next Next starts a new run.
func (p *Planner) Reset() {
	p.mu.Lock()
	p.run = nil
	p.mu.Unlock()
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
	// tie: the command's cosine with the target's text (semantic.go; 0
	// without an embedder); rank = score × (1 + SemTieBreak × tie) orders
	// candidates, but only score decides whether one is relevant at all
	tie, rank float64
	// dest: for a step on a path through the UI graph (via > 0), the
	// descriptor key of the element the path leads to (ways.go)
	dest string
}

// Next implements daemon.Planner.
func (p *Planner) Next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	d, err := p.next(ctx, st)
	if err == nil && st.Check && d.Action == daemon.ActDone && !d.Unsure {
		d.Unsure = p.wordLeft(ctx, st) || p.offUndone(st)
	}
	if debugGraph && err == nil {
		fmt.Fprintf(os.Stderr, "graphplan: step %d decided %s %d (unsure %v): %s\n", st.Step, d.Action, d.Element, d.Unsure, d.Reason)
	}
	return d, err
}

// next is Next without the debug print.
func (p *Planner) next(ctx context.Context, st *daemon.PlanState) (daemon.Decision, error) {
	g, err := p.graph(ctx, st)
	if err != nil {
		return daemon.Decision{}, err
	}
	rs := p.state(st, g)
	rs.ways = nil
	if len(rs.unmet) > 0 {
		// "set the theme to light but only at night" where nothing of
		// the app says "night": doing the rest would do more than asked
		return daemon.Decision{Action: daemon.ActFail, Element: -1,
			Reason: fmt.Sprintf("the command restricts what it asks (%s), and nothing in this app offers that", strings.Join(rs.unmet, " "))}, nil
	}
	p.fold(rs, st)
	rs.sawPackage(st)
	if rs.stale >= MaxStale {
		return daemon.Decision{Action: daemon.ActFail, Element: -1, Confidence: 0,
			Reason: fmt.Sprintf("%d steps in a row did nothing the command asks", rs.stale)}, nil
	}
	rs.reopenInDialog(st)
	rs.markSelectors(st, g)
	rs.shownValues(st)
	rs.chosenShown(st)
	if c, ok := rs.interstitial(st); ok {
		if rs.putOff == nil {
			rs.putOff = map[int]bool{}
		}
		rs.putOff[len(st.History)] = true
		return decision(c, 0.7), nil
	}
	st = rs.withoutPutOffs(st)
	sem := p.semantics(ctx, rs, st, g) // before weights: aliases give unknown words weight
	weights := g.weights(rs, st)
	pending := rs.pendingValues()
	if d, ok := rs.deletionDone(weights, pending); ok {
		return d, nil
	}
	if c, ok := rs.openResult(st); ok {
		return decision(c, 0.8), nil
	}
	if c, ok := rs.keypadKey(st); ok {
		return decision(c, 0.8), nil
	}
	unset := rs.switches && !rs.flipped && !rs.switchSet(st) // a switch to set is still to find
	if pending == 0 && !unset && rs.inView(st, weights) {
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: 0.8,
			Reason: "the screen the command asked to see is shown: the rest of its words are on it"}, nil
	}
	cands := p.screenCandidates(rs, st, sem, weights)
	cands = append(cands, p.graphCandidates(ctx, rs, st, g, sem, weights)...)
	cands = rs.modifiedHead(st, cands)
	// after scoring: it covers toggles already in the wanted state
	remaining := rs.remaining(weights)
	for i := range cands {
		cands[i].rank = cands[i].score * (1 + SemTieBreak*cands[i].tie)
	}
	onScreenFirst(st, cands)
	rs.typeFirst(st, cands)
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].rank != cands[j].rank {
			return cands[i].rank > cands[j].rank
		}
		if cands[i].via != cands[j].via {
			return cands[i].via < cands[j].via
		}
		return cands[i].element < cands[j].element
	})
	rs.pickFirst(st, cands)
	if st.Check {
		rs.noteWays(cands)
	}

	// a committed form ends the command unless most of it is still to do
	if pending == 0 && rs.committed && remaining <= 0.5*totalWeight(rs, weights) {
		return rs.afterCommit(st, remaining, weights), nil
	}
	// once most of the command is done, only a clearly relevant operation
	// may continue it (no overshoot); a value still to type or pick is
	// not done ("scale the newest picture to 800": the picture is open, the
	// width still to give)
	minScore := MinScore
	if total := totalWeight(rs, weights); total > 0 && remaining < 0.5*total && pending == 0 {
		minScore = 2 * MinScore
	}
	var best *candidate // the first relevant one (without an embedder: cands[0] or none)
	for i := range cands {
		if cands[i].score < minScore && !((cands[i].action == device.Input || rs.picksValue(st, cands[i])) && cands[i].score >= MinScore) && !rs.completes(cands[i], weights) && !rs.savesAs(st, cands[i]) {
			continue // a value still to type or pick is no overshoot, nor the rest of the command on screen
		}
		if why := rs.passOver(st, cands[i], weights, remaining); why != "" {
			if debugGraph {
				fmt.Fprintf(os.Stderr, "graphplan: passed over %s %d: %s\n", cands[i].action, cands[i].element, why)
			}
			continue
		}
		best = &cands[i]
		break
	}
	// typed values waiting for a commit, once nothing else of the command
	// is left on this screen, or the value just typed filled its last
	// field and the values left belong to what it opens ("create a note
	// called 'X' and type 'Y'": the name dialog first); before it, what
	// the form itself still offers of the command (formChoice, formRow)
	if (pending == 0 && rs.typed > rs.searchTyped && (best == nil || best.via > 0) || pending > 0 && formFilled(st)) && !rs.committed {
		if c, ok := rs.formChoice(st, cands); ok {
			return decision(c, 0.6), nil
		}
		if c, ok := rs.formRow(st, g, cands); ok {
			return decision(c, 0.6), nil
		}
		if c, ok := confirmButton(st); ok && !rs.addsSomethingElse(st.Elements[c.element].Label) && !failedHere(st, c.element) {
			rs.commit()
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
	// a picker of two groups whose other group holds an option the command
	// asks for: that one too, before accepting (optionAsked)
	if best == nil || best.via > 0 {
		if c, ok := rs.optionAsked(st); ok {
			return decision(c, 0.7), nil
		}
	}
	// the command's last operation opened a dialog asking to confirm it:
	// answer with its positive button (OK / Yes / Allow / Save), then stop.
	// When the step that opened it did part of the command, accept it even
	// if something elsewhere in the graph still matches: leaving by its
	// negative button would undo that step.
	// The system's "save as" picker after the app's own dialog (export
	// options, then where to save) is the second confirmation of one step,
	// and a path elsewhere from it would abandon what it saves.
	if (best == nil || best.via > 0) && pending == 0 && rs.coveredAny() {
		if c, ok := positiveButton(st); ok {
			if daemon.IsDialog(st.Screen) {
				if o, ok := rs.optionBeforeAccept(st); ok {
					return decision(o, 0.6), nil
				}
			}
			prompt := confirmation(st)
			saveHere := !rs.savedAs && prompt && saveAs(st, c)
			if (best == nil || saveHere || rs.lastStepCovered(st)) && (saveHere || (daemon.IsDialog(st.Screen) || prompt) && !rs.confirmedDialog) {
				rs.confirmedDialog = true
				rs.deleteConfirmed = rs.covered["@delete"]
				if saveHere { // what was saved is the command's work: a committed form
					rs.savedAs = true
					rs.commit()
				}
				return decision(c, 0.7), nil
			}
		}
	}
	// a choice picked in a list that has OK and Cancel (a picker shown
	// full-screen) is kept only once accepted; a value still to type goes
	// into a field of what accepting opens when this screen has none
	if best == nil && (pending == 0 || !hasField(st)) && !rs.confirmedDialog {
		if c, ok := rs.acceptChoice(st); ok {
			rs.confirmedDialog = true
			return decision(c, 0.7), nil
		}
	}
	if best == nil || best.via > 0 {
		// before any path away from the screen the operation was handed to
		if c, ok := rs.carryOn(st); ok {
			return decision(c, 0.6), nil
		}
	}
	unknown := ""
	if best == nil {
		unknown = rs.unknownAction(weights)
	}
	if best == nil && pending == 0 && len(st.History) > 0 && remaining > 0 && remaining >= 0.5*totalWeight(rs, weights) &&
		rs.coveredAny() && !rs.actedAny() && !rs.viewing && unknown == "" && !unset {
		// the run reached what the command is about, but none of what it
		// asks to do there, and nothing here or known leads further ("flag
		// the thread with Sam as unread" after opening it): look in what
		// this screen's menus hold before "done" (a command to see or open
		// something is done by showing it: inView)
		if d, ok := p.explore(rs, st, g, true); ok {
			return d, nil
		}
	}
	if best == nil && pending == 0 && len(st.History) > 0 && remaining > 0 && rs.coveredAny() && !unset {
		// what is left may be a value the app shows only in a setting's
		// dialog; from such a dialog that offers nothing of it, back
		if d, ok := rs.leaveValueRow(st); ok {
			return d, nil
		}
		if c, ok := p.valueRow(ctx, rs, st, weights); ok {
			return decision(c, 0.4), nil
		}
	}
	if best == nil && pending == 0 && (remaining < 1e-9 || len(st.History) > 0) && rs.coveredAny() && unknown == "" && !unset {
		// changes made on a form with a save button are kept only once saved
		if !rs.committed && actedHere(st) && !daemon.IsDialog(st.Screen) {
			if c, ok := saveButton(st); ok && !failedHere(st, c.element) {
				rs.commit()
				return decision(c, 0.7), nil
			}
		}
		// a notice the last step brought up is acknowledged first
		if c, ok := notice(st); ok {
			return decision(c, 0.7), nil
		}
		if rs.typed > rs.searchTyped && !rs.committed && typedLast(st) && commitDisabled(st) {
			// a value just typed that no enabled button commits: the app
			// did not take it (a message typed beside a greyed-out "Send"),
			// so nothing is sent or saved; done, but not sure of it
			return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: confidence(remaining, rs), Unsure: true,
				Reason: "the typed values wait on a commit button that is disabled"}, nil
		}
		return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: confidence(remaining, rs), Unsure: rs.unsure(remaining, weights) || choicePending(st),
			Reason: "every term of the command that the app knows is covered"}, nil
	}
	if rs.far.settings && (best == nil || rs.far.score > 2*best.score) && !inSettings(st) {
		// the graph knows the command's words on a settings screen it
		// knows no way to, far better than anything reachable: go to
		// settings
		if c, ok := settingsHub(st); ok {
			return decision(c, 0.3), nil
		}
	}
	if rs.far.optionScore > 0 && !rs.choiceShown && (best == nil || rs.far.optionScore >= best.score) {
		// the option the command names is in a dialog no known path
		// opens; what shows the current choice opens it
		if c, ok := g.showsChoiceOf(rs, st, rs.far.optionScreen, rs.far.optionLabel); ok {
			rs.choiceShown = true
			return decision(c, 0.4), nil
		}
	}
	if rs.far.keypadAct != "" && !rs.keypadOpened {
		// a number to key, and a keypad the graph knows no way to: the
		// element named as its activity opens it ("Touch tones" for
		// a TouchTonesActivity; "Settings" opens a SettingsActivity)
		if c, ok := namedAsActivity(st, rs.far.keypadAct); ok {
			rs.keypadOpened = true
			return decision(c, 0.4), nil
		}
	}
	if rs.far.menu && !rs.menuOpened && !rs.coveredAny() && (best == nil || rs.far.score > 2*best.score) && !rs.opensHere(st) {
		// the command's words are on a popup menu of this activity no
		// known path opens: the overflow menu is where a screen's menu
		// items are
		if c, ok := overflowOn(st); ok {
			rs.menuOpened = true
			return decision(c, 0.3), nil
		}
	}
	if best == nil && rs.configLike && rs.far.here && rs.far.score >= 2*MinScore {
		// the graph holds the setting's words in a popup of this activity
		// no known path opens (its choices): an element here of unknown
		// effect opens it sooner than the app's settings would
		if d, ok := p.explore(rs, st, g, false); ok {
			return d, nil
		}
	}
	if best == nil && rs.configLike && !rs.coveredAny() {
		// nothing the app shows matches what is left: an option nobody
		// explored is most often in the app's settings (a generic UI
		// convention), so go there first, then scroll through them
		if c, ok := settingsHub(st); ok && !inSettings(st) {
			return decision(c, 0.3), nil
		}
	}
	if best == nil && !rs.coveredAny() && pending == 0 && rs.scrolls >= maxScrolls && (rs.viewing || rs.configLike) {
		if d, ok := p.explore(rs, st, g, false); ok {
			return d, nil
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
		if rs.coveredAny() && (pending > 0 || unknown != "" || unset) && (rs.viewing || rs.configLike) {
			// about to give up on a command partly done (a value, an
			// action or a switch is left): what is left may be behind an
			// element nobody tried
			if d, ok := p.explore(rs, st, g, false); ok {
				return d, nil
			}
		}
		if unknown != "" && rs.coveredAny() {
			return daemon.Decision{Action: daemon.ActFail, Element: -1, Confidence: 0,
				Reason: fmt.Sprintf("nothing in the app matches %q: the steps taken cannot have done it", unknown)}, nil
		}
		if unset && rs.coveredAny() {
			return daemon.Decision{Action: daemon.ActFail, Element: -1, Confidence: 0,
				Reason: "the command turns something on or off, and no switch or checkbox for it was found"}, nil
		}
		if rs.coveredAny() && pending == 0 {
			return daemon.Decision{Action: daemon.ActDone, Element: -1, Confidence: confidence(remaining, rs), Unsure: rs.unsure(remaining, weights),
				Reason: "no further element matches; the matched part of the command is done"}, nil
		}
		return daemon.Decision{Action: daemon.ActFail, Element: -1, Confidence: 0,
			Reason: "no element on this screen or in the known UI graph matches the command"}, nil
	}
	conf := 1.0
	if len(cands) > 1 && best.score > 0 {
		conf = math.Max(0, math.Min(1, (best.score-cands[1].score)/best.score+0.3))
	}
	return decision(*best, conf), nil
}

func decision(c candidate, conf float64) daemon.Decision {
	return daemon.Decision{Action: c.action, Element: c.element, Text: c.text, Direction: c.direction,
		Reason: c.reason, Confidence: conf, Mode: "graph"}
}

var (
	_ daemon.Planner   = (*Planner)(nil)
	_ daemon.Checker   = (*Planner)(nil)
	_ daemon.Learner   = (*Planner)(nil)
	_ daemon.GuideFree = (*Planner)(nil)
	_ daemon.Resetter  = (*Planner)(nil)
)
