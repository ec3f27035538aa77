package daemon

import (
	"context"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// otherPlace reports the place a command closes with (intent.PlaceNamed:
// "… on Chirper", "… in the Snaps app", "… in Zing notes") when it is no
// place of the app in front: its first word is no word of the app's
// label, of the element labels of the app's UI graph, of the app's flows
// (texts) or of the values the candidate's slots take, no word of the
// vocabulary, and no number. "send Morning to Ada on Chirper" is no
// command for the messaging app in front, whose flow would send it by
// text message, nor is "… in Zing notes" one for the notes app in front;
// a wrong replay is worse than none. A name the app or the vocabulary
// knows first ("… in the phone app" for a dialer, "in settings", "in 24h
// view", "in one view") may be the app's own, and stays a place of it.
func (r *run) otherPlace(ctx context.Context, texts []string, slots map[string]string) (string, bool) {
	name, ok := intent.PlaceNamed(r.res.Command)
	if !ok {
		return "", false
	}
	known := map[string]bool{}
	add := func(text string) {
		for _, w := range choiceWords(text) {
			known[intent.Stem(w)] = true
		}
	}
	add(r.appLabel)
	for _, t := range texts {
		add(t)
	}
	for _, v := range slots {
		add(v)
	}
	if r.graph == nil && r.e.store != nil && r.app.ID != 0 {
		if g, err := r.e.store.Graph(ctx, r.app.ID); err == nil {
			r.graph = g
		}
	}
	if r.graph != nil {
		for _, e := range r.graph.Elements {
			add(e.Label)
		}
	}
	knows := func(w string) bool {
		_, number := intent.NumberWord(w)
		return known[intent.Stem(w)] || len(intent.Concepts(w)) > 0 || number || strings.ContainsAny(w, "0123456789")
	}
	if knows(name[0]) {
		return "", false // "… in the phone app", "… in settings", "… in 24h format"
	}
	return strings.Join(name, " "), true
}
