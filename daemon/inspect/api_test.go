package inspect_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestLoadOrCreateToken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	tok, err := inspect.LoadOrCreateToken(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := hex.DecodeString(tok); err != nil || len(b) != 32 {
		t.Fatalf("token %q: want 64 hex characters", tok)
	}
	path := filepath.Join(dir, inspect.TokenFile)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", fi.Mode().Perm())
	}
	again, err := inspect.LoadOrCreateToken(dir)
	if err != nil || again != tok {
		t.Fatalf("second load: %q, %v; want the same token", again, err)
	}
	// wider permissions are narrowed
	os.Chmod(path, 0o644)
	if again, err = inspect.LoadOrCreateToken(dir); err != nil || again != tok {
		t.Fatalf("load after chmod: %q, %v", again, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v not narrowed to 0600", fi.Mode().Perm())
	}
	// another install gets another token
	other, err := inspect.LoadOrCreateToken(t.TempDir())
	if err != nil || other == tok {
		t.Errorf("second install: %q, %v", other, err)
	}
	// no temporary files are left behind
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("data dir holds %d files, want 1", len(ents))
	}
}

func TestLoadOrCreateTokenBadFile(t *testing.T) {
	for _, content := range []string{"", "short", strings.Repeat("z", 64)} {
		dir := t.TempDir()
		path := filepath.Join(dir, inspect.TokenFile)
		os.WriteFile(path, []byte(content), 0o600)
		if tok, err := inspect.LoadOrCreateToken(dir); err == nil {
			t.Errorf("content %q: token %q, want an error", content, tok)
		}
		if b, _ := os.ReadFile(path); string(b) != content {
			t.Errorf("content %q was overwritten with %q", content, b)
		}
	}
	if _, err := inspect.LoadOrCreateToken(""); err == nil {
		t.Error("empty data dir: want an error")
	}
}

func TestLoadOrCreateTokenConcurrent(t *testing.T) {
	dir := t.TempDir()
	toks := make([]string, 8)
	var wg sync.WaitGroup
	for i := range toks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tok, err := inspect.LoadOrCreateToken(dir)
			if err != nil {
				t.Error(err)
			}
			toks[i] = tok
		}()
	}
	wg.Wait()
	for _, tok := range toks {
		if tok != toks[0] {
			t.Fatalf("tokens differ: %q", toks)
		}
	}
}

func TestParseRequest(t *testing.T) {
	tests := []struct {
		in      string
		want    inspect.Request
		wantErr string
	}{
		{`{"id":"1","method":"run","params":{"command":"open maps"}}`, inspect.Request{ID: "1", Method: "run", Command: "open maps"}, ""},
		{`{"id":"2","method":"replay","params":{"flow_id":4,"slots":{"to":"Bo"}}}`, inspect.Request{ID: "2", Method: "replay", FlowID: 4, Slots: map[string]string{"to": "Bo"}}, ""},
		{`{"id":"3","method":"cancel","params":{"run_id":"r9"}}`, inspect.Request{ID: "3", Method: "cancel", RunID: "r9"}, ""},
		{`{"method":"flows","params":null}`, inspect.Request{Method: "flows"}, ""},
		{`{"id":"4","method":"graph"}`, inspect.Request{ID: "4", Method: "graph"}, ""},
		{`{"id":"h","method":"flow_history","params":{"flow_id":4}}`, inspect.Request{ID: "h", Method: "flow_history", FlowID: 4}, ""},
		{`{"id":"r","method":"rollback","params":{"flow_id":4,"version":2}}`, inspect.Request{ID: "r", Method: "rollback", FlowID: 4, Version: 2}, ""},
		{`{"id":"r0","method":"rollback","params":{"flow_id":4}}`, inspect.Request{ID: "r0"}, "positive version"},
		{`{"id":"h0","method":"flow_history","params":{}}`, inspect.Request{ID: "h0"}, "positive flow id"},
		{`{"id":"5","method":"run","params":{"command":"   "}}`, inspect.Request{ID: "5"}, "empty command"},
		{`{"id":"6","method":"run","params":{"command":"` + strings.Repeat("a", inspect.MaxCommandLen+1) + `"}}`, inspect.Request{ID: "6"}, "exceeds"},
		{`{"id":"7","method":"replay","params":{"flow_id":-1}}`, inspect.Request{ID: "7"}, "positive"},
		{`{"id":"8","method":"cancel","params":{}}`, inspect.Request{ID: "8"}, "run_id"},
		{`{"id":"a","method":"answer","params":{"text":" yes "}}`, inspect.Request{ID: "a", Method: "answer", Text: "yes"}, ""},
		{`{"id":"a0","method":"answer","params":{"text":" "}}`, inspect.Request{ID: "a0"}, "text empty"},
		{`{"id":"a1","method":"answer","params":{"text":"` + strings.Repeat("y", inspect.MaxAnswerLen+1) + `"}}`, inspect.Request{ID: "a1"}, "longer than"},
		{`{"id":"9","method":"snapshot","params":{"x":1}}`, inspect.Request{ID: "9"}, "unknown field"},
		{`{"id":"10","method":"settings"}`, inspect.Request{ID: "10"}, "unknown method"},
		{`{"id":"11","method":"run","extra":1}`, inspect.Request{}, "unknown field"},
		{`{"id":"1"} {"id":"2"}`, inspect.Request{}, "trailing"},
		{`[`, inspect.Request{}, "request"},
		{`{"id":"` + strings.Repeat("i", 65) + `","method":"flows"}`, inspect.Request{}, "id longer"},
	}
	for _, tt := range tests {
		got, err := inspect.ParseRequest([]byte(tt.in))
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%.60s: err %v, want %q", tt.in, err, tt.wantErr)
			}
			if got.ID != tt.want.ID {
				t.Errorf("%.60s: id %q kept, want %q", tt.in, got.ID, tt.want.ID)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		got.Params = nil
		if g, w := mustJSON(got), mustJSON(tt.want); g != w || got.Command != tt.want.Command || got.RunID != tt.want.RunID ||
			got.FlowID != tt.want.FlowID || got.Version != tt.want.Version || mustJSON(got.Slots) != mustJSON(tt.want.Slots) {
			t.Errorf("%s: got %+v, want %+v", tt.in, got, tt.want)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// FuzzParseRequest: client messages are outside input. ParseRequest never
// panics, and what it accepts is a valid request.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{
		`{"id":"1","method":"run","params":{"command":"open maps"}}`,
		`{"id":"2","method":"replay","params":{"flow_id":4,"slots":{"to":"Bo"}}}`,
		`{"id":"3","method":"cancel","params":{"run_id":"r9"}}`,
		`{"method":"flows"}`, `{"method":"graph","params":null}`, `{"method":"snapshot","params":{}}`,
		`{"id":1}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := inspect.ParseRequest(b)
		if err != nil {
			return
		}
		switch r.Method {
		case inspect.MethodRun:
			if r.Command == "" || len(r.Command) > inspect.MaxCommandLen {
				t.Fatalf("accepted command %q", r.Command)
			}
		case inspect.MethodReplay:
			if r.FlowID <= 0 {
				t.Fatalf("accepted flow id %d", r.FlowID)
			}
		case inspect.MethodCancel:
			if r.RunID == "" {
				t.Fatal("accepted empty run id")
			}
		case inspect.MethodSnapshot, inspect.MethodFlows, inspect.MethodGraph:
		default:
			t.Fatalf("accepted method %q", r.Method)
		}
		if len(r.ID) > 64 {
			t.Fatalf("accepted id of %d bytes", len(r.ID))
		}
	})
}

func TestGraphViewOf(t *testing.T) {
	if inspect.GraphViewOf(nil) != nil {
		t.Error("GraphViewOf(nil) != nil")
	}
	g := &knowledge.Graph{
		Screens: []knowledge.Screen{{ID: 1, Fingerprint: "a", Dialog: true}, {ID: 2, Fingerprint: "b"}},
		Elements: []knowledge.Element{
			{ID: 10, ScreenID: 1, Label: "Save"}, {ID: 11, ScreenID: 1, Label: "Save"}, {ID: 12, ScreenID: 1},
			{ID: 13, ScreenID: 2, Descriptor: screen.Descriptor{Desc: "More options"}}, {ID: 14, ScreenID: 9, Label: "orphan"},
		},
		Transitions: []knowledge.Transition{{From: 1, To: 2, Action: "tap", ElementID: 10, Count: 3}},
	}
	for i := 0; i < 50; i++ {
		g.Elements = append(g.Elements, knowledge.Element{ID: int64(100 + i), ScreenID: 2, Label: fmt.Sprint("item ", i)})
	}
	v := inspect.GraphViewOf(g)
	if got := v.Screens[0].Elements; len(got) != 1 || got[0] != "Save" || !v.Screens[0].Dialog {
		t.Errorf("screen 1: elements %q (want one Save, duplicates and empty labels dropped), dialog %v", got, v.Screens[0].Dialog)
	}
	if got := v.Screens[1].Elements; len(got) != 40 || got[0] != "More options" {
		t.Errorf("screen 2: %d labels starting %q, want 40 (capped) starting with the descriptor's label", len(got), got[:1])
	}
	if e := v.Edges[0]; e.Label != "Save" || e.Count != 3 {
		t.Errorf("edge %+v", e)
	}
}
