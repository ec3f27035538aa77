package llmtest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

func post(t *testing.T, url, auth, body string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

const reqBody = `{"model":"m","messages":[{"role":"user","content":"hello there"}]}`

func content(t *testing.T, body string) (string, openai.Usage) {
	t.Helper()
	var r openai.ChatCompletionResponse
	if err := json.Unmarshal([]byte(body), &r); err != nil || len(r.Choices) != 1 {
		t.Fatalf("response %s: %v", body, err)
	}
	return r.Choices[0].Message.Content, r.Usage
}

func TestScriptAndFaults(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Script(
		llmtest.Reply{Content: "one", PromptTokens: 5, CompletionTokens: 2},
		llmtest.Text("two"),
		llmtest.Reply{Fault: llmtest.Fault429, RetryAfter: "2"},
		llmtest.Faulty(llmtest.Fault429),
		llmtest.Faulty(llmtest.Fault500),
		llmtest.Faulty(llmtest.FaultNotJSON),
		llmtest.Faulty(llmtest.FaultBadElement),
		llmtest.JSON(map[string]int{"a": 1}),
	)
	if !strings.HasSuffix(s.URL(), "/v1") {
		t.Errorf("URL %s", s.URL())
	}
	base := strings.TrimSuffix(s.URL(), "/v1")

	code, _, body := post(t, s.URL()+"/chat/completions", "", reqBody)
	c, u := content(t, body)
	if code != 200 || c != "one" || u.PromptTokens != 5 || u.CompletionTokens != 2 {
		t.Errorf("reply 1: %d %s", code, body)
	}
	_, _, body = post(t, base+"/chat/completions", "", reqBody) // path without /v1
	if c, u = content(t, body); c != "two" || u.PromptTokens == 0 || u.CompletionTokens == 0 {
		t.Errorf("reply 2: %s (usage must be estimated when not scripted)", body)
	}
	code, h, _ := post(t, s.URL()+"/chat/completions", "", reqBody)
	if code != 429 || h.Get("Retry-After") != "2" {
		t.Errorf("429: %d Retry-After=%q", code, h.Get("Retry-After"))
	}
	code, h, _ = post(t, s.URL()+"/chat/completions", "", reqBody)
	if code != 429 || h.Get("Retry-After") != "0" {
		t.Errorf("429 default: %d Retry-After=%q", code, h.Get("Retry-After"))
	}
	if code, _, body = post(t, s.URL()+"/chat/completions", "", reqBody); code != 500 || !strings.Contains(body, `"error"`) {
		t.Errorf("500: %d %s", code, body)
	}
	_, _, body = post(t, s.URL()+"/chat/completions", "", reqBody)
	if c, _ = content(t, body); c != llmtest.NotJSONContent || json.Valid([]byte(c)) {
		t.Errorf("not JSON: %q", c)
	}
	_, _, body = post(t, s.URL()+"/chat/completions", "", reqBody)
	if c, _ = content(t, body); c != llmtest.BadElementContent || !strings.Contains(c, fmt.Sprint(llmtest.BadElementIndex)) {
		t.Errorf("bad element: %q", c)
	}
	_, _, body = post(t, s.URL()+"/chat/completions", "", reqBody)
	if c, _ = content(t, body); c != `{"a":1}` {
		t.Errorf("JSON: %q", c)
	}

	reqs := s.Requests()
	if s.Calls() != 8 || len(reqs) != 8 || s.Pending() != 0 {
		t.Fatalf("calls %d, requests %d, pending %d", s.Calls(), len(reqs), s.Pending())
	}
	if reqs[1].Path != "/chat/completions" || reqs[0].Body.Messages[0].Content != "hello there" || reqs[4].Served != llmtest.Fault500 {
		t.Errorf("recorded: %+v", reqs[:5])
	}
}

func TestKeyCheckAndBadBody(t *testing.T) {
	const key = "sk-llmtest-key-000000000000"
	s := llmtest.NewServer(t, llmtest.WithKey(key))
	s.Script(llmtest.Text("ok"))
	code, _, body := post(t, s.URL()+"/chat/completions", "Bearer wrong", reqBody)
	if code != 401 || strings.Contains(body, "wrong") {
		t.Errorf("wrong key: %d %s", code, body)
	}
	if s.Pending() != 1 {
		t.Error("a rejected request consumed a scripted reply")
	}
	if code, _, _ = post(t, s.URL()+"/chat/completions", "Bearer "+key, "{not json"); code != 400 {
		t.Errorf("bad body: %d", code)
	}
	if code, _, _ = post(t, s.URL()+"/chat/completions", "Bearer "+key, reqBody); code != 200 {
		t.Errorf("right key: %d", code)
	}
	if s.Key() != key {
		t.Error("Key()")
	}
}

func TestFuncAlwaysAndJSONMode(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithFunc(func(r openai.ChatCompletionRequest) string {
		return "echo:" + r.Messages[len(r.Messages)-1].Content
	}), llmtest.WithoutJSONMode())
	s.Script(llmtest.Text("scripted first"))
	_, _, body := post(t, s.URL()+"/chat/completions", "", reqBody)
	if c, _ := content(t, body); c != "scripted first" {
		t.Errorf("script before func: %q", c)
	}
	_, _, body = post(t, s.URL()+"/chat/completions", "", reqBody)
	if c, _ := content(t, body); c != "echo:hello there" {
		t.Errorf("func: %q", c)
	}
	code, _, body := post(t, s.URL()+"/chat/completions", "", `{"model":"m","messages":[],"response_format":{"type":"json_object"}}`)
	if code != 400 || !strings.Contains(body, "response_format") {
		t.Errorf("json mode rejection: %d %s", code, body)
	}

	s2 := llmtest.NewServer(t)
	s2.Always(llmtest.Faulty(llmtest.Fault500))
	for range 3 {
		if code, _, _ := post(t, s2.URL()+"/chat/completions", "", reqBody); code != 500 {
			t.Errorf("always: %d", code)
		}
	}
}

// fakeTB records Errorf calls instead of failing the test.
type fakeTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (f *fakeTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func TestUnscriptedRequestFailsTheTest(t *testing.T) {
	tb := &fakeTB{TB: t}
	s := llmtest.NewServer(tb)
	if code, _, _ := post(t, s.URL()+"/chat/completions", "", reqBody); code != 500 {
		t.Errorf("code %d", code)
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if len(tb.errs) != 1 || !strings.Contains(tb.errs[0], "no scripted reply") {
		t.Errorf("Errorf calls: %q", tb.errs)
	}
}

func TestTimeoutFaultReleasedOnClose(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Script(llmtest.Faulty(llmtest.FaultTimeout), llmtest.Reply{Content: "late", Delay: time.Hour})
	done := make(chan struct{}, 2)
	for range 2 {
		go func() {
			req, _ := http.NewRequest(http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(reqBody))
			resp, err := http.DefaultClient.Do(req)
			if err == nil {
				resp.Body.Close()
			}
			done <- struct{}{}
		}()
	}
	for s.Calls() < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	start := time.Now()
	s.Close()
	s.Close() // idempotent
	for range 2 {
		<-done
	}
	if time.Since(start) > time.Second {
		t.Errorf("Close took %s", time.Since(start))
	}
}

func embedBody(input string) string { return `{"model":"e","input":` + input + `}` }

func vectors(t *testing.T, body string) [][]float32 {
	t.Helper()
	var r openai.EmbeddingResponse
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatalf("response %s: %v", body, err)
	}
	out := make([][]float32, len(r.Data))
	for _, d := range r.Data {
		out[d.Index] = d.Embedding
	}
	return out
}

func TestEmbeddings(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithSynonyms(map[string]string{"theme": "mode"}))
	code, _, body := post(t, s.URL()+"/embeddings", "", embedBody(`["turn on dark mode","Please turn the dark theme on!","send a text to Bob"]`))
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	vs := vectors(t, body)
	if len(vs) != 3 || len(vs[0]) != llmtest.EmbedDim {
		t.Fatalf("%d vectors", len(vs))
	}
	if c := llmtest.Cosine(vs[0], vs[1]); c < 0.999 {
		t.Errorf("same words after synonyms and stopwords: cosine %.3f", c)
	}
	if c := llmtest.Cosine(vs[0], vs[2]); c > 0.3 {
		t.Errorf("unrelated: cosine %.3f", c)
	}
	if c := llmtest.Cosine(llmtest.BagOfStems("turn on wifi", nil), llmtest.BagOfStems("turn off wifi", nil)); c < 0.5 || c > 0.8 {
		t.Errorf("two of three words shared: cosine %.3f", c)
	}
	_, _, body = post(t, strings.TrimSuffix(s.URL(), "/v1")+"/embeddings", "", embedBody(`"one text"`))
	if vs := vectors(t, body); len(vs) != 1 || llmtest.Cosine(vs[0], llmtest.BagOfStems("one text", nil)) < 0.9999 {
		t.Errorf("single string input: %d vectors", len(vs))
	}
	if code, _, _ := post(t, s.URL()+"/embeddings", "", embedBody(`[]`)); code != 400 {
		t.Errorf("empty input: %d", code)
	}
	if code, _, _ := post(t, s.URL()+"/embeddings", "", `{"model":"e","input":[1,2]}`); code != 400 {
		t.Errorf("token input: %d", code)
	}
	if s.Calls() != 0 || s.EmbedCalls() != 4 {
		t.Errorf("chat calls %d, embed calls %d", s.Calls(), s.EmbedCalls())
	}
	if r := s.EmbedRequests()[1]; r.Path != "/embeddings" || r.Model != "e" || len(r.Input) != 1 {
		t.Errorf("recorded %+v", r)
	}
}

func TestEmbeddingFaultsAndKey(t *testing.T) {
	const key = "sk-llmtest-key-000000000000"
	s := llmtest.NewServer(t, llmtest.WithKey(key), llmtest.WithEmbedFunc(func(model, text string) []float32 {
		return []float32{float32(len(text)), 1}
	}))
	s.EmbedFaults(llmtest.Fault429, llmtest.Fault500, llmtest.FaultNotJSON, llmtest.FaultShort, llmtest.FaultNone)
	in := embedBody(`["ab","abcd"]`)
	if code, _, body := post(t, s.URL()+"/embeddings", "Bearer wrong", in); code != 401 || strings.Contains(body, "wrong") {
		t.Errorf("wrong key: %d %s", code, body)
	}
	auth := "Bearer " + key
	if code, h, _ := post(t, s.URL()+"/embeddings", auth, in); code != 429 || h.Get("Retry-After") != "0" {
		t.Errorf("429: %d", code)
	}
	if code, _, _ := post(t, s.URL()+"/embeddings", auth, in); code != 500 {
		t.Errorf("500: %d", code)
	}
	if code, _, body := post(t, s.URL()+"/embeddings", auth, in); code != 200 || json.Valid([]byte(body)) {
		t.Errorf("not JSON: %d %s", code, body)
	}
	if _, _, body := post(t, s.URL()+"/embeddings", auth, in); len(vectors(t, body)) != 1 {
		t.Errorf("short: %s", body)
	}
	_, _, body := post(t, s.URL()+"/embeddings", auth, in)
	if vs := vectors(t, body); len(vs) != 2 || vs[0][0] != 2 || vs[1][0] != 4 {
		t.Errorf("func: %v", vs)
	}
	served := []llmtest.Fault{}
	for _, r := range s.EmbedRequests() {
		served = append(served, r.Served)
	}
	if fmt.Sprint(served) != "[none 429 500 not-json short none]" {
		t.Errorf("served %v", served)
	}
	s.EmbedAlways(llmtest.Fault500)
	if code, _, _ := post(t, s.URL()+"/embeddings", auth, in); code != 500 {
		t.Errorf("always: %d", code)
	}
}
