package daemon

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/internal/embedtest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/simil"
)

// TestLabelSimilarityFromEmbedder: with an embedder and no
// Config.LabelSimilarity, re-grounding accepts a reworded label the model
// says means the same (another resource-id), and only then.
func TestLabelSimilarityFromEmbedder(t *testing.T) {
	bag := embedtest.Bag(map[string]string{"night": "dark"}, nil)
	want := screen.Descriptor{ResourceID: "app:id/theme_dark", Class: "android.widget.Switch", Text: "Dark mode", Checkable: true}
	for _, tc := range []struct {
		name    string
		embed   bool
		got     string
		matches bool
	}{
		{"no model: a reworded label with another id is no match", false, "Night mode", false},
		{"model: the same meaning matches", true, "Night mode", true},
		{"model: another meaning does not", true, "Light mode", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &run{}
			if tc.embed {
				r.memo = simil.New(bag, nil)
			}
			got := want
			got.ResourceID, got.Text = "app:id/x1", tc.got
			sc := relaxedScore(want, got, r.labelSimilarity(context.Background()))
			if (sc > 0) != tc.matches {
				t.Fatalf("relaxedScore = %.3f, want a match: %v", sc, tc.matches)
			}
		})
	}
}
