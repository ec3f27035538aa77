package daemon_test

// The security suite (security_test.go), items 5 to 7: password text and
// personal data stay private, and a write that fails makes no success.

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
	"github.com/wayfinder-agent/wayfinder/daemon/llmplan"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// ---- items 5 and 6: password text and personal data stay private ----

const privacyMark = "[secret]"

// passwordPhone is the demo phone whose new-note title field is a
// password field.
func passwordPhone(t *testing.T) (*sim.Phone, *knowledge.Store, string) {
	t.Helper()
	fsys, err := demo.FS()
	if err != nil {
		t.Fatal(err)
	}
	patched := 0
	for name, f := range fsys {
		if !strings.Contains(name, "/states/") {
			continue
		}
		var st map[string]any
		if err := json.Unmarshal(f.Data, &st); err != nil {
			continue
		}
		for _, v := range st["views"].([]any) {
			m := v.(map[string]any)
			if m["resource_id"] == demo.Package+":id/new_note_title" {
				m["is_password"] = true
				patched++
			}
		}
		b, _ := json.Marshal(st)
		f.Data = b
	}
	if patched == 0 {
		t.Fatal("no title field to make a password field")
	}
	data, err := droidtask.LoadFS(fsys, "demo with a password field")
	if err != nil {
		t.Fatal(err)
	}
	phone, err := sim.New(data, demo.App)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "k.db")
	st, err := knowledge.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return phone, st, path
}

func TestSecurityPasswordNeverLeaks(t *testing.T) {
	const secret = "hunter2-Zq9"
	phone, st, path := passwordPhone(t)
	var prompts []string
	var pmu sync.Mutex
	srv := llmtest.NewServer(t, llmtest.WithFunc(func(req openai.ChatCompletionRequest) string {
		var all strings.Builder
		for _, m := range req.Messages {
			all.WriteString(m.Content)
		}
		pmu.Lock()
		prompts = append(prompts, all.String())
		pmu.Unlock()
		p := req.Messages[len(req.Messages)-1].Content
		switch {
		case strings.Contains(p, "Judge the situation"):
			return `{"reason":"fine","completed":false,"correct":true,"penalty":0}`
		case strings.Contains(p, `button "Create a new note"`):
			return `{"reason":"new note","action":"tap","element":` + index(p, `button "Create a new note"`) + `,"done":false}`
		case strings.Contains(p, "input") && strings.Contains(p, " password"):
			if strings.Contains(p, "steps taken so far:\n(none yet)") || !strings.Contains(p, "input") {
				break
			}
			if !strings.Contains(p, `text=`) { // nothing typed yet
				return `{"reason":"type the password","action":"input","element":` + indexRe(p, `\[(\d+)\] input[^\n]* password`) + `,"text":"` + privacyMark + `","done":false}`
			}
			return `{"reason":"create","action":"tap","element":` + index(p, `button "Create"`) + `,"done":true}`
		}
		return `{"reason":"done","action":"done","element":-1,"done":true}`
	}))
	cfg := llm.DefaultConfig()
	cfg.BaseURL, cfg.Model, cfg.Timeout = srv.URL(), "m", 5*time.Second
	dev := &typing{Phone: phone}
	// every text any embedding model is given (flow matching, planning)
	var embedded []string
	var emu sync.Mutex
	recorder := semantic.Func{Model: "rec", Fn: func(_ context.Context, texts []string) ([][]float32, error) {
		emu.Lock()
		embedded = append(embedded, texts...)
		emu.Unlock()
		out := make([][]float32, len(texts))
		for i, x := range texts {
			out[i] = llmtest.BagOfStems(x, nil)
		}
		return out, nil
	}}
	embedCfg := semantic.Config{Retrieve: 5, MinAgree: 0.1, SuggestMinCosine: 0.1}
	eng := daemon.New(dev, st, llmplan.New(llm.New(cfg), st), nil, daemon.Config{Unattended: true, Embedder: recorder, Semantic: embedCfg})
	sub := eng.Bus().Subscribe(4096)
	var events []event.Event
	collect := func() {
		for {
			select {
			case ev := <-sub.C:
				events = append(events, ev)
			default:
				return
			}
		}
	}
	res, err := eng.Run(context.Background(), `create a note with password "`+secret+`"`, daemon.Options{Package: demo.Package})
	if err != nil {
		t.Fatal(err)
	}
	collect()
	typed := dev.typed
	if !strings.Contains(strings.Join(typed, "|"), secret) {
		t.Fatalf("the phone never received the password (typed %q; run %+v)", typed, res)
	}
	// the next snapshot shows dots, as Android does
	s, _ := phone.Snapshot(context.Background())
	for _, n := range s.Nodes {
		if strings.Contains(n.Text, secret) {
			t.Fatalf("the screen shows the password as text: %q", n.Text)
		}
	}
	// the learned flow keeps a password slot, never the password
	flows, err := st.Flows(context.Background(), knowledge.FlowFilter{})
	if err != nil || len(flows) != 1 {
		t.Fatalf("flows after the run: %d %v (run %+v)", len(flows), err, res)
	}
	var pwStep *knowledge.Step
	for i := range flows[0].Steps {
		if flows[0].Steps[i].Action == device.Input {
			pwStep = &flows[0].Steps[i]
		}
	}
	if pwStep == nil || pwStep.Text != "{"+daemon.PasswordSlot+"}" {
		t.Fatalf("password step %+v, want text {%s}", pwStep, daemon.PasswordSlot)
	}
	// a replay asks for it (typed once, never stored); with nobody to ask
	// it stops instead of typing a placeholder
	for _, tt := range []struct {
		asker daemon.Asker
		want  string
	}{{&answer{text: "newpass-77"}, "newpass-77"}, {nil, ""}} {
		_ = phone.Reset("home")
		dev.typed = nil
		replayer := daemon.New(dev, st, nil, nil, daemon.Config{Unattended: true})
		if tt.asker != nil {
			replayer.SetAsker(tt.asker)
		}
		rr, err := replayer.Run(context.Background(), "", daemon.Options{FlowID: flows[0].ID})
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(dev.typed, "|")
		if got != tt.want || strings.Contains(got, "{") || (tt.want == "") != (rr.Outcome != knowledge.OutcomeSuccess) {
			t.Fatalf("replay with asker %v: typed %q, outcome %s %q", tt.asker, got, rr.Outcome, rr.Error)
		}
		if tt.want != "" {
			collect()
		}
	}
	// matched by its words, with another password said: the embedding
	// checks of matching see the command without it
	_ = phone.Reset("home")
	matcher := daemon.New(dev, st, nil, nil, daemon.Config{Unattended: true, Embedder: recorder, Semantic: embedCfg})
	if _, err := matcher.Run(context.Background(), `create a note with password "otherpass-55"`, daemon.Options{Package: demo.Package}); err != nil {
		t.Fatal(err)
	}
	emu.Lock()
	if len(embedded) == 0 {
		t.Error("no text was embedded: the check below proves nothing")
	}
	for _, x := range embedded {
		if strings.Contains(x, secret) || strings.Contains(x, "newpass-77") || strings.Contains(x, "otherpass-55") {
			t.Errorf("a password was given to the embedding model: %q", x)
		}
	}
	emu.Unlock()
	collect()
	res2, _ := json.Marshal(res)
	var evs strings.Builder
	for _, ev := range events {
		evs.Write(ev.Data)
	}
	st.Close()
	db := readAll(t, path, path+"-wal")
	pmu.Lock()
	defer pmu.Unlock()
	for where, text := range map[string]string{"the store": db, "the events": evs.String(), "the prompts": strings.Join(prompts, "\n"),
		"the result": string(res2)} {
		if strings.Contains(text, secret) || strings.Contains(text, "newpass-77") || strings.Contains(text, "otherpass-55") {
			t.Errorf("the password reached %s", where)
		}
	}
	if !strings.Contains(strings.Join(prompts, "\n"), " password") {
		t.Error("the model was not told the field is a password field")
	}
}

// typing records the text of every input action the phone receives.
type typing struct {
	*sim.Phone
	typed []string
}

func (d *typing) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	if a.Type == device.Input {
		d.typed = append(d.typed, a.Text)
	}
	return d.Phone.Perform(ctx, a)
}

func index(p, what string) string { return indexRe(p, `\[(\d+)\] `+regexp.QuoteMeta(what)) }

func indexRe(p, re string) string {
	m := regexp.MustCompile(re).FindStringSubmatch(p)
	if m == nil {
		return "-1"
	}
	return m[1]
}

func readAll(t *testing.T, paths ...string) string {
	var b strings.Builder
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

func TestSecurityPersonalDataRedacted(t *testing.T) {
	phone, st := demotest.New(t, true)
	path := st.Path()
	eng := daemon.New(phone, st, &scripted{}, nil, daemon.Config{})
	sub := eng.Bus().Subscribe(1024)
	const cmd = "text +1 (555) 010-9999 and bob@example.com my card 4111 1111 1111 1111"
	if _, err := eng.Run(context.Background(), cmd, daemon.Options{Package: demo.Package}); err != nil {
		t.Fatal(err)
	}
	var evs strings.Builder
	for len(sub.C) > 0 {
		evs.Write((<-sub.C).Data)
	}
	runs, err := st.Runs(context.Background(), 10)
	if err != nil || len(runs) == 0 {
		t.Fatalf("runs: %v %v", runs, err)
	}
	st.Close()
	db := readAll(t, path, path+"-wal")
	for _, pii := range []string{"010-9999", "bob@example.com", "4111 1111"} {
		for where, text := range map[string]string{"the run log": runs[0].Command, "the events": evs.String(), "the store file": db} {
			if strings.Contains(text, pii) {
				t.Errorf("%q reached %s", pii, where)
			}
		}
	}
}

// ---- item 7: a write that fails during a command makes its outcome an
// error, never success ----

func TestSecurityFullDiskIsNotSuccess(t *testing.T) {
	dev, st, f := learnSensitiveFlow(t)
	ctx := context.Background()
	// the store stops taking writes once the phone has acted, as when
	// the disk fills up mid-command
	failing := &afterAction{Device: dev, then: func() { st.Close() }}
	eng := daemon.New(failing, st, nil, nil, daemon.Config{Unattended: true})
	_ = dev.Reset("home")
	res, err := eng.Run(ctx, "", daemon.Options{FlowID: f.ID})
	if err == nil || res.Outcome != knowledge.OutcomeError || len(dev.tapped()) < 2 {
		t.Fatalf("a replay whose records could not be written: outcome %s (%s), err %v, taps %d", res.Outcome, res.Error, err, len(dev.tapped()))
	}
}

// The replay itself succeeds, but its run record cannot be written (a
// trigger rejects it, as a full disk would): the outcome is an error.
func TestSecurityRunLogWriteFails(t *testing.T) {
	dev, st, f := learnSensitiveFlow(t)
	ctx := context.Background()
	db, err := sql.Open("sqlite3", "file:"+st.Path()+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER full_disk BEFORE INSERT ON runs BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`); err != nil {
		t.Fatal(err)
	}
	eng := daemon.New(dev, st, nil, nil, daemon.Config{Unattended: true})
	_ = dev.Reset("home")
	res, err := eng.Run(ctx, "", daemon.Options{FlowID: f.ID})
	if err == nil || res.Outcome != knowledge.OutcomeError || !strings.Contains(res.Error, "run log") {
		t.Fatalf("run record not written: outcome %s (%s), err %v", res.Outcome, res.Error, err)
	}
}
