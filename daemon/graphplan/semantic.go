// Semantic evidence: with an embedding model (UseEmbedder), a command word
// that no element's words carry ("keypad") may still be covered by the
// element whose text means the same ("Dialpad"), the whole command's
// similarity to an element's text breaks ties among elements that match,
// and the one label closest to the whole command by a clear margin covers
// the command's words by meaning (nearestCovers).

package graphplan

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
)

// Semantic coverage thresholds, on the cosine between one command word and
// an element's text (all-MiniLM-L6-v2 mean-pooled vectors; chosen from a
// handful of generic word pairs, not fitted to the evaluation): a word is
// covered by a text at SemSame or above ("keypad" / "Dialpad" 0.71,
// "photo" / "Picture" 0.85; "white" / "Dark" is 0.55), or at SemLeast or
// above when that text is the closest of every text of the app and the
// current screen by SemMargin ("selfie" / "Front camera" 0.42 against
// 0.27 for the next). SemLeast and SemMargin also pick the label meaning
// the whole command (closest1; on the tuning sets' rewordings a margin of
// 0.05 lost three recorded tasks and 0.15 three rewordings).
const (
	SemSame   = 0.65
	SemLeast  = 0.40
	SemMargin = 0.10
	// SemWeight scales a semantically covered word against a literal
	// match, as ConceptWeight scales synonyms; an element covering only
	// such words is halved again (strict before semantic).
	SemWeight = ConceptWeight
	// SemTieBreak scales the whole command's cosine with an element's
	// text in the tie-breaking bonus of an element that matches.
	SemTieBreak = 0.1
	// semMaxRunes: longer texts (paragraphs) are not embedded.
	semMaxRunes = 60
)

// UseEmbedder makes the planner compare meanings through emb whatever
// the engine's embedder (PlanState.Embedder, which it uses otherwise);
// nil: back to the engine's. Vectors are cached in memory and in the
// store by (model, text).
func (p *Planner) UseEmbedder(emb semantic.Embedder) {
	p.mu.Lock()
	p.own = emb != nil
	p.memo = p.newMemo(emb)
	p.mu.Unlock()
}

func (p *Planner) newMemo(emb semantic.Embedder) *simil.Memo {
	var cache semantic.Cache
	if p.store != nil {
		cache = p.store
	}
	return simil.New(emb, cache)
}

// memoFor returns the embeddings of a step: UseEmbedder's, else those of
// the engine's embedder (one Memo per model name, kept across runs so
// each text is embedded once per process); nil: none.
func (p *Planner) memoFor(st *daemon.PlanState) *simil.Memo {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.own {
		return p.memo
	}
	if st.Embedder == nil {
		return nil
	}
	if p.memo == nil || p.memo.Model() != st.Embedder.EmbedModel() {
		p.memo = p.newMemo(st.Embedder)
	}
	return p.memo
}

// semHit is an element's semantic evidence: the uncovered command terms
// its text means, and the command's cosine with it.
type semHit struct {
	terms []term
	// whole: those of terms the element covers only as the element
	// meaning the whole command (nearestCovers), none of them by itself
	whole  []term
	cmdSim float64
}

// semStep is the semantic evidence of one step, by element text.
type semStep struct {
	byText map[string]semHit
}

func (s *semStep) hit(text string) semHit {
	if s == nil {
		return semHit{}
	}
	return s.byText[simil.Normalize(text)]
}

// semText is the text of an element that is embedded: its label, else its
// resource-id words; "" for a paragraph.
func semText(label, resourceID string) string {
	t := label
	if strings.TrimSpace(t) == "" {
		t = idWords(resourceID)
	}
	t = simil.Normalize(t)
	if utf8.RuneCountInString(t) > semMaxRunes {
		return ""
	}
	return t
}

// commandWords maps each literal term of bare, the command with its values
// blanked (commandWithoutValues), to the word it came from, for embedding
// words the vocabulary cannot match.
func commandWords(bare string) map[term]string {
	out := map[term]string{}
	for _, tok := range intent.Tokenize(bare) {
		if tok.Kind != intent.KindWord || intent.IsStopword(tok.Text) {
			continue
		}
		for _, t := range termsOf(tok.Text) {
			if _, ok := out[t]; !ok && !strings.HasPrefix(string(t), "@") {
				out[t] = strings.ToLower(tok.Text)
			}
		}
	}
	return out
}

// semantics computes the step's semantic evidence over the texts of the
// current screen's elements and of every element of the app's graph; nil
// without an embedder, or when embedding fails (the planner then decides
// on words alone).
func (p *Planner) semantics(ctx context.Context, rs *runState, st *daemon.PlanState, g *appGraph) *semStep {
	memo := p.memoFor(st)
	rs.alias, rs.polar = nil, nil
	if memo == nil {
		return nil
	}
	// a secret of the command (a password) is never embedded: the model
	// may be an endpoint, and vectors are cached with their text
	var words []term
	for _, ct := range rs.terms {
		if !ct.nav && !rs.covered[ct.t] && !strings.HasPrefix(string(ct.t), "@") && rs.words[ct.t] != "" && !inSecret(rs.words[ct.t], st.Secrets) {
			words = append(words, ct.t)
		}
	}
	seen := map[string]bool{}
	var texts []string
	vocab := map[term]string{}
	for t, wd := range g.vocab {
		vocab[t] = wd
	}
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			texts = append(texts, t)
		}
	}
	onScreen := map[term]bool{}
	labelled := map[string]bool{} // texts of this screen that are labels, not resource-id words (g.labelled: the graph's)
	for i := range st.Elements {
		if e := &st.Elements[i]; e.Kind == screen.KindInput || e.Password {
			continue // what is typed is no label
		}
		t := semText(st.Elements[i].Label, st.Elements[i].Resource)
		add(t)
		if l := strings.TrimSpace(st.Elements[i].Label); l != "" && l != screen.ResourceName(st.Elements[i].Resource) {
			labelled[t] = true
		}
		addWords(vocab, t)
		for _, tm := range elementTerms(&st.Elements[i], "") {
			onScreen[tm] = true
		}
	}
	for _, t := range g.texts {
		add(t)
	}
	sort.Strings(texts) // map order must not decide ties
	vterms := make([]term, 0, len(vocab))
	for t := range vocab {
		vterms = append(vterms, t)
	}
	sort.Slice(vterms, func(i, j int) bool { return vterms[i] < vterms[j] })
	query := []string{simil.Normalize(privacy.Redact(rs.bare, st.Secrets, false))}
	for _, t := range words {
		query = append(query, rs.words[t])
	}
	all := append(append([]string(nil), query...), texts...)
	for _, t := range vterms {
		all = append(all, vocab[t])
	}
	vs, err := memo.Vectors(ctx, all)
	if err != nil {
		if debugGraph {
			fmt.Fprintf(os.Stderr, "graphplan: no semantic evidence: %v\n", err)
		}
		return nil
	}
	qv, tv, vv := vs[:len(query)], vs[len(query):len(query)+len(texts)], vs[len(query)+len(texts):]
	s := &semStep{byText: make(map[string]semHit, len(texts))}
	// the element meaning the command is sought among labels: a row's
	// container, named by its resource-id words, would be the label's
	// rival ("…_word_counter_holder" for "Show a word counter")
	cmdSims := make([]float64, len(texts))
	for j, t := range texts {
		c := simil.Cosine(qv[0], tv[j])
		s.byText[t] = semHit{cmdSim: max(0, c)}
		cmdSims[j] = -1
		if labelled[t] || g.labelled[t] {
			cmdSims[j] = c
		}
	}
	if debugGraph {
		idx := make([]int, len(texts))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool { return cmdSims[idx[a]] > cmdSims[idx[b]] })
		for _, i := range idx[:min(3, len(idx))] {
			fmt.Fprintf(os.Stderr, "graphplan: near %.3f %q\n", cmdSims[i], texts[i])
		}
	}
	rs.nearest = ""
	if j := closest1(cmdSims); j >= 0 && !rs.namesApp(texts[j]) {
		rs.nearest = texts[j]
		h := s.byText[rs.nearest]
		h.whole = rs.nearestCovers(g, h.terms)
		h.terms = append(h.terms, h.whole...)
		s.byText[rs.nearest] = h
	}
	var unknown []term
	var uv [][]float32
	for i, t := range words {
		for _, j := range closest(qv[i+1], tv) {
			h := s.byText[texts[j]]
			h.terms = append(h.terms, t)
			s.byText[texts[j]] = h
		}
		if g.df[t] == 0 && !onScreen[t] {
			unknown, uv = append(unknown, t), append(uv, qv[i+1])
		}
	}
	rs.alias = map[term][]term{}
	for i, u := range unknown {
		for _, j := range closest(uv[i], vv) {
			rs.alias[u] = append(rs.alias[u], vterms[j])
		}
	}
	if debugGraph {
		fmt.Fprintf(os.Stderr, "graphplan: aliases %v\n", rs.alias)
	}
	rs.polar = polarWords(ctx, memo, rs.cmd, st)
	return s
}

// closest1 returns the index of the one cosine of cos that is at least
// SemLeast and beats every other by SemMargin, or -1 (the same rule as
// closest's, without SemSame: several texts may mean the command equally).
func closest1(cos []float64) int {
	best, second, at := -1.0, -1.0, -1
	for j, c := range cos {
		switch {
		case c > best:
			best, second, at = c, best, j
		case c > second:
			second = c
		}
	}
	if at < 0 || best < SemLeast || best-second < SemMargin {
		return -1
	}
	return at
}

// namesApp reports whether every term of text is a word of the app's
// label (rs.appWords): such an element ("Clock" in an app named Clock) is
// close to any command that names the app, and says nothing of what it
// asks.
func (rs *runState) namesApp(text string) bool {
	ts := termsOf(text)
	for _, t := range ts {
		if !rs.appWords[t] {
			return false
		}
	}
	return len(ts) > 0
}

// nearestCovers returns the command terms, not yet covered, that the
// element meaning the whole command (rs.nearest: its text is the closest
// to the command of the app's texts by a clear margin) covers by meaning,
// besides have: every one but navigation words, the command's values
// (quoted text, numbers, words with a digit), which only an element
// carrying them covers, the words of the options its tap leads to in the
// graph (offeredAfter), and a word that is the whole text of an element
// of the app (appGraph.oneWord: "ledger" of "lay my notes out as a
// ledger" when the nearest is "Layout": that element is what the word
// names, and the planner goes on to it; stop 44). None when its tap
// leads to one of the command's values ("3" of "show 3 tiles per row"
// after "Tiles per row"): it is a way there, not what the command does.
//
// A rewording names an option in other words than its label ("count my
// words as I type" for "Show a word counter while editing"): the words
// left over would otherwise keep the planner looking for them after the
// option is set, and the option would rank below elements sharing a word
// with the command.
func (rs *runState) nearestCovers(g *appGraph, have []term) []term {
	next := g.offeredAfter(rs.nearest)
	vals := valueTerms(rs.cmd)
	for _, v := range rs.values {
		for _, t := range termsOf(v.text) {
			vals[t] = true
		}
	}
	for t := range vals {
		if next[t] {
			return nil
		}
	}
	var out []term
	for _, ct := range rs.terms {
		if !ct.nav && !rs.covered[ct.t] && !next[ct.t] && !vals[ct.t] && !g.oneWord[ct.t] && !slices.Contains(have, ct.t) && !slices.Contains(out, ct.t) {
			out = append(out, ct.t)
		}
	}
	return out
}

// closest returns the indexes of the vectors of vs that mean what q means:
// a cosine of SemSame or more, or the closest one when its cosine is at
// least SemLeast and beats every other's by SemMargin.
func closest(q []float32, vs [][]float32) []int {
	cos := make([]float64, len(vs))
	for j := range vs {
		cos[j] = simil.Cosine(q, vs[j])
	}
	at := closest1(cos)
	var out []int
	for j, c := range cos {
		if c >= SemSame || j == at {
			out = append(out, j)
		}
	}
	return out
}

// inSecret reports whether word is part of one of secrets (case aside).
func inSecret(word string, secrets []string) bool {
	for _, s := range secrets {
		if strings.Contains(strings.ToLower(s), strings.ToLower(word)) {
			return true
		}
	}
	return false
}

// addWords adds the literal terms of text's words to vocab, each with the
// word it came from.
func addWords(vocab map[term]string, text string) {
	for _, tok := range intent.Tokenize(text) {
		if tok.Kind != intent.KindWord || intent.IsStopword(tok.Text) || len(tok.Text) < 3 {
			continue
		}
		for _, t := range termsOf(tok.Text) {
			if _, ok := vocab[t]; !ok && !strings.HasPrefix(string(t), "@") {
				vocab[t] = strings.ToLower(tok.Text)
			}
		}
	}
}

// anyIn reports whether some term of ts is in set.
func anyIn(ts []term, set map[term]bool) bool {
	for _, t := range ts {
		if set[t] {
			return true
		}
	}
	return false
}

// coverAliases covers the command words whose aliases a tapped element's
// terms carry.
func (rs *runState) coverAliases(tapped []term) {
	set := map[term]bool{}
	for _, t := range tapped {
		set[t] = true
	}
	for u, as := range rs.alias {
		if anyIn(as, set) {
			rs.covered[u] = true
		}
	}
}

// offeredAfter returns the terms of the elements on the screens that a
// tap on an element whose text is text leads to in the graph (the
// options of the dialog or list it opens).
func (g *appGraph) offeredAfter(text string) map[term]bool {
	out := map[term]bool{}
	for _, id := range g.byText[text] {
		e := g.elems[id]
		for _, ed := range g.out[e.ScreenID] {
			if ed.element != id {
				continue
			}
			for _, o := range g.onScr[ed.to] {
				for _, tm := range g.terms[o.ID] {
					out[tm] = true
				}
			}
		}
	}
	return out
}

// valueTerms returns the terms of the command's values: quoted text,
// numbers, and words with a digit ("test1", "50%"): the option or item to
// pick, which only an element carrying it covers.
func valueTerms(cmd string) map[term]bool {
	out := map[term]bool{}
	for _, tok := range intent.Tokenize(cmd) {
		if tok.Kind == intent.KindWord && !strings.ContainsAny(tok.Text, "0123456789") {
			continue
		}
		for _, t := range termsOf(tok.Text) {
			out[t] = true
		}
	}
	return out
}
