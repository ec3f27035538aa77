package semantic

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// Values picked by meaning (issue 11, item 3): the option of a list or
// dialog that a command names in other words than the option's own —
// "aerial view" for "Satellite", "french" for "Français", "sort by
// time" for "Time added". The engine asks only when no option is named
// word for word (daemon/choice.go); a replay never taps a guess.
//
// The comparison is a phrase alignment, after BERTScore's greedy matching
// of tokens (Zhang et al., "BERTScore", ICLR 2020, §3) taken to phrases:
// each option scores the cosine of its label with the closest phrase of
// the command (one to MaxPhraseWords words, not beginning or ending in a
// stop word), not with the whole command, whose other words ("in the
// map app", "please") are alike close to every option and drown the one
// that differs.

// MaxPhraseWords is the longest phrase of a command compared with the
// options of a choice, in words: option labels are short ("Satellite",
// "128 kbps", "15 minutes before").
const MaxPhraseWords = 3

// maxPhrases bounds the phrases of one command that are embedded: a
// command of 40 content words still costs one small batch.
const maxPhrases = 96

// Phrases returns the phrases of command compared with option labels:
// every run of 1 to MaxPhraseWords words (lower case, split on anything
// but letters, digits and '%') that neither begins nor ends with a stop
// word (intent.IsStopword), without repeats, shortest first, at most
// maxPhrases.
func Phrases(command string) []string {
	words := strings.FieldsFunc(strings.ToLower(command), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '%'
	})
	var out []string
	seen := map[string]bool{}
	for n := 1; n <= MaxPhraseWords; n++ {
		for i := 0; i+n <= len(words); i++ {
			if intent.IsStopword(words[i]) || intent.IsStopword(words[i+n-1]) {
				continue
			}
			p := strings.Join(words[i:i+n], " ")
			if seen[p] {
				continue
			}
			if len(out) == maxPhrases {
				return out
			}
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// Choice is an option PickChoice found named by meaning: its index in the
// labels, its cosine with the closest phrase of the command, and the
// phrases of the command that reach Config.ChoiceMinCosine with it,
// closest first.
type Choice struct {
	Index   int
	Cosine  float64
	Phrases []string
}

// PickChoice returns the one option that command names by meaning;
// Index -1 when none does. An option is
// named when the cosine of its label with the closest phrase of the
// command (Phrases) is at least Config.ChoiceMinCosine and exceeds every
// other option's by Config.ChoiceMargin: two options about as close are
// a guess, and a value the list does not offer ("italian" among
// languages without it) stays below the bar rather than landing on a neighbour.
// With ChoiceMinCosine 0 (the default: not measured for endpoint
// models), fewer than two labels, or no phrase, it returns -1 and no
// error. An embedder failure is returned (and rests the embedder, as for
// matching) with -1.
//
// Labels are embedded through the cache (they are screen text, like the
// element texts the graph planner embeds); phrases of the command only
// in memory, so a command never fills the store with its fragments.
// command must already be redacted of secrets.
func (r *Rescorer) PickChoice(ctx context.Context, command string, labels []string) (Choice, error) {
	none := Choice{Index: -1}
	if r == nil || r.cfg.ChoiceMinCosine <= 0 || len(labels) < 2 {
		return none, nil
	}
	phrases := Phrases(command)
	if len(phrases) == 0 {
		return none, nil
	}
	if err := r.resting(); err != nil {
		return none, err
	}
	var d Decision
	texts := make([]string, len(labels))
	for i, l := range labels {
		texts[i] = normalize(l)
	}
	lv, err := r.embed(ctx, texts, &d)
	if err != nil {
		return none, err
	}
	pv, err := r.embedWith(ctx, phrases, &d, nil)
	if err != nil {
		return none, err
	}
	best, runner := Choice{Index: -1, Cosine: -2}, -2.0
	var bestCos []float64 // cosine of each phrase with the best option
	for i := range labels {
		c, cos := Choice{Index: i, Cosine: -2}, make([]float64, len(pv))
		for j, p := range pv {
			cos[j] = -2
			if texts[i] != "" {
				cos[j] = Cosine(lv[i], p)
			}
			c.Cosine = max(c.Cosine, cos[j])
		}
		switch {
		case c.Cosine > best.Cosine:
			runner, best, bestCos = best.Cosine, c, cos
		case c.Cosine > runner:
			runner = c.Cosine
		}
	}
	if best.Index < 0 || best.Cosine < r.cfg.ChoiceMinCosine || best.Cosine-runner < r.cfg.ChoiceMargin {
		return Choice{Index: -1, Cosine: best.Cosine}, nil
	}
	var near []int // phrases reaching the floor with the best option
	for j := range phrases {
		if bestCos[j] >= r.cfg.ChoiceMinCosine {
			near = append(near, j)
		}
	}
	slices.SortStableFunc(near, func(a, b int) int { return cmp.Compare(bestCos[b], bestCos[a]) })
	for _, j := range near {
		best.Phrases = append(best.Phrases, phrases[j])
	}
	return best, nil
}
