package daemon

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestUnpackSnapshot: a kept snapshot comes back as it went in, plain
// JSON passes through, and a corrupt or oversized one is an error.
func TestUnpackSnapshot(t *testing.T) {
	raw := []byte(`{"schema":1,"width":1080,"height":2280,"windows":[]}`)
	packed := packSnapshot(raw)
	if len(packed) == 0 || bytes.Equal(packed, raw) {
		t.Fatalf("packed %q", packed)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want []byte
		err  string
	}{
		{"packed", packed, raw, ""},
		{"plain", raw, raw, ""},
		{"corrupt", append(packed[:10:10], 0, 1, 2, 3), nil, "unexpected EOF"},
		{"oversized", packSnapshot(bytes.Repeat([]byte{' '}, maxSnapshot+1)), nil, "more than"},
	} {
		got, err := unpackSnapshot(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		case tc.err == "" && (err != nil || !bytes.Equal(got, tc.want)):
			t.Errorf("%s: %q %v", tc.name, got, err)
		}
	}
}

// BenchmarkKeptSnapshot: keeping one screen for the route check (the
// demo's settings screen, after a field was typed into elsewhere): JSON,
// typed text out, gzip. Paid once per step of a planned or replayed run.
func BenchmarkKeptSnapshot(b *testing.B) {
	phone, _ := demotest.New(b, false)
	if err := phone.Reset("settings"); err != nil {
		b.Fatal(err)
	}
	s, err := phone.Snapshot(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	r := &run{cfg: Config{RouteCheck: stubPlanner{}}, steps: []StepRecord{{Action: device.Input, Target: screen.Descriptor{Class: "android.widget.EditText", ResourceID: "x:id/title"}}}}
	b.ReportAllocs()
	for b.Loop() {
		if len(r.keptSnapshot(s)) == 0 {
			b.Fatal("nothing kept")
		}
	}
}

// stubPlanner stands for a route checker where none is asked.
type stubPlanner struct{}

func (stubPlanner) Name() string { return "stub" }
func (stubPlanner) Next(context.Context, *PlanState) (Decision, error) {
	return Decision{Action: ActDone}, nil
}
