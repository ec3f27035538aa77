package daemon

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// identifyApp picks the target app: the forced package, else the best
// scored installed app (seed "virtual assistant", identify-app step), else
// the foreground app.
func (r *run) identifyApp(ctx context.Context, opt Options) (string, error) {
	if opt.Package != "" {
		if apps, err := r.e.dev.InstalledApps(ctx); err == nil {
			for _, a := range apps {
				if a.Package == opt.Package {
					r.appLabel = a.Label
				}
			}
		}
		r.emit(event.AppChosen, event.AppInfo{Package: opt.Package, Score: 1, Reason: "given"})
		return opt.Package, nil
	}
	if opt.FlowID != 0 {
		f, err := r.e.store.Flow(ctx, opt.FlowID)
		if err != nil {
			return "", err
		}
		r.emit(event.AppChosen, event.AppInfo{Package: f.Package, Score: 1, Reason: "flow " + f.Name})
		return f.Package, nil
	}
	apps, err := r.e.dev.InstalledApps(ctx)
	if err != nil {
		return "", machineErr{fmt.Errorf("installed apps: %w", err)}
	}
	fg, _ := r.e.dev.ForegroundApp(ctx)
	if len(apps) == 0 {
		if fg == "" {
			return "", errors.New("no app installed and none in the foreground")
		}
		return fg, nil
	}
	cands := make([]intent.AppCandidate, 0, len(apps))
	for _, a := range apps {
		c := intent.AppCandidate{Package: a.Package, Label: a.Label}
		c.Keywords = r.e.appKeywords(ctx, a.Package)
		cands = append(cands, c)
	}
	r.appSimilarity(ctx, cands)
	scores := intent.IdentifyApp(r.res.Command, cands)
	best := event.AppInfo{Package: fg, Reason: "foreground app"}
	if len(scores) > 0 && (scores[0].Score > 0 || fg == "") {
		best = event.AppInfo{Package: scores[0].Package, Score: scores[0].Score, Reason: scores[0].Reason}
	}
	if best.Package == "" {
		best.Package = apps[0].Package
	}
	for _, a := range apps {
		if a.Package == best.Package {
			best.Label = a.Label
			r.appLabel = a.Label
		}
	}
	r.emit(event.AppChosen, best)
	return best.Package, nil
}

// ensureForeground launches pkg unless it is already in the foreground.
func (r *run) ensureForeground(ctx context.Context, pkg string) error {
	fg, err := r.e.dev.ForegroundApp(ctx)
	if err != nil {
		return machineErr{fmt.Errorf("foreground app: %w", err)}
	}
	if fg == pkg {
		return nil
	}
	res, err := r.e.dev.Perform(ctx, device.Action{Type: device.Launch, Node: -1, Package: pkg})
	if err != nil {
		return machineErr{fmt.Errorf("launch %s: %w", pkg, err)}
	}
	if !res.OK {
		return fmt.Errorf("could not launch %s: %s", pkg, res.Message)
	}
	return nil
}

// observe captures the settled screen: it polls until two consecutive
// snapshots have the same fingerprint or SettleTimeout passes.
func (r *run) observe(ctx context.Context, step int) (*screen.Snapshot, string, error) {
	start := time.Now()
	s, err := r.e.dev.Snapshot(ctx)
	if err != nil {
		return nil, "", machineErr{fmt.Errorf("snapshot: %w", err)}
	}
	fp := screen.Fingerprint(s)
	for delay := 50 * time.Millisecond; time.Since(start) < r.cfg.SettleTimeout; delay *= 2 {
		s2, err := r.e.dev.Snapshot(ctx)
		if err != nil {
			return nil, "", machineErr{fmt.Errorf("snapshot: %w", err)}
		}
		fp2 := screen.Fingerprint(s2)
		if s2 == s || fp2 == fp {
			s, fp = s2, fp2
			break
		}
		s, fp = s2, fp2
		select {
		case <-ctx.Done():
			return nil, "", ctx.Err()
		case <-time.After(delay):
		}
	}
	r.e.mu.Lock()
	r.e.last = s
	r.e.mu.Unlock()
	elems := screen.Elements(s)
	info := event.ScreenInfo{Step: step + 1, Fingerprint: fp, Activity: s.Activity, Package: s.ForegroundPackage(),
		Width: s.Width, Height: s.Height, CaptureMS: time.Since(start).Milliseconds(), Elements: make([]event.ScreenElement, len(elems))}
	for i, el := range elems {
		info.Elements[i] = event.ScreenElement{Index: i, Kind: el.Kind, Label: el.Label, Bounds: el.Bounds}
	}
	r.emit(event.Snapshot, info)
	return s, fp, nil
}

// appKeywords returns words describing an app from its known flows, for
// app identification.
func (e *Engine) appKeywords(ctx context.Context, pkg string) []string {
	flows, err := e.store.Flows(ctx, knowledge.FlowFilter{Package: pkg})
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range flows {
		out = append(out, strings.Fields(f.Intent)...)
		for _, c := range f.Commands {
			out = append(out, strings.Fields(c)...)
		}
	}
	return out
}

// mapStrings returns f of every string of in (nil for nil).
func mapStrings(in []string, f func(string) string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}
