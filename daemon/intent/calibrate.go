package intent

import (
	"math"
	"slices"
)

// DefaultThreshold is the Candidate.Score at or above which a saved flow
// may be replayed without a model. It comes from Calibrate on the labelled
// candidates of this package's tests (paraphrases and new slot values that
// must match; polarity conflicts, negations, swapped roles, other tasks on
// the same app, missing slot values and unrelated commands that must not):
// there the lowest correct candidate scores 0.68 and the highest wrong one
// 0.57, and Calibrate returns 0.625; the constant is rounded up, since a
// wrong flow replayed is worse than a miss.
const DefaultThreshold = 0.63

// GreyZone is how far below the replay threshold a candidate may score
// and still be replayed on other evidence than words (daemon/semantic:
// embeddings), and then only when it has no Vetoes. On the labelled
// candidates of this package's tests the highest-scoring wrong candidate
// without a veto scores 0.414 ("sort notes by title" against the flow
// "sort notes by date", a substitution of one object word that an
// embedding would likely call similar), so DefaultThreshold − GreyZone =
// 0.48 keeps every such candidate out; TestGreyZoneHoldsNoWrongCandidate
// guards it. A wider zone would reach substitutions that only the
// embedding could tell apart.
const GreyZone = 0.15

// Example is one labelled ranking outcome: the score a candidate got and
// whether replaying it would have been right.
type Example struct {
	Score   float64 `json:"score"`
	Correct bool    `json:"correct"`
}

// Calibrate picks a replay threshold from labelled examples: among the
// thresholds that separate the sorted scores, the one with the highest
// precision (replays that are correct), then the highest recall (correct
// candidates replayed), then the largest margin. The returned threshold
// lies midway between the lowest accepted score and the highest rejected
// score below it, so it generalises rather than sitting on an example.
// With no examples it returns DefaultThreshold and zero precision and
// recall; when no threshold accepts a correct example it returns one above
// every score (at most 1; a wrong example scoring 1 is then accepted and
// shows in the precision). Precision with nothing accepted counts as 1.
func Calibrate(examples []Example) (threshold, precision, recall float64) {
	if len(examples) == 0 {
		return DefaultThreshold, 0, 0
	}
	ex := slices.Clone(examples)
	for i := range ex {
		if math.IsNaN(ex[i].Score) {
			ex[i].Score = 0
		}
		ex[i].Score = math.Max(0, math.Min(1, ex[i].Score))
	}
	slices.SortFunc(ex, func(a, b Example) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	pos := 0
	for _, e := range ex {
		if e.Correct {
			pos++
		}
	}
	// cut c accepts ex[:c]; only cuts between distinct scores
	bestP, bestR, bestMargin := -1.0, -1.0, -1.0
	bestCut := 0
	tp, fp := 0, 0
	for c := 0; c <= len(ex); c++ {
		if c > 0 {
			if ex[c-1].Correct {
				tp++
			} else {
				fp++
			}
		}
		if c > 0 && c < len(ex) && ex[c].Score == ex[c-1].Score {
			continue // cannot split equal scores
		}
		p := 1.0
		if tp+fp > 0 {
			p = float64(tp) / float64(tp+fp)
		}
		r := 0.0
		if pos > 0 {
			r = float64(tp) / float64(pos)
		}
		margin := 0.0
		switch {
		case c == 0:
			margin = 1 - ex[0].Score
		case c == len(ex):
			margin = ex[c-1].Score
		default:
			margin = ex[c-1].Score - ex[c].Score
		}
		if p > bestP+1e-12 || (math.Abs(p-bestP) <= 1e-12 && (r > bestR+1e-12 || (math.Abs(r-bestR) <= 1e-12 && margin > bestMargin))) {
			bestP, bestR, bestMargin, bestCut = p, r, margin, c
		}
	}
	switch {
	case bestCut == 0:
		threshold = math.Min(1, ex[0].Score+math.Max(1e-6, (1-ex[0].Score)/2))
		if ex[0].Score >= 1 {
			threshold = 1
		}
	case bestCut == len(ex):
		threshold = ex[len(ex)-1].Score / 2
	default:
		threshold = (ex[bestCut-1].Score + ex[bestCut].Score) / 2
	}
	// recompute precision and recall at the returned threshold
	tp, fp = 0, 0
	for _, e := range ex {
		if e.Score >= threshold {
			if e.Correct {
				tp++
			} else {
				fp++
			}
		}
	}
	precision = 1
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if pos > 0 {
		recall = float64(tp) / float64(pos)
	}
	return threshold, precision, recall
}
