package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Live adapts the dispatcher to a live debugging client (the inspector's
// Controller): runs start asynchronously and report through the event
// bus; the current screen is the last capture during a run.
type Live struct {
	a  *API
	mu sync.Mutex
	wg sync.WaitGroup
}

// Live returns the asynchronous view of the dispatcher.
func (a *API) Live() *Live { return &Live{a: a} }

// ErrBusy is returned when a run is already in progress.
var ErrBusy = &Error{Code: "busy", Message: "a command is running"}

// Run starts command and returns its run id once it started.
// The owner's references are resolved from the context library first.
func (l *Live) Run(ctx context.Context, command string) (string, error) {
	return l.RunSteps(ctx, command, "")
}

// Replay starts the saved flow with slot values.
func (l *Live) Replay(ctx context.Context, flowID int64, slots map[string]string) (string, error) {
	if flowID == 0 {
		return "", badRequest("replay: flow id is missing")
	}
	return l.start("", daemon.Options{FlowID: flowID, Slots: slots})
}

func (l *Live) start(command string, opt daemon.Options) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	eng := l.a.eng
	if eng.RunID() != "" {
		return "", ErrBusy
	}
	sub := eng.Bus().Subscribe(64)
	defer eng.Bus().Unsubscribe(sub)
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		_, _ = eng.Run(context.Background(), command, opt)
	}()
	for ev := range sub.C {
		if ev.Type == "run_started" {
			return ev.RunID, nil
		}
	}
	return "", errors.New("the run ended before it started")
}

// Cancel stops the run with this id.
func (l *Live) Cancel(runID string) error {
	if cur := l.a.eng.RunID(); cur == "" || (runID != "" && runID != cur) {
		return &Error{Code: "not_found", Message: fmt.Sprintf("no run %q in progress", runID)}
	}
	l.a.eng.Cancel()
	return nil
}

// Answer gives the owner's reply to the question the run is waiting on
// (inspect.Answerer); an error with code not_found when none is.
func (l *Live) Answer(text string) error {
	if !l.a.answer(text) {
		return &Error{Code: "not_found", Message: "no question is waiting for an answer"}
	}
	return nil
}

// Snapshot returns the last capture during a run, else a fresh one.
func (l *Live) Snapshot(ctx context.Context) (*screen.Snapshot, error) {
	if l.a.eng.RunID() != "" {
		if s := l.a.eng.LastSnapshot(); s != nil {
			return s, nil
		}
	}
	return l.a.eng.Device().Snapshot(ctx)
}

// Flows lists the saved flows.
func (l *Live) Flows(ctx context.Context) ([]knowledge.Flow, error) {
	return l.a.store.Flows(ctx, knowledge.FlowFilter{})
}

// FlowHistory lists the versions of flow id (inspect.FlowVersions).
func (l *Live) FlowHistory(ctx context.Context, id int64) ([]knowledge.FlowVersion, error) {
	return l.a.store.FlowHistory(ctx, id)
}

// RollbackFlow makes a version of flow id current again, as a new version
// (inspect.FlowVersions); busy while a command runs.
func (l *Live) RollbackFlow(ctx context.Context, id int64, version int) error {
	_, err := l.a.Call(ctx, "flows.rollback", mustJSON(map[string]any{"id": id, "version": version}))
	return err
}

func mustJSON(v map[string]any) json.RawMessage {
	b, _ := json.Marshal(v) // a map of ints cannot fail
	return b
}

// Graph returns the UI transition graph of the foreground app.
func (l *Live) Graph(ctx context.Context) (*knowledge.Graph, error) {
	pkg, err := l.a.eng.Device().ForegroundApp(ctx)
	if err != nil {
		return nil, err
	}
	app, err := l.a.store.AppByPackage(ctx, pkg)
	if errors.Is(err, knowledge.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return l.a.store.Graph(ctx, app.ID)
}

// Wait blocks until the runs Live started have ended.
func (l *Live) Wait() { l.wg.Wait() }
