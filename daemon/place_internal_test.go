package daemon

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestOtherPlace: the place a command closes with is another app's
// unless the app's label, its UI graph, its flows, the candidate's values
// or the vocabulary name it.
func TestOtherPlace(t *testing.T) {
	for _, tc := range []struct {
		command string
		texts   []string
		slots   map[string]string
		want    string
	}{
		{"turn on dark mode on Chirper", nil, nil, "chirper"},
		{"turn on dark mode in the Chirper app", nil, nil, "chirper"},
		{"turn on dark mode using Zorblat Vexo", nil, nil, "zorblat vexo"},
		{"turn on dark mode in appearance", nil, nil, ""},                                                         // a label of the app's UI graph
		{"turn on dark mode in settings", nil, nil, ""},                                                           // a word of the vocabulary
		{"turn on dark mode in the quillnote app", nil, nil, ""},                                                  // the app's own label
		{"turn on dark mode on Chirper", []string{"mirror my notes on chirper"}, nil, ""},                         // a flow says it
		{"set the font in the chirper app to large", []string{"post {text} to {chirper_thread}"}, nil, "chirper"}, // a slot's name says nothing
		{"send a note to Ada in Lisbon", nil, map[string]string{"city": "Lisbon"}, ""},                            // a value of the flow's
		{"turn on dark mode in zorblat appearance", nil, nil, "zorblat appearance"},                               // another maker's
		{"turn on dark mode in appearance zorblat", nil, nil, ""},
		{"turn on dark mode in 24h view", nil, nil, ""},
		{"turn on dark mode in one zorblat", nil, nil, ""},
		{"turn on dark mode", nil, nil, ""},
		{"set the font in the chirper app to large", nil, nil, "chirper"}, // an app in so many words, anywhere
		{"set the font in the appearance app to large", nil, nil, ""},
		{"set the font in the chirper to large", nil, nil, ""},
	} {
		r := &run{e: &Engine{}, appLabel: "Quillnote", res: &Result{Command: tc.command},
			graph: &knowledge.Graph{Elements: []knowledge.Element{{Label: "Appearance"}, {Label: "Dark mode"}}}}
		if got, _ := r.otherPlace(context.Background(), tc.texts, tc.slots); got != tc.want {
			t.Errorf("%q: other place %q, want %q", tc.command, got, tc.want)
		}
	}
}

// TestOtherPlaceBare: one word said bare after the preposition that the
// model's vocabulary knows ends the command ("… on top"); one it does
// not know, one written with its capital, or one called an app is a
// place.
func TestOtherPlaceBare(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"sort the notes by title so z is on top", ""},
		{"wipe my notes, I start from scratch", ""},
		{"turn on dark mode on chirper", "chirper"},
		{"turn on dark mode on Telegram", "telegram"},
		{"turn on dark mode on the telegram", "telegram"},
		{"set the font in the telegram app to large", "telegram"},
	} {
		r := &run{e: &Engine{}, appLabel: "Quillnote", res: &Result{Command: tc.command},
			cfg:   Config{Embedder: lexicon{"top": true, "scratch": true, "telegram": true}},
			graph: &knowledge.Graph{Elements: []knowledge.Element{{Label: "Appearance"}}}}
		if got, _ := r.otherPlace(context.Background(), nil, nil); got != tc.want {
			t.Errorf("%q: other place %q, want %q", tc.command, got, tc.want)
		}
	}
}

// lexicon is an embedder whose vocabulary holds words.
type lexicon map[string]bool

func (lexicon) EmbedModel() string { return "lexicon" }
func (lexicon) Embed(context.Context, []string) ([][]float32, error) {
	return nil, nil
}
func (l lexicon) KnowsWord(w string) bool { return l[w] }

// TestKnownWords: the words Spelled leaves alone are the model's whole
// words and the app's own (its label, its flows, its UI graph); without
// a model that knows words, there is no dictionary and nothing is
// corrected.
func TestKnownWords(t *testing.T) {
	r := &run{e: &Engine{}, appLabel: "Quillnote", res: &Result{},
		cfg:   Config{Embedder: lexicon{"open": true}},
		graph: &knowledge.Graph{Elements: []knowledge.Element{{Label: "Inkwell presets"}}}}
	known := r.knownWords(context.Background(), []string{"open the sketchpad"})
	for w, want := range map[string]bool{"open": true, "quillnote": true, "sketchpad": true, "inkwell": true, "presets": true, "sketchpda": false} {
		if known(w) != want {
			t.Errorf("known(%q) = %v, want %v", w, !want, want)
		}
	}
	r.cfg.Embedder = nil
	if r.knownWords(context.Background(), nil) != nil {
		t.Error("a dictionary without a model")
	}
}
