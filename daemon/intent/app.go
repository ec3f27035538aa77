package intent

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// AppCandidate is an installed app IdentifyApp may pick: its package, its
// launcher label, and keywords from what the app is known to hold (labels
// of its screens' elements, its flows' intents).
type AppCandidate struct {
	Package  string   `json:"package"`
	Label    string   `json:"label"`
	Keywords []string `json:"keywords,omitempty"`
	// Similarity is the cosine between a sentence-embedding model's
	// vectors of the command and of the app's closest text (its label,
	// its flows' intents and past commands); 0 without a model.
	Similarity float64 `json:"similarity,omitempty"`
}

// AppScore is IdentifyApp's score of one app, in [0, 1], with a reason
// for people and logs.
type AppScore struct {
	Package string  `json:"package"`
	Label   string  `json:"label"`
	Score   float64 `json:"score"`
	Reason  string  `json:"reason"`
}

// Label-mention strengths.
const (
	labelCued   = 1.0  // label after "in/on/with/using/via/from/into/open…" or before "app"
	labelPlain  = 0.7  // label words anywhere in the command
	labelPart   = 0.8  // factor for a partial mention (times the fraction of label words)
	keywordCap  = 0.85 // the most keyword evidence alone can give
	minAppScore = 0.05 // apps scoring below are left out
	// Meaning evidence (AppCandidate.Similarity), for all-MiniLM-L6-v2
	// mean-pooled vectors, chosen, not fitted: cosines below simFloor say
	// nothing (unrelated short texts score 0.1–0.3); only the app closest
	// by simMargin gets any (two apps about as close are no evidence for
	// either); simCap is the most it alone can give, below a cued label.
	simFloor  = 0.35
	simMargin = 0.05
	simCap    = 0.6
)

var labelCues = setOf("in", "on", "with", "using", "via", "from", "into", "inside", "through")

// IdentifyApp scores which app cmd is about: the "identify app" step of
// the mobile virtual assistant (Phan & Luong, prompt "Identify App"),
// done without a model. Evidence combines by noisy-or:
//
//   - label mention: the app label's content words, by stem, found as a run
//     in the command — 1.0 when cued ("in Notes", "open Notes", "the Notes
//     app"), 0.7 otherwise, and 0.8 × the fraction found for a partial
//     multi-word label;
//   - keyword overlap: BM25 of the command's stems and concepts over each
//     app's keyword bag (documents = apps), divided by the ideal score of
//     the command's terms, times 0.85;
//   - meaning, when the caller embedded the command and the apps' texts
//     (AppCandidate.Similarity): for the app whose similarity s leads
//     every other's by 0.05, 0.6 × (s − 0.35) / 0.65 when s ≥ 0.35; it
//     reaches apps the command names in words neither their label nor
//     their keywords use ("buzz grandma" → the dialer).
//
// The result holds apps scoring at least 0.05, best first (ties by
// package).
func IdentifyApp(cmd string, apps []AppCandidate) []AppScore {
	q := analyze(cmd)
	qterms, qweights := appQueryTerms(q)
	// keyword documents
	type adoc struct {
		tf  map[string]int
		len int
	}
	docs := make([]adoc, len(apps))
	df := map[string]int{}
	total := 0
	for i, a := range apps {
		d := adoc{tf: map[string]int{}}
		for _, kw := range a.Keywords {
			for _, t := range patternTerms(analyze(kw)) {
				d.tf[t]++
				d.len++
			}
		}
		for t := range d.tf {
			df[t]++
		}
		total += d.len
		docs[i] = d
	}
	n := float64(len(apps))
	avgdl := 1.0
	if len(apps) > 0 && total > 0 {
		avgdl = float64(total) / n
	}
	ideal := 0.0
	for i, t := range qterms {
		ideal += qweights[i] * bm25IDF(n, df[t])
	}
	sims := appSimEvidence(apps)
	var out []AppScore
	for i, a := range apps {
		lab, why := labelMention(q, a.Label)
		kw, hits := 0.0, []string(nil)
		d := docs[i]
		for qi, t := range qterms {
			tf := float64(d.tf[t])
			if tf == 0 {
				continue
			}
			kw += qweights[qi] * bm25IDF(n, df[t]) * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*float64(d.len)/avgdl))
			hits = append(hits, t)
		}
		if ideal > 0 {
			kw = math.Min(1, kw/ideal)
		}
		score := 1 - (1-lab)*(1-keywordCap*kw)*(1-sims[i])
		if score < minAppScore {
			continue
		}
		var reasons []string
		if why != "" {
			reasons = append(reasons, why)
		}
		if len(hits) > 0 {
			reasons = append(reasons, fmt.Sprintf("keywords %s (%.2f)", strings.Join(hits, ", "), kw))
		}
		if sims[i] > 0 {
			reasons = append(reasons, fmt.Sprintf("meaning close to its texts (cosine %.2f)", a.Similarity))
		}
		out = append(out, AppScore{Package: a.Package, Label: a.Label, Score: score, Reason: strings.Join(reasons, "; ")})
	}
	slices.SortFunc(out, func(x, y AppScore) int {
		switch {
		case x.Score > y.Score:
			return -1
		case x.Score < y.Score:
			return 1
		}
		return strings.Compare(x.Package, y.Package)
	})
	return out
}

// appActionWeight is the weight of action words in the keyword evidence:
// verbs ("start", "add") are on every app; objects tell apps apart.
const appActionWeight = 0.3

// appQueryTerms are the command's BM25 terms for IdentifyApp, with
// weights.
func appQueryTerms(q []ptok) ([]string, []float64) {
	var terms []string
	var ws []float64
	add := func(t string, w float64) {
		if i := slices.Index(terms, t); i >= 0 {
			ws[i] = max(ws[i], w)
			return
		}
		terms = append(terms, t)
		ws = append(ws, w)
	}
	for i := range q {
		t := &q[i]
		if t.slot != "" || t.stop || t.strongValue() {
			continue
		}
		w := 1.0
		if t.hasAction() {
			w = appActionWeight
		}
		add(t.stem, w)
		for _, c := range t.concepts {
			add("@"+c.id, w)
		}
	}
	return terms, ws
}

// labelMention scores how the command names an app label.
func labelMention(q []ptok, label string) (float64, string) {
	lt := analyze(label)
	var want []string
	for _, t := range lt {
		if !t.stop || len(lt) == 1 {
			want = append(want, t.stem)
		}
	}
	if len(want) == 0 {
		return 0, ""
	}
	// longest run of label words found in order
	bestLen, bestAt := 0, -1
	for i := range q {
		k := 0
		for i+k < len(q) && k < len(want) && q[i+k].stem == want[k] {
			k++
		}
		if k > bestLen {
			bestLen, bestAt = k, i
		}
	}
	if bestLen == 0 {
		// single words of a multi-word label anywhere
		for _, w := range want {
			for i := range q {
				if q[i].stem == w && !q[i].stop {
					bestLen, bestAt = 1, i
					break
				}
			}
			if bestLen > 0 {
				break
			}
		}
		if bestLen == 0 {
			return 0, ""
		}
	}
	cued := false
	if bestAt > 0 {
		prev := &q[bestAt-1]
		cued = labelCues[prev.text] || slices.ContainsFunc(prev.concepts, func(c cmem) bool { return c.id == "open" })
	}
	if e := bestAt + bestLen; e < len(q) && (q[e].text == "app" || q[e].text == "application") {
		cued = true
	}
	s := labelPlain
	if cued {
		s = labelCued
	}
	if bestLen < len(want) {
		s *= labelPart * float64(bestLen) / float64(len(want))
	}
	how := "mentioned"
	if cued {
		how = "named as the app"
	}
	return s, fmt.Sprintf("label %q %s", label, how)
}

// appSimEvidence is each app's meaning evidence from its Similarity: only
// the closest app's, when it leads every other by simMargin and reaches
// simFloor.
func appSimEvidence(apps []AppCandidate) []float64 {
	out := make([]float64, len(apps))
	best, at := 0.0, -1
	for i, a := range apps {
		if a.Similarity > best {
			best, at = a.Similarity, i
		}
	}
	if at < 0 || best < simFloor {
		return out
	}
	for i, a := range apps {
		if i != at && best-a.Similarity < simMargin {
			return out
		}
	}
	out[at] = simCap * (best - simFloor) / (1 - simFloor)
	return out
}
