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
		{"turn on dark mode in appearance", nil, nil, ""},                                 // a label of the app's UI graph
		{"turn on dark mode in settings", nil, nil, ""},                                   // a word of the vocabulary
		{"turn on dark mode in the quillnote app", nil, nil, ""},                          // the app's own label
		{"turn on dark mode on Chirper", []string{"mirror my notes on chirper"}, nil, ""}, // a flow says it
		{"send a note to Ada in Lisbon", nil, map[string]string{"city": "Lisbon"}, ""},    // a value of the flow's
		{"turn on dark mode in zorblat appearance", nil, nil, "zorblat appearance"},       // another maker's
		{"turn on dark mode in appearance zorblat", nil, nil, ""},
		{"turn on dark mode in 24h view", nil, nil, ""},
		{"turn on dark mode in one zorblat", nil, nil, ""},
		{"turn on dark mode", nil, nil, ""},
	} {
		r := &run{e: &Engine{}, appLabel: "Quillnote", res: &Result{Command: tc.command},
			graph: &knowledge.Graph{Elements: []knowledge.Element{{Label: "Appearance"}, {Label: "Dark mode"}}}}
		if got, _ := r.otherPlace(context.Background(), tc.texts, tc.slots); got != tc.want {
			t.Errorf("%q: other place %q, want %q", tc.command, got, tc.want)
		}
	}
}
