package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestFlowsCheck: `flows check` says, per flow, why its route was not
// confirmed for the command that learned it (here: no screens kept), or
// for the command given; a bad ID is a usage error.
func TestFlowsCheck(t *testing.T) {
	ctx := context.Background()
	st, err := openStore(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f := knowledge.Flow{Package: "com.example.notes", Name: "archive the note", Intent: "archive the note", Commands: []string{"archive the note"},
		Steps: []knowledge.Step{{Screen: "fp-0", Action: "tap", Expect: "fp-1", Target: screen.Descriptor{Class: "android.widget.Button", Text: "Archive"}}}}
	if err := st.SaveFlow(ctx, &f); err != nil {
		t.Fatal(err)
	}
	eng := daemon.New(nil, st, nil, nil, daemon.Config{RouteCheck: graphplan.New(st)})
	for _, tc := range []struct {
		pos  []string
		want string
	}{
		{nil, `not confirmed for "archive the note": its screens were not kept`},
		{[]string{"1", "put", "the", "note", "away"}, `not confirmed for "put the note away"`},
	} {
		var b bytes.Buffer
		if err := checkRoutes(ctx, &b, eng, st, tc.pos); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), tc.want) {
			t.Errorf("%v printed %q, want %q in it", tc.pos, b.String(), tc.want)
		}
	}
	if err := checkRoutes(ctx, &bytes.Buffer{}, eng, st, []string{"x"}); err == nil {
		t.Error("a bad flow ID: no error")
	}
}
