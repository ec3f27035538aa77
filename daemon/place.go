package daemon

import (
	"context"
	"slices"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// otherPlace reports the place a command closes with (intent.PlaceNamed:
// "… on Chirper", "… in the Snaps app") when it is no place of the app in
// front: not the app's label, no word the app's UI graph labels an
// element with or the app's flows say (texts), none of the values the
// candidate's slots take, and no word of the vocabulary. "send Morning
// to Ada on Chirper" is no command for the messaging app in front, whose
// flow would send it by text message; a wrong replay is worse than none.
// A name the app or the vocabulary knows ("… in the phone app" for a
// dialer, "in settings") may be the app's own, and stays a place of it.
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
	if slices.ContainsFunc(name, func(w string) bool { return known[intent.Stem(w)] || len(intent.Concepts(w)) > 0 }) {
		return "", false // "… in the phone app", "… in settings"
	}
	return strings.Join(name, " "), true
}
