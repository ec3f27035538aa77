// Command terms: what the command asks for (terms, values, phrases) and
// how much of it is still to do.

package graphplan

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

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
// tab / screen): "open the weather page" is done on the Weather page, not
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
	typed   bool // done by typing it (not by picking or finding it)
	// names: the word before the value gives it as a name or a new value
	// ("called", "to", "as"); selects: the value is the label of
	// something the app shows and names is false, so it picks that thing
	// ("delete the note 'Ledger'") and is typed only to search for it
	names, selects bool
	keyed          int // keys of the value tapped on a keypad so far (keypad.go)
	// quantity: a number followed by its unit ("5 minutes", "40 percent"):
	// a setting's value, never keyed on a keypad
	quantity bool
	// file: a file name written without quote marks ("scan7.png"), typed
	// as written or, where the app keeps the extension in a field of its
	// own, without it (fileText)
	file bool
	// dur: the length of time a quantity says ("4 minutes") or a clock
	// value gives ("4:00"), 0 for any other value; durTerms: the terms of
	// its words, covered by a dialog's label that shows the same clock
	// (duration.go)
	dur      time.Duration
	durTerms []term
	// parts: the parts of a person's name typed apart so far (person.go;
	// 1 the given names, 2 the family name)
	parts uint8
	// at: the value's byte offset in the command
	at int
	// query: an unquoted search query (searchQuery): its words, terms of
	// the command too, are done once it is typed
	query bool
}

// runState is what the planner keeps during one command.
type runState struct {
	said string // the command as given (cmd is as read: acronyms spelled out)
	// unmet: the words of the command's restriction (intent.Condition:
	// "… but only at night") that no element of the app carries, as
	// written or by concept ("wifi" for "Wi-Fi"): nothing here can do it
	unmet []string
	// ways: in a route check (daemon.PlanState.Check), the elements of
	// the last screen asked about whose tap the planner weighed as on
	// the way to an element matching the command, by index, with that
	// element's descriptor key (ways.go)
	ways map[int]string
	keys int // keypad keys tapped for the command's numbers (keypad.go)
	// keypadAt: the screens (fingerprints) seen holding a keypad
	keypadAt map[string]bool
	// savedAs: a "save as" picker's save button was tapped (forms.go)
	savedAs  bool
	cmd      string
	terms    []cmdTerm
	phrases  []string // normalised multi-word chunks of the command
	values   []value
	covered  map[term]bool
	polarity int
	// switches: the command turns something on or off in so many words
	// (switchesSomething): it is done only once a step set a switch
	// (toggled) or a switch changed state after a step (flipped, Check)
	switches, flipped bool
	typed             int
	committed         bool
	// commitAt: 1 + the history index of the step decided as the commit
	// (commit); 0 when none. A commit tap that had no effect, or was
	// backtracked, commits nothing (fold)
	commitAt  int
	scrolls   int
	lastPrint string
	// pickedInDialog: an option (a radio button, a check box) of a
	// dialog was tapped; its confirming button commits it
	pickedInDialog bool
	// confirmedDialog: the positive button of a final dialog was tapped;
	// deleteConfirmed: it confirmed a deletion the command asks for
	confirmedDialog, deleteConfirmed bool
	verbs                            []term // the command's action concepts (intent.Understanding.Verbs)
	carried                          bool   // carryOn tapped the button that carries on the last step's verb
	// pkgAt: the foreground package of each screen the run saw, by
	// fingerprint (sawPackage), by which carryOn tells a tap that handed
	// the operation to another package from one made there
	pkgAt    map[string]string
	reopened int     // history length at the last reopenInDialog
	unknown  float64 // weight of command words no element of the app carries
	search   bool    // the command asks to search: names go into search fields
	// afterSearch: the terms of what the command asks to do with a search
	// result ("… and open it", "… and play it"); searched: the value typed
	// into a search field; resultOpened: a result carrying it was tapped
	afterSearch  []term
	searched     string
	resultOpened bool
	// searchTyped: rs.typed when the result was opened (the values typed
	// to search, which no form commits)
	searchTyped int
	// valueNames: the names the command gives (intent.Names), for
	// namedSibling
	valueNames map[string]bool
	// viewing: the command only asks to see something (no action verb but
	// open / view / check)
	viewing bool
	// opens: the command's verb is a strong "open" ("open", "launch"),
	// not "show" or "view": it names something to open (inView)
	opens      bool
	configLike bool // the command changes an option (on/off/change/increase…)
	seen       int  // history length already folded into coverage
	// words: the command word each literal term came from; unknownW: the
	// weight in unknown of each word no element carries; semCovers: the
	// terms an on-screen element covered by meaning (semantic.go), by its
	// descriptor key, so a tap on it covers them
	words    map[term]string
	unknownW map[term]float64
	// worded: the terms a step covered by its own words (its target's
	// label, resource-id, the field typed into), a toggle it set, or a
	// word's own meaning, not only as part of the whole command's
	// meaning; the route check wants every word so accounted for
	worded    map[term]bool
	semCovers map[string][]term
	semWhole  map[string][]term // of semCovers, the terms semHit.whole gave
	// alias: for a command word no element carries, the app's words that
	// mean the same (semantic.go), recomputed each step
	alias map[term][]term
	// polar: the on/off word the model reads a word of a switch's label
	// as, where the vocabulary does not know it (polarWords), recomputed
	// each step
	polar map[string]string
	// putOff: the history indexes of the steps that put off a dialog the
	// command did not ask for (interstitial.go)
	putOff map[int]bool
	// universal: the command asks for all of something ("delete all call
	// history"); pickedRow: a step tapped one row of a list that no word
	// of the command names. Both: the run did something to one item where
	// the command asked for all, so its end is not sure (completion.go).
	universal, pickedRow bool
	// pickedItem: pickedRow, for a row of a screen that is no dialog or
	// popup menu (an item of the app's content)
	pickedItem bool
	// adds: the command asks to add or create (the concept add);
	// changesOnly: it changes or deletes what exists (the concepts edit,
	// delete) and does not ask to add (createsUnasked)
	adds, changesOnly bool
	// describing: terms of the verb of a clause that says which thing
	// ("the pic I took"; describingVerbs), left out of completes
	describing map[term]bool
	// bare: the command with its values blanked (commandWithoutValues)
	bare string
	// verb: the term of the command's first word that is no stopword
	// (leadingVerb); hasVerb false when it has none
	verb    term
	hasVerb bool
	// ownVerb: the leading verb is a word of its own, no navigation word
	// and no word of a concept of the vocabulary (namesVerb)
	ownVerb bool
	// dials: the leading verb places a call ("call", "ring"): the
	// command's number is dialled wherever it stands ("call the front
	// desk 555 0100")
	dials bool
	// addsExisting: it adds something the app shows to something else
	// ("add contact Dora to favorites"; addsShown)
	addsExisting bool
	// nearest: the label of the app (screen and graph) whose meaning is
	// closest to the whole command by SemMargin over the next, unless it
	// only names the app, or ""; recomputed each step (semantic.go)
	nearest string
	// appWords: the terms of the app's label
	appWords map[term]bool
	// phraseOf: the literal terms of the words of an object phrase of the
	// vocabulary ("newest first") → the phrase's concept (@descending):
	// a step that covers the concept covers its words (coverPhrases)
	phraseOf map[term]term
	// recorded: in a route check, the command's terms that the walked
	// flow's own command carries (recordAs); recordedAll: that command
	// asked for all of something too
	recorded    map[term]bool
	recordedAll bool
	// created: a step tapped an element that creates something (the
	// concept add): a document the run opened since is its own
	created bool
	// sends: the command sends something (the concept send: "send",
	// "text", "reply"; or a message's name as its verb: messageAsVerb);
	// only then is a value typed into a message's field
	sends bool
	// selectorsMarked: markSelectors ran
	selectorsMarked bool
	// explore: the exploratory taps taken (explore.go)
	explore exploration
	// toggled: a switch, check box or toggle button was acted on
	toggled bool
	// stale: steps taken in a row that did nothing the command asked
	stale int
	// valueRows: the value rows opened (valueRow.go), by elementKey;
	// valueRowFrom, valueRowStep: the screen and history length of the
	// last one
	valueRows    map[string]bool
	valueRowFrom string
	valueRowStep int
	// far: what this step found on the screens no known path reaches
	// (beyond.go), reset each step; menuOpened, choiceShown,
	// keypadOpened: the run opened an overflow menu, a current choice, an
	// element named as a keypad's activity for it (once each)
	far                                   farTargets
	menuOpened, choiceShown, keypadOpened bool
}

// farTargets is what a step found on the screens of the UI graph no known
// path reaches (appGraph.unreachable, graphCandidates).
type farTargets struct {
	// score: the best score of an element there, label its label;
	// settings: its screen is of a settings activity; here: a popup (a
	// dialog or menu) of the current screen's activity, menu: a popup
	// menu
	score                float64
	label                string
	settings, menu, here bool
	// optionScore: the best score of an option (a check box or radio
	// button) of a dialog there labelled with a word of the command, on
	// optionScreen, labelled optionLabel
	optionScore  float64
	optionScreen int64
	optionLabel  string
	// keypadAct: the activity of a keypad there, while a number is left
	// to key
	keypadAct string
}

// state returns the run's state, new for a new command. The command is
// read as g's labels say it: acronyms spelled out (daemon.ExpandAcronyms:
// "open the VPN" on an app with a "Virtual private network" page),
// units unglued (daemon.ExpandUnits: "24h" as "24 hour"), compounds
// joined (daemon.ReadCompounds: "number pad" as "numberpad") and number words
// read as digits (daemon.ReadNumberWords: "nine nine nine" as "999"); g may
// be nil when the run has begun.
func (p *Planner) state(st *daemon.PlanState, g *appGraph) *runState {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil || p.run.said != st.Command || len(st.History) < p.run.seen {
		cmd := st.Command
		if g != nil {
			labels := g.labels(st)
			for _, read := range []func(string, []string) (string, bool){daemon.ExpandAcronyms, daemon.ExpandUnits, daemon.ReadCompounds, daemon.ReadNumberWords} {
				if x, ok := read(cmd, labels); ok {
					cmd = x
				}
			}
		}
		var known func(term) bool
		if g != nil {
			var shown map[term]bool // the screen's terms, read once asked (a search's query only)
			known = func(t term) bool {
				if shown == nil {
					shown = map[term]bool{}
					for i := range st.Elements {
						for _, t := range elementTerms(&st.Elements[i], "") {
							shown[t] = true
						}
					}
				}
				return g.df[t] > 0 || shown[t]
			}
		}
		p.run = newRunStateIn(cmd, st.AppLabel, known)
		p.run.said = st.Command
		for _, w := range intent.Condition(cmd) {
			if known != nil && !slices.ContainsFunc(termsOf(w), known) {
				p.run.unmet = append(p.run.unmet, w)
			}
		}
		if st.Check && st.Learned != "" {
			p.run.recordAs(st.Learned)
		}
		if debugGraph {
			fmt.Fprintf(os.Stderr, "graphplan: command %q read as %q\n", st.Command, cmd)
		}
	}
	return p.run
}

// labels returns the labels (text, content-desc, hint) of the app's known
// elements and of the screen's.
func (g *appGraph) labels(st *daemon.PlanState) []string {
	out := make([]string, 0, len(g.labelled)+len(st.Elements))
	for t := range g.labelled {
		out = append(out, t)
	}
	for _, e := range st.Elements {
		out = append(out, e.Label)
	}
	return out
}

func newRunState(cmd, appLabel string) *runState { return newRunStateIn(cmd, appLabel, nil) }

// newRunStateIn is the run state of cmd in the app labelled appLabel;
// known, when not nil, tells the words the app's graph or screen holds,
// by which an unquoted search query is read (searchQuery).
func newRunStateIn(cmd, appLabel string, known func(term) bool) *runState {
	rs := &runState{cmd: cmd, covered: map[term]bool{}, keypadAt: map[string]bool{}, polarity: polarity(cmd), switches: switchesSomething(cmd), universal: intent.Universal(cmd)}
	u := intent.Understand(cmd)
	rs.valueNames = map[string]bool{}
	for _, n := range intent.Names(cmd) {
		rs.valueNames[n] = true
	}
	rs.verbs = clauseVerbs(cmd, u.Verbs)
	for _, c := range u.Verbs {
		rs.search = rs.search || c == "search"
		switch c {
		case "on", "off", "edit", "increase", "decrease":
			rs.configLike = true
		}
	}
	cmdTerms := termsOf(cmd)
	for i, c := range u.Phrase {
		if c != "" && u.Stems[i] != "" {
			if rs.phraseOf == nil {
				rs.phraseOf = map[term]term{}
			}
			rs.phraseOf[term(u.Stems[i])] = term("@" + c)
		}
	}
	rs.adds = slices.Contains(cmdTerms, "@add")
	rs.changesOnly = !rs.adds && (slices.Contains(cmdTerms, "@edit") || slices.Contains(cmdTerms, "@delete"))
	rs.sends = slices.Contains(cmdTerms, "@send") || messageAsVerb(cmd, u)
	rs.appWords = map[term]bool{}
	for _, tm := range termsOf(appLabel) {
		rs.appWords[tm] = true
	}
	u.Values = commandValues(cmd, u, rs.adds || rs.sends || slices.Contains(cmdTerms, "@edit") || slices.Contains(cmdTerms, "@save"))
	var query intent.Value // an unquoted search query (searchQuery)
	var queryKind []term   // the words before it that say what it names
	if rs.search && known != nil && !slices.ContainsFunc(u.Values, func(v intent.Value) bool { return v.Kind == intent.KindWord || v.Kind == intent.KindQuoted }) {
		if q, kind, ok := searchQuery(cmd, u, rs.appWords, known); ok {
			queryKind = kind
			u.Values = append(slices.Clone(u.Values), q)
			slices.SortFunc(u.Values, func(a, b intent.Value) int { return a.Start - b.Start })
			query = q
		}
	}
	var created intent.Value // a name said bare for what the command creates (bareName)
	if rs.adds && !rs.search && known != nil && !slices.ContainsFunc(u.Values, func(v intent.Value) bool {
		return v.Kind == intent.KindWord || v.Kind == intent.KindQuoted || intent.IsFileName(v)
	}) {
		if v, ok := bareName(cmd, u, known); ok {
			created = v
			u.Values = append(slices.Clone(u.Values), v)
			slices.SortFunc(u.Values, func(a, b intent.Value) int { return a.Start - b.Start })
		}
	}
	var message intent.Value // the text of a message to send, written as said
	if mv, ok := messageValue(cmd, u.Values, known); ok && rs.sends {
		message = mv
		u.Values = append(slices.DeleteFunc(slices.Clone(u.Values), func(v intent.Value) bool { return v.Start < mv.End && v.End > mv.Start }), mv)
	}
	for _, v := range u.Values {
		named := namedAsWritten(v)
		if v.Kind == intent.KindWord && !rs.search && !named {
			continue // proper-noun-like words are matched as terms, not typed
		}
		// the words before the value that may name its field; for a
		// number, time or date (typed only into a field they name) not
		// those naming the app ("… of the Jotter app to 140%" names no
		// field)
		ctx := wordsBefore(cmd[:v.Start], 2, func(t term) bool { return !named && rs.appWords[t] })
		val := value{at: v.Start, text: v.Text, quoted: named, file: intent.IsFileName(v), context: ctx, names: namesValue(cmd[:v.Start]) || rs.adds && createdName(cmd, v) || v == message || v == created,
			quantity: v.Kind == intent.KindNumber && measured(u, v), query: v == query && query.End > 0}
		if d, said, ok := commandDuration(u, v); ok {
			val.dur, val.durTerms = d, termsOf(said)
		}
		rs.values = append(rs.values, val)
	}
	rs.viewing = viewingCommand(cmd)
	rs.opens = rs.viewing && opensSomething(cmd)
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
	rs.bare = commandWithoutValues(cmd, u)
	from := fromOnly(rs.bare)
	for _, tm := range termsOf(rs.bare) {
		if !seen[tm] && !isPolarity(tm) && !slices.Contains(queryKind, tm) {
			seen[tm] = true
			w := 1.0
			if rs.appWords[tm] {
				w = 0.3 // words naming the app mostly identify it ("in Calendar")
			}
			nav := navTerms[tm] || from[tm]
			if nav {
				w *= NavWeight
			}
			rs.terms = append(rs.terms, cmdTerm{t: tm, weight: w, nav: nav})
		}
	}
	rs.describing = describingVerbs(cmd)
	rs.verb, rs.hasVerb = leadingVerb(cmd)
	rs.ownVerb = rs.hasVerb && !navTerms[rs.verb] && !slices.ContainsFunc(termsOf(string(rs.verb)), func(t term) bool { return strings.HasPrefix(string(t), "@") })
	rs.dials = rs.hasVerb && slices.Contains(termsOf(string(rs.verb)), "@call")
	rs.phrases = phrases(cmd)
	rs.words = commandWords(rs.bare)
	rs.semCovers = map[string][]term{}
	rs.worded, rs.semWhole = map[term]bool{}, map[string][]term{}
	return rs
}

func isPolarity(t term) bool { return t == "@on" || t == "@off" }

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

// completes reports whether candidate c, on the screen (not a path),
// does what is left of the command when only its action is left: every
// term still to do that the app knows is an action (a concept of the
// vocabulary's actions, "@delete", or a word naming one, "trash") or a
// word whose concept the run has acted on ("picture" once "photo" was),
// and c covers each such action concept. So the command's verb, once the run has
// reached its object ("Delete" on the photo "get rid of the last picture"
// opened), is no overshoot, however little of the command it weighs; c
// scores MinScore/2 at least, and no value of the command waits to be
// typed (a rename's new name goes into a field, not an "Edit" button).
func (rs *runState) completes(c candidate, w map[term]float64) bool {
	if c.via != 0 || c.score < MinScore/2 || rs.pendingValues() > 0 {
		return false
	}
	acts := 0
	for _, ct := range rs.terms {
		if rs.covered[ct.t] || ct.nav || w[ct.t] == 0 || rs.describing[ct.t] {
			continue
		}
		id, concept := strings.CutPrefix(string(ct.t), "@")
		switch {
		case concept && intent.IsAction(id):
			if !slices.Contains(c.covers, ct.t) {
				return false
			}
			acts++
		case concept:
			return false // an object still to reach
		case intent.ActionWord(rs.words[ct.t]):
			// a word naming an action: its concept above stands for it
		case !rs.conceptCovered(ct.t):
			return false // a word whose synonym was acted on ("picture" for "photo") is done
		}
	}
	return acts > 0
}

// commitOnly reports whether ts is not empty and every term of it is a
// commit: the concept save ("save", "OK", "apply", "done") or a word of
// the command that means it.
func (rs *runState) commitOnly(ts []term) bool {
	for _, t := range ts {
		if !rs.means(t, "@save") {
			return false
		}
	}
	return len(ts) > 0
}

// means reports whether t, a term of the command, is concept c or a term
// of the command word it came from (runState.words) that means c.
func (rs *runState) means(t, c term) bool {
	return t == c || slices.Contains(termsOf(rs.words[t]), c)
}

// contentLeft reports whether a term of the command that is neither
// navigation nor a commit (commitOnly), and that some element of the app
// carries (weight w above 0), is not covered yet.
func (rs *runState) contentLeft(w map[term]float64) bool {
	for _, ct := range rs.terms {
		if !ct.nav && w[ct.t] > 0 && !rs.covered[ct.t] && !rs.commitOnly([]term{ct.t}) {
			return true
		}
	}
	return false
}

// namingWords introduce a value as a name or a new setting rather than as
// something that exists: "called 'X'", "to 'X'", "as 'X'".
var namingWords = map[string]bool{"called": true, "named": true, "titled": true, "name": true, "to": true, "as": true, "into": true, "type": true, "write": true, "saying": true, "says": true, "text": true}

// onlyNav reports whether every term of ts is a navigation word of the
// command (cmdTerm.nav) or no term of it at all.
func (rs *runState) onlyNav(ts []term) bool {
	for _, t := range ts {
		for _, ct := range rs.terms {
			if ct.t == t && !ct.nav {
				return false
			}
		}
	}
	return true
}
