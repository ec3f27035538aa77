package daemon

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/privacy"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// The screens a flow keeps for the route check (routecheck.go): each
// step's screen as the run that learned or last replayed the flow saw it
// before acting, and its end screen, packed, without the text the run
// typed and with its secrets redacted (knowledge.FlowScreen). A flow
// learned or replayed while no route checker was set keeps none.

// walkScreen unpacks a kept snapshot for the walk, a field the walk
// typed into (by descriptor key, typed) showing that text.
func walkScreen(packed []byte, typed map[string]string) (*screen.Snapshot, error) {
	raw, err := unpackSnapshot(packed)
	if err != nil {
		return nil, err
	}
	s, err := screen.ParseJSON(raw)
	if err != nil || len(typed) == 0 {
		return s, err
	}
	keys, _ := screen.ParseJSON(raw) // descriptors are cached: read them from a copy
	for i := range s.Nodes {
		if t, ok := typed[screen.Describe(keys, i).Key()]; ok && s.Nodes[i].Editable {
			s.Nodes[i].Text = t
		}
	}
	return s, nil
}

// shot is screen s (fingerprint fp) as a flow keeps it (keptSnapshot);
// the zero FlowScreen without a route checker.
func (r *run) shot(fp string, s *screen.Snapshot) knowledge.FlowScreen {
	if r.cfg.RouteCheck == nil {
		return knowledge.FlowScreen{}
	}
	return knowledge.FlowScreen{Fingerprint: fp, Snapshot: r.keptSnapshot(s)}
}

// keepShot keeps screen s (fingerprint fp) as the one step i acts on.
func (r *run) keepShot(i int, fp string, s *screen.Snapshot) {
	if r.cfg.RouteCheck == nil {
		return
	}
	if r.shots == nil {
		r.shots = map[int]knowledge.FlowScreen{}
	}
	r.shots[i] = r.shot(fp, s)
}

// replayedAsIs reports whether steps replayed flow f step for step, each
// on the screen it was learned on, none found already done (a switch
// already set shows another screen than the flow's).
func replayedAsIs(f *knowledge.Flow, steps []StepRecord) bool {
	if len(steps) != len(f.Steps) {
		return false
	}
	for i, s := range steps {
		if s.Screen != f.Steps[i].Screen || s.Backtracked || alreadySet(s) {
			return false
		}
	}
	return true
}

// repairedPath returns the run's records behind the steps of flow f
// repaired at step failedAt (repairFlow): one replayed record per step
// before it, acted on that step's screen, then the planner's path from
// steps[kept:]; false when a replayed step has no such record (it was
// found already done, or recovered from) or the path is not as long as
// the repaired flow (n steps).
func repairedPath(f *knowledge.Flow, failedAt, kept, n int, steps []StepRecord) ([]StepRecord, bool) {
	var path []StepRecord
	for _, s := range steps[:kept] {
		if len(path) == failedAt {
			break
		}
		if s.Mode != "replay" || !s.OK || s.Backtracked || s.Undo || alreadySet(s) {
			continue
		}
		if s.Screen != f.Steps[len(path)].Screen {
			return nil, false
		}
		path = append(path, s)
	}
	if len(path) != failedAt {
		return nil, false
	}
	path = append(path, shortestPath(steps[kept:])...)
	return path, len(path) == n
}

// keepScreens stores, for flow id, the screens steps (the run's steps the
// flow's steps came from, in order) acted on and the run's end screen;
// nothing when one is missing. The route check reads them.
func (r *run) keepScreens(ctx context.Context, id int64, steps []StepRecord) error {
	if r.cfg.RouteCheck == nil || len(r.end.Snapshot) == 0 {
		return nil
	}
	screens := make([]knowledge.FlowScreen, 0, len(steps)+1)
	for i, s := range steps {
		sc, ok := r.shots[s.Step]
		if !ok || len(sc.Snapshot) == 0 {
			return nil
		}
		sc.Index = i
		screens = append(screens, sc)
	}
	end := r.end
	end.Index = len(steps)
	if err := r.e.store.SetFlowScreens(ctx, id, append(screens, end)); err != nil {
		return machineErr{err}
	}
	return nil
}

// keptSnapshot is s as the store keeps it for the route check: snapshot
// JSON without the text this run typed (a field shows what it showed
// before the run, so a walk types its own value there) and with the
// run's secrets redacted; nil when it cannot be encoded.
func (r *run) keptSnapshot(s *screen.Snapshot) []byte {
	if s == nil || r.cfg.RouteCheck == nil {
		return nil
	}
	raw, err := s.MarshalJSON()
	if err != nil {
		return nil
	}
	var fields []screen.Descriptor
	for _, st := range r.steps {
		if st.Action == device.Input && st.Target.Class != "" {
			fields = append(fields, st.Target)
		}
	}
	if len(fields) > 0 {
		c, err := screen.ParseJSON(raw)
		if err != nil {
			return nil
		}
		var ids []int
		for _, d := range fields {
			if m, ok := screen.Ground(c, d); ok && c.Nodes[m.NodeID].Editable {
				ids = append(ids, m.NodeID)
			}
		}
		for _, id := range ids {
			c.Nodes[id].Text = ""
		}
		if raw, err = c.MarshalJSON(); err != nil {
			return nil
		}
	}
	if len(r.secrets) > 0 { // with none, redaction changes nothing
		raw = privacy.RedactJSON(raw, r.secrets, false)
	}
	return packSnapshot(raw)
}

// maxSnapshot bounds a kept snapshot's JSON once unpacked (bytes): a
// phone's screen is tens of kB; anything past this is not one.
const maxSnapshot = 8 << 20

// packSnapshot gzips snapshot JSON for the store (about a tenth of its
// size: the 2.6 MB of the 226 screens the 127 recorded tasks visit
// become 0.34 MB);
// nil when it cannot.
func packSnapshot(raw []byte) []byte {
	var b bytes.Buffer
	w := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(w)
	w.Reset(&b)
	if _, err := w.Write(raw); err != nil || w.Close() != nil {
		return nil
	}
	return b.Bytes()
}

// gzipWriters pools the writers of packSnapshot: each holds about a
// megabyte of compressor state, too much to make per step.
var gzipWriters = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed) // a valid level: no error
	return w
}}

// unpackSnapshot returns the JSON of a kept snapshot: gunzipped when
// packed (packSnapshot), as is when not. Errors: a corrupt stream, or
// JSON past maxSnapshot.
func unpackSnapshot(b []byte) ([]byte, error) {
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(r, maxSnapshot+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > maxSnapshot {
		return nil, fmt.Errorf("more than %d bytes unpacked", maxSnapshot)
	}
	return raw, nil
}
