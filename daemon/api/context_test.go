package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
)

func call(t *testing.T, a interface {
	CallJSON(context.Context, []byte) ([]byte, error)
}, req string) (map[string]any, error) {
	t.Helper()
	out, err := a.CallJSON(context.Background(), []byte(req))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("%s: %v", out, err)
	}
	return m, nil
}

func TestContextMethods(t *testing.T) {
	a, _, _ := newAPI(t)
	if _, err := call(t, a, `{"method":"context.set","params":{"entry":{"kind":"person","name":"Mary Smith","aliases":["mom"],"values":[{"field":"phone","value":"+1 555 0100","private":true}]}}}`); err != nil {
		t.Fatal(err)
	}
	out, err := a.CallJSON(context.Background(), []byte(`{"method":"context.list"}`))
	if err != nil || strings.Contains(string(out), "555 0100") || !strings.Contains(string(out), `"mom"`) {
		t.Fatalf("list hides private values: %s %v", out, err)
	}
	exp, err := a.CallJSON(context.Background(), []byte(`{"method":"context.export"}`))
	if err != nil || !strings.Contains(string(exp), "555 0100") {
		t.Fatalf("export: %s %v", exp, err)
	}
	res, err := call(t, a, `{"method":"context.resolve","params":{"command":"text mom I'm late"}}`)
	if err != nil || strings.Contains(res["command"].(string), "555 0100") || !strings.Contains(res["command"].(string), "Mary Smith") {
		t.Fatalf("resolve: %v %v", res, err)
	}
	if _, err := call(t, a, `{"method":"context.import","params":`+string(exp)+`}`); err != nil {
		t.Fatal(err)
	}
	l, _ := call(t, a, `{"method":"context.list","params":{"kind":"person"}}`)
	if n := len(l["entries"].([]any)); n != 2 {
		t.Fatalf("%d entries after import", n)
	}
	if _, err := call(t, a, `{"method":"context.set","params":{"entry":{"kind":"pet","name":"Rex"}}}`); err == nil || !strings.Contains(err.Error(), "bad_request") {
		t.Errorf("bad kind: %v", err)
	}
	if _, err := call(t, a, `{"method":"context.delete","params":{"id":999}}`); err == nil || !strings.Contains(err.Error(), "not_found") {
		t.Errorf("delete unknown: %v", err)
	}
	p, err := call(t, a, `{"method":"steps.parse","params":{"steps":"1. Open Settings\n2. Turn on Dark mode"}}`)
	if err != nil || len(p["instructions"].([]any)) != 2 {
		t.Fatalf("steps.parse: %v %v", p, err)
	}
}

// TestContextSetKeepsWhatTheListHid: an entry as context.list gives it
// (its private value "") sent back with another alias keeps the private
// value stored; a private value given keeps replacing it.
func TestContextSetKeepsWhatTheListHid(t *testing.T) {
	a, _, _ := newAPI(t)
	set, err := call(t, a, `{"method":"context.set","params":{"entry":{"kind":"person","name":"Dora Pike","aliases":["mum"],"values":[{"field":"phone","value":"+1 555 0100","private":true},{"field":"email","value":"dora@example.org"}]}}}`)
	if err != nil {
		t.Fatal(err)
	}
	id := int64(set["entry"].(map[string]any)["id"].(float64))
	l, _ := call(t, a, `{"method":"context.list"}`)
	e := l["entries"].([]any)[0].(map[string]any)
	e["aliases"] = []string{"mum", "mother"}
	b, _ := json.Marshal(map[string]any{"method": "context.set", "params": map[string]any{"entry": e}})
	if _, err := a.CallJSON(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	private := func() string {
		out, _ := call(t, a, `{"method":"context.list","params":{"show_private":true}}`)
		for _, v := range out["entries"].([]any)[0].(map[string]any)["values"].([]any) {
			if v := v.(map[string]any); v["field"] == "phone" {
				return v["value"].(string)
			}
		}
		return "(no phone)"
	}
	if got := private(); got != "+1 555 0100" {
		t.Errorf("a listed entry sent back: phone %q, want it kept", got)
	}
	if _, err := call(t, a, fmt.Sprintf(`{"method":"context.set","params":{"entry":{"id":%d,"kind":"person","name":"Dora Pike","values":[{"field":"phone","value":"+1 555 0199","private":true}]}}}`, id)); err != nil {
		t.Fatal(err)
	}
	if got := private(); got != "+1 555 0199" {
		t.Errorf("a new private value: phone %q", got)
	}
}

// TestRunWithStepsAndAnAnswer: run follows pasted steps on the demo phone
// and learns a flow named by the goal; a reference to one of two people
// is asked as an "ask" event and answered through "answer".
func TestRunWithStepsAndAnAnswer(t *testing.T) {
	a, eng, phone := newAPI(t)
	out, err := call(t, a, `{"method":"run","params":{"command":"turn on dark mode","steps":"Tap More options. Tap Settings. Turn on Dark mode."}}`)
	if err != nil || out["outcome"] != "success" || out["saved"] != true || phone.State() != "settings_dark" {
		t.Fatalf("run with steps: %v %v on %s", out, err, phone.State())
	}
	for _, name := range []string{"Alex Kim", "Alex Park"} {
		if _, err := call(t, a, `{"method":"context.set","params":{"entry":{"kind":"person","name":"`+name+`"}}}`); err != nil {
			t.Fatal(err)
		}
	}
	if err := phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	sub := eng.Bus().Subscribe(64)
	defer eng.Bus().Unsubscribe(sub)
	go func() {
		for ev := range sub.C {
			if ev.Type == event.Ask {
				var d event.AskInfo
				json.Unmarshal(ev.Data, &d)
				for i := 0; i < 50; i++ { // the API is waiting for the answer
					if r, _ := call(t, a, `{"method":"answer","params":{"text":"Alex Park"}}`); r["accepted"] == true {
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		}
	}()
	res, err := call(t, a, `{"method":"run","params":{"command":"create a note called Alex"}}`)
	if err != nil || res["outcome"] != "success" {
		t.Fatalf("run after the answer: %v %v", res, err)
	}
	f, err := eng.Store().Flow(context.Background(), int64(res["flow_id"].(float64)))
	if err != nil || len(f.Slots) != 1 || f.Slots[0].Example != "Alex Park" {
		t.Fatalf("the learned flow does not carry the chosen Alex: %+v %v", f, err)
	}
	// without anyone to ask, the inspector gets the question as an error
	if _, err := a.Live().RunSteps(context.Background(), "create a note called Alex", ""); err == nil || !strings.Contains(err.Error(), "Which Alex") {
		t.Errorf("live run: %v", err)
	}
}

// TestLiveAnswer: the inspector's answer reaches the question a run waits
// on (API.Ask); with no question waiting it is refused as not found.
func TestLiveAnswer(t *testing.T) {
	a, _, _ := newAPI(t)
	if err := a.Live().Answer("yes"); err == nil || !strings.Contains(err.Error(), "no question") {
		t.Errorf("answer with nothing asked: %v, want an error", err)
	}
	got := make(chan string, 1)
	go func() {
		ans, _ := a.Ask(context.Background(), "Is it done?", []string{"yes", "no"})
		got <- ans
	}()
	for i := 0; i < 200 && a.Live().Answer("yes") != nil; i++ {
		time.Sleep(10 * time.Millisecond) // until Ask waits
	}
	select {
	case ans := <-got:
		if ans != "yes" {
			t.Errorf("the question got %q, want the answer given", ans)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the answer never reached the question")
	}
}
