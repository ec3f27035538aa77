package daemon

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// otherPlace reports the place a command closes with (intent.PlaceNamed:
// "… on Chirper", "… in the Snaps app", "… in Zing notes"), or an app it
// names as one anywhere (intent.AppNamedWithin: "change the font in the
// chirper app to medium"; a word of the vocabulary too), when it is no
// place of the app in front: its first word is no word of the app's
// label, of the element labels of the app's UI graph, of the app's flows
// (texts, their slots' names aside) or of the values the candidate's slots take, no word of the
// vocabulary, and no number. "send Morning to Ada on Chirper" is no
// command for the messaging app in front, whose flow would send it by
// text message, nor is "… in Zing notes" one for the notes app in front;
// a wrong replay is worse than none. A name the app or the vocabulary
// knows first ("… in the phone app" for a dialer, "in settings", "in 24h
// view", "in one view") may be the app's own, and stays a place of it; so
// does one word said bare that the model's vocabulary knows ("… on top";
// intent.BarePlace), while "… on whatsapp" or "… on Telegram" is a place.
func (r *run) otherPlace(ctx context.Context, texts []string, slots map[string]string) (string, bool) {
	name, ok := intent.PlaceNamed(r.res.Command)
	called := false // named an app in so many words, anywhere: "… in the chirper app …"
	if !ok {
		name, ok = intent.AppNamedWithin(r.res.Command)
		called = ok
	}
	if !ok {
		return "", false
	}
	if w, bare := intent.BarePlace(r.res.Command); bare && !called {
		// "… so z is on top", "… from scratch": a word any dictionary
		// knows, said bare, is how the command ends, not where it runs
		if lex, ok := r.cfg.Embedder.(interface{ KnowsWord(string) bool }); ok && lex.KnowsWord(w) {
			return "", false
		}
	}
	first := intent.Stem(name[0])
	if _, number := intent.NumberWord(name[0]); number || !called && len(intent.Concepts(name[0])) > 0 || strings.ContainsAny(name[0], "0123456789") {
		return "", false // "… in settings", "… in 24h format", "… in one view"
	}
	says := func(text string) bool {
		return slices.ContainsFunc(choiceWords(text), func(w string) bool { return intent.Stem(w) == first })
	}
	// a flow's texts say it in their words, not in the names of their
	// slots: "{thread_type_message}" names no place
	saysInWords := func(text string) bool { return says(reSlotRef.ReplaceAllString(text, " ")) }
	if says(r.appLabel) || slices.ContainsFunc(texts, saysInWords) || slices.ContainsFunc(slices.Collect(maps.Values(slots)), says) {
		return "", false
	}
	// the app's UI graph last: read from the store once per run
	if g := r.uiGraph(ctx); g != nil && slices.ContainsFunc(g.Elements, func(e knowledge.Element) bool { return says(e.Label) }) {
		return "", false // "… in the phone app" where the dialer's screens say "Phone"
	}
	return strings.Join(name, " "), true
}

// knownWords returns whether a word (lower case) is one Spelled must
// leave as it is: a whole word of the on-device model's vocabulary (an
// English word), a word of the app's label, of its flows (texts) or of
// the element labels of its UI graph (read once per run); nil without a
// model, whose vocabulary is the dictionary: no word is then corrected.
func (r *run) knownWords(ctx context.Context, texts []string) func(string) bool {
	lex, ok := r.cfg.Embedder.(interface{ KnowsWord(string) bool })
	if !ok {
		return nil
	}
	var app map[string]bool
	return func(w string) bool {
		if lex.KnowsWord(w) {
			return true
		}
		if app == nil {
			app = map[string]bool{}
			add := func(t string) {
				for _, x := range choiceWords(t) {
					app[x] = true
				}
			}
			add(r.appLabel)
			for _, t := range texts {
				add(t)
			}
			if g := r.uiGraph(ctx); g != nil {
				for _, e := range g.Elements {
					add(e.Label)
				}
			}
		}
		return app[w]
	}
}

// uiGraph returns the app's UI graph, read from the store the first time
// a run asks for it; nil when there is no store or app, or it cannot be
// read (the checks that want it then go without).
func (r *run) uiGraph(ctx context.Context) *knowledge.Graph {
	if r.graph == nil && r.e.store != nil && r.app.ID != 0 {
		if g, err := r.e.store.Graph(ctx, r.app.ID); err == nil {
			r.graph = g
		}
	}
	return r.graph
}
