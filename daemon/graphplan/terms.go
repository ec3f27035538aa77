// Command terms and scoring: what the command asks for (terms, values,
// phrases), how much each term weighs (IDF over the app), and how well an
// element on screen covers what is left.

package graphplan

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
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
}

// runState is what the planner keeps during one command.
type runState struct {
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
	scrolls           int
	lastPrint         string
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
	// words: the command word each literal term came from; unknownW: the
	// weight in unknown of each word no element carries; semCovers: the
	// terms an on-screen element covered by meaning (semantic.go), by its
	// descriptor key, so a tap on it covers them
	words     map[term]string
	unknownW  map[term]float64
	semCovers map[string][]term
	// alias: for a command word no element carries, the app's words that
	// mean the same (semantic.go), recomputed each step
	alias map[term][]term
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
	// nearest: the label of the app (screen and graph) whose meaning is
	// closest to the whole command by SemMargin over the next, unless it
	// only names the app, or ""; recomputed each step (semantic.go)
	nearest string
	// appWords: the terms of the app's label
	appWords map[term]bool
	// created: a step tapped an element that creates something (the
	// concept add): a document the run opened since is its own
	created bool
	// sends: the command sends something (the concept send: "send",
	// "text", "reply"); only then is a value typed into a message's field
	sends bool
	// selectorsMarked: markSelectors ran
	selectorsMarked bool
	// explore: the exploratory taps taken (explore.go)
	explore exploration
	// toggled: a switch, check box or toggle button was acted on
	toggled bool
	// stale: steps taken in a row that did nothing the command asked
	stale int
}

func (p *Planner) state(st *daemon.PlanState) *runState {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.run == nil || p.run.cmd != st.Command || len(st.History) < p.run.seen {
		p.run = newRunState(st.Command, st.AppLabel)
		if debugGraph {
			fmt.Fprintf(os.Stderr, "graphplan: command %q\n", st.Command)
		}
	}
	return p.run
}

func newRunState(cmd, appLabel string) *runState {
	rs := &runState{cmd: cmd, covered: map[term]bool{}, polarity: polarity(cmd), switches: switchesSomething(cmd), universal: intent.Universal(cmd)}
	u := intent.Understand(cmd)
	for _, c := range u.Verbs {
		rs.search = rs.search || c == "search"
		switch c {
		case "on", "off", "edit", "increase", "decrease":
			rs.configLike = true
		}
	}
	cmdTerms := termsOf(cmd)
	rs.adds = slices.Contains(cmdTerms, "@add")
	rs.changesOnly = !rs.adds && (slices.Contains(cmdTerms, "@edit") || slices.Contains(cmdTerms, "@delete"))
	rs.sends = slices.Contains(cmdTerms, "@send")
	rs.appWords = map[term]bool{}
	for _, tm := range termsOf(appLabel) {
		rs.appWords[tm] = true
	}
	for _, v := range u.Values {
		if v.Kind == intent.KindWord && !rs.search {
			continue // proper-noun-like words are matched as terms, not typed
		}
		// the words before the value that may name its field; for a
		// number, time or date (typed only into a field they name) not
		// those naming the app ("… of the Jotter app to 140%" names no
		// field)
		ctx := termsOf(cmd[:v.Start])
		if v.Kind != intent.KindQuoted {
			ctx = slices.DeleteFunc(slices.Clone(ctx), func(t term) bool { return rs.appWords[t] })
		}
		if len(ctx) > 2 {
			ctx = ctx[len(ctx)-2:]
		}
		rs.values = append(rs.values, value{text: v.Text, quoted: v.Kind == intent.KindQuoted, context: ctx, names: namesValue(cmd[:v.Start])})
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
	for _, tm := range termsOf(commandWithoutValues(cmd, u)) {
		if !seen[tm] && !isPolarity(tm) {
			seen[tm] = true
			w := 1.0
			if rs.appWords[tm] {
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
	rs.words = commandWords(cmd, u)
	rs.semCovers = map[string][]term{}
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

// targetTerms returns the terms of an acted-on element: its label,
// content-desc and resource-id words.
func targetTerms(d screen.Descriptor) []term {
	return termsOf(d.Label() + " " + d.Desc + " " + d.ResourceID)
}

// elementTerms returns the terms an element offers: its label, hint,
// resource-id words and stored documentation.
func elementTerms(e *screen.Element, doc string) []term {
	return termsOf(e.Label + " " + e.Hint + " " + e.Resource + " " + doc)
}

// screenCandidates scores the operations on the current screen.
func (p *Planner) screenCandidates(rs *runState, st *daemon.PlanState, sem *semStep, w map[term]float64) []candidate {
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
				ov := overlap(rs.values[v].context, elementTerms(e, ""))
				if screen.IsBody(st.Screen, e) && !rs.created && overlap(rs.values[v].context, termsOf(e.Hint)) == 0 {
					// a document's body (screen.IsBody): typing would replace
					// what the owner wrote, and no word before the value
					// names the field's hint. Its resource-id words do not
					// count: a "note text" id shares "note" with any
					// command about notes. A document the run created is
					// the command's own ("create a note … and type 'X'")
					continue
				}
				sc := 0.2 + 0.5*ov
				if e.Focused || daemon.IsDialog(st.Screen) {
					sc += 0.25
				}
				if rs.search && isSearchField(e) {
					sc += 0.5 // the command asks to search: this is where
				}
				out = append(out, candidate{action: device.Input, element: i, text: rs.values[v].text,
					score: sc / (1 + penalty(st, device.Input, d)), reason: fmt.Sprintf("type %q into %q", rs.values[v].text, e.Label)})
			}
			continue
		case screen.KindScroll:
			continue
		}
		hit := sem.hit(semText(e.Label, e.Resource))
		sc, covers := rs.match(e.Label+" "+e.Resource, elementTerms(e, ""), hit, w)
		if sc <= 0 {
			continue
		}
		if len(hit.terms) > 0 {
			rs.semCovers[d.Key()] = hit.terms
		}
		action := device.Tap
		if e.Kind == screen.KindCheckbox && rs.polarity != 0 {
			// set the toggle to the command's state: the engine taps it only
			// when it differs, and the flow keeps "switch on/off"
			action = daemon.ActEnsureOff
			if switchPolarity(rs.cmd, e.Label) > 0 {
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
		out = append(out, candidate{action: action, element: i, score: sc, covers: covers, tie: hit.cmdSim,
			reason: fmt.Sprintf("%q matches the command", e.Label)})
	}
	return out
}

// match scores how much of the command's uncovered weight an element's
// terms cover, with a bonus for a strict phrase match. sem is the
// element's semantic evidence (zero without an embedder): the terms its
// text means count SemWeight of their weight (a word no element carries
// its weight in unknown), as synonyms. (The command's cosine with the
// text only ranks candidates: candidate.tie.)
func (rs *runState) match(label string, terms []term, sem semHit, w map[term]float64) (float64, []term) {
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
	semSet := map[term]bool{}
	for _, t := range sem.terms {
		semSet[t] = true
	}
	got := 0.0
	var covers []term
	first := -1 // position of the first uncovered command term
	hitFirst := false
	literal := false
	for i, ct := range rs.terms {
		if rs.covered[ct.t] {
			continue
		}
		if w[ct.t] == 0 {
			if semSet[ct.t] && rs.unknownW[ct.t] > 0 {
				got += SemWeight * rs.unknownW[ct.t]
				covers = append(covers, ct.t)
			}
			continue
		}
		if first < 0 {
			first = i
		}
		bare, qualified := bareOf(ct.t)
		switch {
		case set[ct.t] || qualified && set[bare]:
			got += w[ct.t]
			covers = append(covers, ct.t)
			hitFirst = hitFirst || i == first
			literal = literal || !strings.HasPrefix(string(ct.t), "@")
		case anyIn(rs.alias[ct.t], set): // its weight is a synonym's already
			got += w[ct.t]
			covers = append(covers, ct.t)
			hitFirst = hitFirst || i == first
		case semSet[ct.t]:
			got += SemWeight * w[ct.t]
			covers = append(covers, ct.t)
			hitFirst = hitFirst || i == first
		}
	}
	valueHit := false
	for _, v := range rs.values {
		if !v.done && containsValue(label, v.text) {
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

// containsValue reports whether s holds value v (case folded) with its
// numbers whole: where v begins or ends with a digit, the text beside it
// in s is not a digit, leading zeros aside ("1" is in "Sat, 1 Jul" and
// "1 minute", not in "11:04 AM" or "page 10"; "5:00" is in "05:00").
// Words may be inflected ("recent" is in "Recents").
func containsValue(s, v string) bool {
	if v == "" {
		return false
	}
	s, v = strings.ToLower(s), strings.ToLower(v)
	first, _ := utf8.DecodeRuneInString(v)
	last, _ := utf8.DecodeLastRuneInString(v)
	for from := 0; from <= len(s)-len(v); {
		i := strings.Index(s[from:], v)
		if i < 0 {
			return false
		}
		i += from
		lead := strings.TrimRightFunc(s[:i], unicode.IsDigit)
		after, _ := utf8.DecodeRuneInString(s[i+len(v):])
		if !(unicode.IsDigit(first) && strings.Trim(s[len(lead):i], "0") != "") && !(unicode.IsDigit(last) && i+len(v) < len(s) && unicode.IsDigit(after)) {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		from = i + size
	}
	return false
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
	rs.unknownW = map[term]float64{}
	for _, ct := range rs.terms {
		df := float64(g.df[ct.t])
		if onScreen[ct.t] {
			df++
		}
		weight := ct.weight
		if strings.HasPrefix(string(ct.t), "@") {
			weight *= ConceptWeight
		}
		if df == 0 && len(rs.alias[ct.t]) > 0 {
			// a word the app never showed, with one it shows that means
			// the same (semantic.go): weighs as a synonym of the rarest
			dfa := math.Inf(1)
			for _, a := range rs.alias[ct.t] {
				d := float64(g.df[a])
				if onScreen[a] {
					d++
				}
				if d > 0 {
					dfa = math.Min(dfa, d)
				}
			}
			if !math.IsInf(dfa, 1) {
				w[ct.t] = SemWeight * weight * math.Log(1+n/dfa)
				continue
			}
		}
		if df == 0 {
			// a word the app never showed: it cannot be matched, but it
			// dilutes how much of the command any element covers
			if !strings.HasPrefix(string(ct.t), "@") {
				uw := UnknownWeight * weight * math.Log(1+n)
				rs.unknown += uw
				rs.unknownW[ct.t] = uw
			}
			continue
		}
		w[ct.t] = weight * math.Log(1+n/df)
	}
	return w
}

// commitOnly reports whether ts is not empty and every term of it is a
// commit: the concept save ("save", "OK", "apply", "done") or a word of
// the command that means it.
func (rs *runState) commitOnly(ts []term) bool {
	for _, t := range ts {
		if t != "@save" && !slices.Contains(termsOf(rs.words[t]), "@save") {
			return false
		}
	}
	return len(ts) > 0
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

// namesValue reports whether the word before a value (before is the
// command up to the value) introduces it as a name or a new value.
func namesValue(before string) bool {
	f := strings.Fields(strings.ToLower(strings.TrimRight(before, " '\"“‘«`:")))
	return len(f) > 0 && namingWords[strings.Trim(f[len(f)-1], ",.;")]
}

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
