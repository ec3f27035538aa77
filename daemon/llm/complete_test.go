package llm_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

// screenHas is the semantic check of a 5-node screen (indices 0-4).
var screenHas = llm.NextActionCheck(func(i int) bool { return i >= 0 && i < 5 })

const validTap = `{"reason":"The Save button stores the note.","action":"tap","element":3,"done":true}`

func TestCompleteJSON(t *testing.T) {
	// What SmolLM2-135M answered when the prompt showed the JSON Schema.
	schemaEcho, err := llm.SchemaText[llm.NextAction]()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		script      []llmtest.Reply
		wantOK      bool
		wantCalls   int
		repairHas   []string // substrings of the repair message (second request's last message)
		wantErrHas  string
		wantNoJSON  bool // error wraps llm.ErrNoJSON
		wantInvalid bool // error is a *llm.ValidationError
	}{
		{name: "valid first time", script: []llmtest.Reply{llmtest.Text(validTap)},
			wantOK: true, wantCalls: 1},
		{name: "fenced reply with think block", script: []llmtest.Reply{llmtest.Text("<think>the user wants to save</think>\n```json\n" + validTap + "\n```")},
			wantOK: true, wantCalls: 1},
		{name: "not JSON, repaired", script: []llmtest.Reply{llmtest.Faulty(llmtest.FaultNotJSON), llmtest.Text(validTap)},
			wantOK: true, wantCalls: 2, repairHas: []string{"reply is not JSON", `"action": "tap"|"long_press"|`, `"text": string (optional)`, "not a schema"}},
		{name: "the schema echoed instead of an instance, repaired", script: []llmtest.Reply{llmtest.Text(schemaEcho), llmtest.Text(validTap)},
			wantOK: true, wantCalls: 2, repairHas: []string{"$.reason: required", "not a schema", `"element": integer >= -1`}},
		{name: "not JSON twice", script: []llmtest.Reply{llmtest.Faulty(llmtest.FaultNotJSON), llmtest.Faulty(llmtest.FaultNotJSON)},
			wantCalls: 2, wantErrHas: "llm: reply invalid after one repair: reply is not JSON", wantNoJSON: true},
		{name: "bad element rejected by check, repaired", script: []llmtest.Reply{llmtest.Faulty(llmtest.FaultBadElement), llmtest.Text(validTap)},
			wantOK: true, wantCalls: 2, repairHas: []string{"$.element: 999 is not an index on the current screen"}},
		{name: "bad element twice", script: []llmtest.Reply{llmtest.Faulty(llmtest.FaultBadElement), llmtest.Faulty(llmtest.FaultBadElement)},
			wantCalls: 2, wantErrHas: "999 is not an index"},
		{name: "enum typo, repaired", script: []llmtest.Reply{llmtest.Text(`{"reason":"r","action":"tapp","element":3,"done":false}`), llmtest.Text(validTap)},
			wantOK: true, wantCalls: 2, repairHas: []string{`$.action: value must be one of 'tap', 'long_press', 'input', 'ime_enter', 'scroll', 'back', 'home', 'done', 'ask'`}},
		{name: "missing field and extra key twice", script: []llmtest.Reply{
			llmtest.Text(`{"reason":"r","action":"tap","done":false,"thought":"x"}`),
			llmtest.Text(`{"reason":"r","action":"tap","done":false,"thought":"x"}`)},
			wantCalls: 2, wantErrHas: "$.element: required; $.thought: unknown field", wantInvalid: true,
			repairHas: []string{"$.element: required"}},
		{name: "trailing garbage, repaired", script: []llmtest.Reply{llmtest.Text(validTap + " I hope this helps!"), llmtest.Text(validTap)},
			wantOK: true, wantCalls: 2, repairHas: []string{"$: unexpected data after the JSON value"}},
		{name: "inconsistent action, repaired", script: []llmtest.Reply{llmtest.Text(`{"reason":"r","action":"input","element":2,"done":false}`), llmtest.Text(validTap)},
			wantOK: true, wantCalls: 2, repairHas: []string{`$.text: action "input" needs the text to type`}},
		{name: "truncated reply", script: []llmtest.Reply{{Content: `{"reason":"a very long`, FinishReason: "length"}, llmtest.Text(validTap)},
			wantOK: true, wantCalls: 2, repairHas: []string{"cut off"}},
		{name: "transport error on the repair call", script: []llmtest.Reply{llmtest.Faulty(llmtest.FaultNotJSON), llmtest.Faulty(llmtest.Fault500)},
			wantCalls: 2, wantErrHas: "llm: chat: status 500"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t)
			s.Script(tt.script...)
			// A bound the echoed schema fits in (the fake server cuts replies
			// at max_tokens, four characters a token).
			c := newClient(t, s, func(c *llm.Config) { c.MaxRetries, c.MaxTokens = llm.NoRetries, 1024 })
			msgs := []llm.Message{{Role: llm.RoleSystem, Content: "sys"}, {Role: llm.RoleUser, Content: "next?"}}
			orig := append([]llm.Message(nil), msgs...)

			got, reply, err := llm.CompleteJSON(context.Background(), c, msgs, screenHas)

			if s.Calls() != tt.wantCalls || reply.Calls != tt.wantCalls || c.Usage().Calls != tt.wantCalls {
				t.Errorf("calls: server %d, reply %d, usage %d; want %d", s.Calls(), reply.Calls, c.Usage().Calls, tt.wantCalls)
			}
			if u := c.Usage(); u.PromptTokens != reply.PromptTokens || u.CompletionTokens != reply.CompletionTokens {
				t.Errorf("reply usage %+v != client usage %+v", reply.Usage(), u)
			}
			reqs := s.Requests()
			for i, q := range reqs {
				if q.Format() != "json_schema" || !q.HasSchema() {
					t.Errorf("request %d: response_format = %s, want json_schema with the schema", i, q.ResponseFormat)
				}
				if q.Body.MaxTokens != 1024 {
					t.Errorf("request %d: max_tokens = %d, want 1024", i, q.Body.MaxTokens)
				}
			}
			st := c.Stats()
			want := llm.Stats{Requests: 1, Chats: st.Chats, PromptTokens: st.PromptTokens, CompletionTokens: st.CompletionTokens,
				MaxPromptTokens: st.MaxPromptTokens, ChatMS: st.ChatMS, MaxChatMS: st.MaxChatMS, FailedMS: st.FailedMS, Format: "json_schema"}
			var ce0 *llm.Error
			switch {
			case tt.wantCalls == 1:
				want.ValidFirst = 1
			case tt.wantOK:
				want.Repairs, want.Repaired = 1, 1
			case errors.As(err, &ce0):
				want.Repairs, want.Failed = 1, 1
			default:
				want.Repairs, want.Invalid = 1, 1
			}
			if tt.script[0].FinishReason == "length" {
				want.Truncated = 1
			}
			if st != want {
				t.Errorf("stats = %+v, want %+v", st, want)
			}
			if len(reqs) == 2 {
				m := reqs[1].Body.Messages
				if len(m) != 4 || m[0].Content != "sys" || m[1].Content != "next?" || m[2].Role != "assistant" || m[3].Role != "user" {
					t.Fatalf("repair conversation = %+v", m)
				}
				if first := tt.script[0]; first.Fault == llmtest.FaultNone && m[2].Content != first.Content {
					t.Errorf("repair echoes %q, want the bad reply %q", m[2].Content, first.Content)
				}
				for _, want := range tt.repairHas {
					if !strings.Contains(m[3].Content, want) {
						t.Errorf("repair message lacks %q:\n%s", want, m[3].Content)
					}
				}
			}
			for i := range orig {
				if msgs[i] != orig[i] || len(msgs) != len(orig) {
					t.Error("CompleteJSON modified msgs")
				}
			}

			if tt.wantOK {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				want := llm.NextAction{Reason: "The Save button stores the note.", Action: "tap", Element: 3, Done: true}
				if got != want {
					t.Errorf("got %+v, want %+v", got, want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErrHas) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErrHas)
			}
			if got != (llm.NextAction{}) {
				t.Errorf("value %+v returned with an error", got)
			}
			var re *llm.ReplyError
			isReply := errors.As(err, &re)
			var ce *llm.Error
			if errors.As(err, &ce) {
				if isReply {
					t.Error("transport error reported as ReplyError")
				}
				return
			}
			if !isReply || re.Reply != reqReplyText(tt.script[1]) {
				t.Fatalf("err = %#v, want *ReplyError holding the last reply", err)
			}
			if tt.wantNoJSON != errors.Is(err, llm.ErrNoJSON) {
				t.Errorf("errors.Is(err, ErrNoJSON) = %v", !tt.wantNoJSON)
			}
			var ve *llm.ValidationError
			if tt.wantInvalid != errors.As(err, &ve) {
				t.Errorf("errors.As(err, *ValidationError) = %v", !tt.wantInvalid)
			}
		})
	}
}

// reqReplyText is the content the fake server sends for r.
func reqReplyText(r llmtest.Reply) string {
	switch r.Fault {
	case llmtest.FaultNotJSON:
		return llmtest.NotJSONContent
	case llmtest.FaultBadElement:
		return llmtest.BadElementContent
	}
	return r.Content
}

func TestBadElementPassesSchemaButNotCheck(t *testing.T) {
	a, err := llm.ParseReply[llm.NextAction](llmtest.BadElementContent, nil)
	if err != nil {
		t.Fatalf("BadElementContent must be schema-valid: %v", err)
	}
	if a.Element != llmtest.BadElementIndex {
		t.Errorf("element %d", a.Element)
	}
	if _, err := llm.ParseReply(llmtest.BadElementContent, screenHas); err == nil {
		t.Error("check accepted element 999")
	}
}

func TestCompleteJSONUsageSumsBothCalls(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Script(
		llmtest.Reply{Fault: llmtest.FaultNone, Content: "nope", PromptTokens: 100, CompletionTokens: 7},
		llmtest.Reply{Content: `{"doc":"Opens the settings page."}`, PromptTokens: 130, CompletionTokens: 9},
	)
	c := newClient(t, s)
	doc, r, err := llm.CompleteJSON[llm.ElementDoc](context.Background(), c, userMsg("describe"), nil)
	if err != nil || doc.Doc != "Opens the settings page." {
		t.Fatalf("doc = %+v, err = %v", doc, err)
	}
	want := llm.Usage{Calls: 2, PromptTokens: 230, CompletionTokens: 16}
	if r.Usage() != want || c.Usage() != want {
		t.Errorf("reply usage %+v, client usage %+v, want %+v", r.Usage(), c.Usage(), want)
	}
	if r.Text != `{"doc":"Opens the settings page."}` {
		t.Errorf("reply text = %q, want the last reply", r.Text)
	}
}

func TestCompleteJSONCheckReply(t *testing.T) {
	s := llmtest.NewServer(t)
	s.Script(llmtest.Text(`{"reason":"r","completed":false,"correct":false,"penalty":12}`),
		llmtest.Text(`{"reason":"r","completed":false,"correct":false,"penalty":7}`))
	ck, _, err := llm.CompleteJSON[llm.Check](context.Background(), newClient(t, s), userMsg("check"), nil)
	if err != nil || ck.Penalty != 7 {
		t.Fatalf("check = %+v, %v", ck, err)
	}
	if m := s.Requests()[1].Body.Messages; !strings.Contains(m[len(m)-1].Content, "$.penalty: maximum: got 12, want 9") {
		t.Errorf("repair message: %s", m[len(m)-1].Content)
	}
}

func TestResponseFormatFallback(t *testing.T) {
	tests := []struct {
		name string
		opts []llmtest.Option
		// formats sent by the first CompleteJSON (each refusal re-sends one
		// step down), then the one format of the second call.
		first  []string
		second string
		schema bool // the accepted format carries the schema
		final  string
	}{
		{name: "OpenAI, vLLM, Ollama: json_schema", first: []string{"json_schema"}, second: "json_schema", schema: true, final: "json_schema"},
		{name: "LM Studio: no json_object, json_schema fine", opts: []llmtest.Option{llmtest.WithoutJSONMode()},
			first: []string{"json_schema"}, second: "json_schema", schema: true, final: "json_schema"},
		{name: "llama-cpp-python: json_object with a schema", opts: []llmtest.Option{llmtest.WithFormats("text", "json_object")},
			first: []string{"json_schema", "json_object"}, second: "json_object", schema: true, final: "json_object+schema"},
		{name: "no response_format at all", opts: []llmtest.Option{llmtest.WithFormats("text")},
			first: []string{"json_schema", "json_object", "json_object", ""}, second: "", final: "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, tt.opts...)
			s.Always(llmtest.Text(validTap))
			c := newClient(t, s)
			for call := range 2 {
				_, reply, err := llm.CompleteJSON(context.Background(), c, userMsg("x"), screenHas)
				if err != nil {
					t.Fatalf("call %d: %v", call, err)
				}
				if call == 0 && reply.Retries != len(tt.first)-1 {
					t.Errorf("retries = %d, want %d (one per refused format)", reply.Retries, len(tt.first)-1)
				}
			}
			reqs := s.Requests()
			want := append(append([]string(nil), tt.first...), tt.second)
			if len(reqs) != len(want) {
				t.Fatalf("%d requests, want %d", len(reqs), len(want))
			}
			for i, q := range reqs {
				if q.Format() != want[i] {
					t.Errorf("request %d: response_format %s, want type %q", i, q.ResponseFormat, want[i])
				}
			}
			if last := reqs[len(reqs)-1]; last.HasSchema() != tt.schema {
				t.Errorf("accepted format %s: schema present = %v, want %v", last.ResponseFormat, last.HasSchema(), tt.schema)
			}
			if got := c.Stats().Format; got != tt.final {
				t.Errorf("Stats().Format = %q, want %q", got, tt.final)
			}
		})
	}

	s := llmtest.NewServer(t)
	s.Script(llmtest.Text(validTap))
	off := newClient(t, s, func(c *llm.Config) { c.JSONMode = false })
	if _, _, err := llm.CompleteJSON(context.Background(), off, userMsg("x"), screenHas); err != nil {
		t.Fatal(err)
	}
	if q := s.Requests()[0]; q.ResponseFormat != nil {
		t.Errorf("JSONMode=false still sent response_format %s", q.ResponseFormat)
	}
}

func TestCompleteJSONUnsupportedType(t *testing.T) {
	s := llmtest.NewServer(t)
	_, _, err := llm.CompleteJSON[chan int](context.Background(), newClient(t, s), userMsg("x"), nil)
	if err == nil || s.Calls() != 0 {
		t.Errorf("err = %v after %d calls, want a schema error before any call", err, s.Calls())
	}
	if _, _, err := llm.CompleteJSON[llm.NextAction](context.Background(), nil, userMsg("x"), nil); !errors.Is(err, llm.ErrNotConfigured) {
		t.Errorf("nil client: %v", err)
	}
}

func TestNextActionCheck(t *testing.T) {
	tests := []struct {
		a    llm.NextAction
		want string // "" = valid
	}{
		{llm.NextAction{Action: "tap", Element: 2}, ""},
		{llm.NextAction{Action: "tap", Element: -1}, "needs the index"},
		{llm.NextAction{Action: "tap", Element: 5}, "5 is not an index"},
		{llm.NextAction{Action: "long_press", Element: 4}, ""},
		{llm.NextAction{Action: "input", Element: 1, Text: "milk"}, ""},
		{llm.NextAction{Action: "input", Element: 1, Text: "  "}, "needs the text to type"},
		{llm.NextAction{Action: "scroll", Element: -1, Direction: "forward"}, ""},
		{llm.NextAction{Action: "scroll", Element: 9, Direction: "forward"}, "9 is not an index"},
		{llm.NextAction{Action: "scroll", Element: -1}, "needs direction"},
		{llm.NextAction{Action: "back", Element: -1}, ""},
		{llm.NextAction{Action: "ime_enter", Element: -1}, ""},
		{llm.NextAction{Action: "ime_enter", Element: 1}, ""},
		{llm.NextAction{Action: "ime_enter", Element: 7}, "7 is not an index"},
		{llm.NextAction{Action: "ime_enter", Element: -2}, "or -1 for the focused field"},
		{llm.NextAction{Action: "home", Element: 0}, "takes no node"},
		{llm.NextAction{Action: "done", Element: -1, Done: true}, ""},
		{llm.NextAction{Action: "ask", Element: -1, Text: "Send it now?"}, ""},
		{llm.NextAction{Action: "ask", Element: -1}, "needs the question"},
	}
	for _, tt := range tests {
		err := screenHas(&tt.a)
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: err = %v, want %q", tt.a, err, tt.want)
		}
	}
	if err := llm.NextActionCheck(nil)(&llm.NextAction{Action: "tap", Element: 999}); err != nil {
		t.Errorf("nil exists: %v", err)
	}
}
