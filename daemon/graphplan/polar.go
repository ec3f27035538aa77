package graphplan

// A switch labelled with an on/off word the vocabulary does not know
// ("Conceal …"), for a command that says what it wants with one it knows
// ("hide", "show"): the label's word is read as the model reads it.

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
)

// polarWords maps each word of a switch's label on st's screen that the
// vocabulary does not know, and that the model reads as an on or an off
// word, to that word, when the command says what it wants with one of the
// vocabulary's weak on/off words ("show", "hide", "allow", "prevent"),
// which also name settings. intent.SwitchState compares the command's
// words with the label's by stem: for "turn on hide dialpad digits" it
// would read "hide" as the state asked for (off) against a switch
// "Conceal dialpad digits", and for "show dialpad digits" it would not
// know that "Conceal" says the opposite. With "conceal" read as "hide"
// (the command's own word when it has one of that side, else the side's
// nearest word), the first is the setting's name turned on and the second
// its opposite. A label word reads as a side when its best cosine with the
// side's words (intent.Surfaces "on" or "off") is at least SemLeast and
// beats its best with the other side's by SemMargin: a model puts
// opposites close ("conceal" is 0.64 from "hide" and 0.49 from "unhide"
// with the on-device MiniLM), so the margin, not the cosine alone, tells
// them apart. nil when nothing maps or embedding fails.
func polarWords(ctx context.Context, memo *simil.Memo, cmd string, st *daemon.PlanState) map[string]string {
	sides := [2]string{"on", "off"}
	var own [2]string // the command's weak word of each side
	weak := false
	said := map[string]bool{} // the command's words, by stem
	for _, w := range strings.Fields(strings.ToLower(cmd)) {
		w = strings.Trim(w, ".,!?'\"")
		said[intent.Stem(w)] = true
		for i, c := range sides {
			if own[i] == "" && slices.Contains(intent.Surfaces(c), w) && !slices.Contains(intent.StrongSurfaces(c), w) && !inSecret(w, st.Secrets) {
				own[i], weak = w, true
			}
		}
	}
	if !weak {
		return nil
	}
	var cands []string // words of switch labels no concept knows, not the command's
	for i := range st.Elements {
		e := &st.Elements[i]
		if e.Kind != screen.KindCheckbox {
			continue
		}
		for _, x := range strings.Fields(strings.ToLower(e.Label)) {
			x = strings.Trim(x, ".,!?'\"()")
			if len([]rune(x)) >= 3 && !intent.IsStopword(x) && len(intent.Concepts(x)) == 0 && !slices.Contains(cands, x) && !inSecret(x, st.Secrets) && !said[intent.Stem(x)] {
				cands = append(cands, x)
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	on, off := intent.Surfaces("on"), intent.Surfaces("off")
	vs, err := memo.Vectors(ctx, slices.Concat(on, off, cands))
	if err != nil {
		return nil
	}
	sv, cv := vs[:len(on)+len(off)], vs[len(on)+len(off):]
	var out map[string]string
	for j, x := range cands {
		var best [2]float64
		var nearest [2]string
		for k, v := range sv {
			side, word := 0, ""
			if k < len(on) {
				word = on[k]
			} else {
				side, word = 1, off[k-len(on)]
			}
			if c := simil.Cosine(cv[j], v); nearest[side] == "" || c > best[side] {
				best[side], nearest[side] = c, word
			}
		}
		side := 0
		if best[1] > best[0] {
			side = 1
		}
		if best[side] < SemLeast || best[side]-best[1-side] < SemMargin {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[x] = cmp.Or(own[side], nearest[side])
	}
	if debugGraph && out != nil {
		fmt.Fprintf(os.Stderr, "graphplan: switch label words read as on/off words %v\n", out)
	}
	return out
}

// polarLabel is label with each word read as an on/off word
// (runState.polar) written as that word, for reading the state the
// command asks a switch labelled label to be in.
func (rs *runState) polarLabel(label string) string {
	if len(rs.polar) == 0 {
		return label
	}
	ws := strings.Fields(label)
	for i, w := range ws {
		if p, ok := rs.polar[strings.Trim(strings.ToLower(w), ".,!?'\"()")]; ok {
			ws[i] = p
		}
	}
	return strings.Join(ws, " ")
}
