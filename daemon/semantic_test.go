package daemon_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/demotest"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

const embedKey = "sk-embed-test-0a1b2c3d4e5f60718293"

// paraphrase is a command the lexical matcher scores just below the
// threshold against the learned "turn on dark mode" flow, with no veto (a
// synonym verb and a typo); the fake endpoint's synonyms make its
// embedding equal to the flow's, as a real model's would be close.
const paraphrase = "enable drak mode"

var embedSynonyms = map[string]string{"enable": "turn on", "drak": "dark"}

// embedRig is the demo phone with the graph planner and, when s is set,
// an embedder on the fake endpoint s.
func embedRig(t *testing.T, s *llmtest.Server) *rig {
	t.Helper()
	phone, st := demotest.New(t, true)
	cfg := daemon.Config{}
	if s != nil {
		cfg.Embedder = embedderOn(s)
		cfg.Semantic = semantic.Config{Timeout: 500 * time.Millisecond}
	}
	return &rig{phone: phone, store: st, eng: daemon.New(phone, st, graphplan.New(st), nil, cfg)}
}

// offering gives r an engine that plans nothing and matches with
// embeddings from s, offering flows ("did you mean") at suggestMin.
func (r *rig) offering(s *llmtest.Server, suggestMin float64) {
	r.eng = daemon.New(r.phone, r.store, nil, nil, daemon.Config{Embedder: embedderOn(s),
		Semantic: semantic.Config{Timeout: 500 * time.Millisecond, Retrieve: 5, SuggestMinCosine: suggestMin}})
}

// learnGraph learns cmd from the home screen with the graph planner and
// no embedder (another engine on r's phone and store) and returns the
// result of the run, which saved a flow.
func (r *rig) learnGraph(t *testing.T, cmd string) *daemon.Result {
	t.Helper()
	if err := r.phone.Reset("home"); err != nil {
		t.Fatal(err)
	}
	res, err := daemon.New(r.phone, r.store, graphplan.New(r.store), nil, daemon.Config{}).Run(context.Background(), cmd, daemon.Options{})
	if err != nil || !res.Saved {
		t.Fatalf("learn %q: %+v %v", cmd, res, err)
	}
	return res
}

// runEvents runs cmd and returns its result and the events it published.
func (r *rig) runEvents(t *testing.T, cmd string, opt daemon.Options) (*daemon.Result, []event.Event) {
	t.Helper()
	sub := r.eng.Bus().Subscribe(4096)
	defer r.eng.Bus().Unsubscribe(sub)
	res := r.run(t, cmd, opt)
	var evs []event.Event
	for {
		select {
		case ev := <-sub.C:
			evs = append(evs, ev)
			if ev.Type == event.RunFinished {
				return res, evs
			}
		case <-time.After(2 * time.Second):
			t.Fatal("no run_finished event")
		}
	}
}

func flowMatch(t *testing.T, evs []event.Event) event.FlowMatch {
	t.Helper()
	for _, ev := range evs {
		if ev.Type == event.FlowMatched {
			var fm event.FlowMatch
			if err := json.Unmarshal(ev.Data, &fm); err != nil {
				t.Fatal(err)
			}
			return fm
		}
	}
	t.Fatal("no flow_matched event")
	return event.FlowMatch{}
}

func TestEmbeddingsInFlowMatching(t *testing.T) {
	tests := []struct {
		name      string
		embed     bool                  // an embedder is configured
		setup     func(*llmtest.Server) // endpoint misbehaviour
		cmd       string
		replay    bool // the learned flow is replayed
		promoted  bool
		requests  int    // embedding requests the endpoint saw
		logSubstr string // a warn log line must contain this
	}{
		{name: "paraphrase just below the threshold is promoted", embed: true, cmd: paraphrase, replay: true, promoted: true, requests: 1},
		{name: "without an embedder the paraphrase is a miss", cmd: paraphrase},
		{name: "opposite concept is never promoted", embed: true, cmd: "turn off dark mode"},
		{name: "server down: lexical result, no error", embed: true, setup: func(s *llmtest.Server) { s.Close() }, cmd: paraphrase,
			logSubstr: "embeddings unavailable"},
		{name: "server errors: lexical result, no error", embed: true, setup: func(s *llmtest.Server) { s.EmbedAlways(llmtest.Fault500) },
			cmd: paraphrase, requests: 4, logSubstr: "status 500"},
		{name: "server hangs: lexical result after the timeout", embed: true, setup: func(s *llmtest.Server) { s.EmbedAlways(llmtest.FaultTimeout) },
			cmd: paraphrase, requests: 1, logSubstr: "no answer within 500ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, llmtest.WithKey(embedKey), llmtest.WithSynonyms(embedSynonyms))
			var r *rig
			if tt.embed {
				r = embedRig(t, s)
			} else {
				r = embedRig(t, nil)
			}
			learned := r.run(t, "turn on dark mode", daemon.Options{})
			if learned.Outcome != knowledge.OutcomeSuccess || !learned.Saved {
				t.Fatalf("learn: %+v", learned)
			}
			planning := s.EmbedCalls() // the graph planner's, while learning
			if tt.setup != nil {
				tt.setup(s)
			}
			res, evs := r.runEvents(t, tt.cmd, daemon.Options{NoPlanner: true})
			if res.Matched != tt.replay || res.Promoted != tt.promoted {
				t.Fatalf("matched %v promoted %v (score %.3f), want %v %v; %+v", res.Matched, res.Promoted, res.Score, tt.replay, tt.promoted, res)
			}
			if tt.replay && (res.Outcome != knowledge.OutcomeSuccess || res.Strategy != "replay" || res.FlowID != learned.FlowID || res.LLMCalls != 0) {
				t.Fatalf("replay: %+v", res)
			}
			if !tt.replay && !strings.Contains(res.Error, "no saved flow") {
				t.Fatalf("want a clean miss: %+v", res)
			}
			if got := s.EmbedCalls() - planning; got != tt.requests {
				t.Errorf("%d embedding requests, want %d", got, tt.requests)
			}
			fm := flowMatch(t, evs)
			if fm.Replay != tt.replay || (fm.Semantic != nil && fm.Semantic.Promoted != tt.promoted) {
				t.Errorf("flow_matched %+v semantic %+v", fm, fm.Semantic)
			}
			if tt.promoted && (fm.Semantic == nil || fm.Semantic.Cosine < 0.99 || fm.Semantic.Model != "fake-embed") {
				t.Errorf("flow_matched semantic %+v", fm.Semantic)
			}
			logged := false
			for _, ev := range evs {
				if strings.Contains(string(ev.Data), embedKey) {
					t.Errorf("key in event %s: %s", ev.Type, ev.Data)
				}
				if ev.Type == event.Log && strings.Contains(string(ev.Data), "flow matching") {
					logged = true
					if tt.logSubstr == "" || !strings.Contains(string(ev.Data), tt.logSubstr) {
						t.Errorf("log %s, want one containing %q", ev.Data, tt.logSubstr)
					}
				}
			}
			if logged != (tt.logSubstr != "") {
				t.Errorf("flow matching log line: %v, want %v", logged, tt.logSubstr != "")
			}
		})
	}
}

// TestPromotedCommandIsNotLearned: a replay promoted on the model's word
// alone reaches the goal, yet the command is not kept among the flow's
// past commands (the goal says the route works, not that the command meant
// it), so next time it is promoted again, from the cache, with no new
// embedding request; the flow's commands are unchanged.
func TestPromotedCommandIsNotLearned(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithKey(embedKey), llmtest.WithSynonyms(embedSynonyms))
	r := embedRig(t, s)
	if res := r.run(t, "turn on dark mode", daemon.Options{}); !res.Saved {
		t.Fatalf("%+v", res)
	}
	planning := s.EmbedCalls() // the graph planner's, while learning
	first := r.run(t, paraphrase, daemon.Options{NoPlanner: true})
	if !first.Promoted || first.Outcome != knowledge.OutcomeSuccess {
		t.Fatalf("%+v", first)
	}
	res := r.run(t, paraphrase, daemon.Options{NoPlanner: true})
	if got := s.EmbedCalls() - planning; !res.Promoted || res.Outcome != knowledge.OutcomeSuccess || got != 1 {
		t.Fatalf("second time: %+v, %d embedding requests", res, got)
	}
	f, err := r.store.Flow(context.Background(), first.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(f.Commands, paraphrase) {
		t.Errorf("flow commands %q keep the promoted command", f.Commands)
	}
}

// TestSetEmbedder switches embeddings on and off between runs.
func TestSetEmbedder(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithSynonyms(embedSynonyms))
	r := embedRig(t, nil)
	if res := r.run(t, "turn on dark mode", daemon.Options{}); !res.Saved {
		t.Fatalf("%+v", res)
	}
	if res := r.run(t, paraphrase, daemon.Options{NoPlanner: true}); res.Matched {
		t.Fatalf("no embedder yet: %+v", res)
	}
	c := llm.DefaultConfig()
	c.BaseURL, c.EmbedModel = s.URL(), "fake-embed"
	r.eng.SetEmbedder(llm.New(c))
	if res := r.run(t, paraphrase, daemon.Options{NoPlanner: true}); !res.Promoted {
		t.Fatalf("with embedder: %+v", res)
	}
	r.eng.SetEmbedder(nil)
	if res := r.run(t, "enable dark mdoe", daemon.Options{NoPlanner: true}); res.Promoted || s.EmbedCalls() != 1 {
		t.Fatalf("embedder removed: %+v, %d embedding requests", res, s.EmbedCalls())
	}
}

// TestDidYouMean: a command close in meaning to a saved flow but not
// close enough to replay on its own is offered to the owner, who chooses
// (by name or number) or declines; nothing is replayed without a choice,
// and with nobody to ask nothing is offered. A chosen replay teaches the
// flow the command.
func TestDidYouMean(t *testing.T) {
	// polarity: names neither on nor off ("make" says no state, so no
	// switch anchor takes it either)
	const cmd = "make dark mode happen"
	tests := []struct {
		name   string
		asker  *answer
		replay bool
	}{
		{"the owner chooses the flow by name", &answer{text: "Turn on dark mode"}, true},
		{"the owner chooses by number", &answer{text: "1"}, true},
		{"the owner declines", &answer{text: daemon.AnswerNone}, false},
		{"nobody answers", &answer{err: context.DeadlineExceeded}, false},
		{"nobody to ask", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, llmtest.WithKey(embedKey))
			r := embedRig(t, s)
			r.offering(s, 0.3)
			r.learnGraph(t, "turn on dark mode")
			if tt.asker != nil {
				r.eng.SetAsker(tt.asker)
			}
			res, evs := r.runEvents(t, cmd, daemon.Options{NoPlanner: true})
			if res.Matched != tt.replay || res.Chosen != tt.replay {
				t.Fatalf("matched %v chosen %v, want %v: %+v", res.Matched, res.Chosen, tt.replay, res)
			}
			if tt.replay && res.Outcome != knowledge.OutcomeSuccess {
				t.Fatalf("replay: %+v", res)
			}
			asked := false
			for _, ev := range evs {
				if ev.Type == event.Ask && strings.Contains(string(ev.Data), "Did you mean") && strings.Contains(string(ev.Data), "Turn on dark mode") {
					asked = true
				}
			}
			if asked != (tt.asker != nil) {
				t.Errorf("offered: %v, want %v", asked, tt.asker != nil)
			}
			if tt.replay {
				// the owner's choice is kept for these words only: no past
				// command of the flow (lexical evidence for other commands)
				f, err := r.store.Flow(context.Background(), res.FlowID)
				if err != nil || slices.Contains(f.Commands, cmd) {
					t.Errorf("the chosen command became a past command: %q %v", f.Commands, err)
				}
				// the owner's choice is remembered: next time no question
				tt.asker.n = 0
				again := r.run(t, cmd, daemon.Options{NoPlanner: true})
				if !again.Matched || again.Chosen || tt.asker.asked() != 0 {
					t.Errorf("second time: %+v, %d questions", again, tt.asker.asked())
				}
			}
		})
	}
}

func embedderOn(s *llmtest.Server) semantic.Embedder {
	c := llm.DefaultConfig()
	c.BaseURL, c.APIKey, c.EmbedModel = s.URL(), embedKey, "fake-embed"
	c.Timeout, c.BackoffBase = 2*time.Second, time.Millisecond
	return llm.New(c)
}

// TestLexicalMatchMustAgree: a command the lexical matcher would replay
// but the embedder finds far from the flow is not replayed on its own: it
// is offered, and replayed only when the owner chooses it.
func TestLexicalMatchMustAgree(t *testing.T) {
	const cmd = "please turn on the dark mode"
	for _, tt := range []struct {
		name   string
		min    float64
		asker  *answer
		replay bool
	}{
		{"the model agrees", 0.4, nil, true},
		{"the model disagrees, nobody to ask", 0.6, nil, false},
		{"the model disagrees, the owner chooses it", 0.6, &answer{text: "1"}, true},
		{"the model disagrees, the owner declines", 0.6, &answer{text: daemon.AnswerNone}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, llmtest.WithKey(embedKey))
			r := embedRig(t, s)
			learned := r.run(t, "turn on dark mode", daemon.Options{})
			if !learned.Saved {
				t.Fatalf("learn: %+v", learned)
			}
			// the command at cosine 0.5 from every other text
			half := semantic.Func{Model: "half", Fn: func(_ context.Context, texts []string) ([][]float32, error) {
				out := make([][]float32, len(texts))
				for i, x := range texts {
					out[i] = []float32{0.5, 0.866}
					if x == cmd {
						out[i] = []float32{1, 0}
					}
				}
				return out, nil
			}}
			r.eng = daemon.New(r.phone, r.store, nil, nil, daemon.Config{Embedder: half,
				Semantic: semantic.Config{Timeout: 500 * time.Millisecond, MinAgree: tt.min}})
			if tt.asker != nil {
				r.eng.SetAsker(tt.asker)
			}
			if c, err := r.eng.MatchFlow(context.Background(), cmd, "", 1); err != nil || len(c) == 0 || c[0].Score < intent.DefaultThreshold {
				t.Fatalf("the command must match lexically for this test: %+v %v", c, err)
			}
			res := r.run(t, cmd, daemon.Options{NoPlanner: true})
			if res.Matched != tt.replay {
				t.Fatalf("matched %v, want %v: %+v", res.Matched, tt.replay, res)
			}
			if !tt.replay && (res.Semantic == nil || !strings.Contains(res.Semantic.Reason, "far from the command")) {
				t.Errorf("semantic %+v, want the disagreement", res.Semantic)
			}
		})
	}
}

// TestTwoFlowsFitAboutEqually: two saved flows that fit a command within
// the ambiguity margin are not replayed on a guess: the owner is asked
// which one, and with nobody to answer nothing replays.
func TestTwoFlowsFitAboutEqually(t *testing.T) {
	for _, tt := range []struct {
		name   string
		asker  *answer
		replay bool
	}{
		{"the owner picks the second", &answer{text: "2"}, true},
		{"the owner declines", &answer{text: daemon.AnswerNone}, false},
		{"nobody to ask", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil)
			first := r.run(t, "turn on dark mode in the notes", daemon.Options{})
			if !first.Saved {
				t.Fatalf("learn: %+v", first)
			}
			ctx := context.Background()
			f, err := r.store.Flow(ctx, first.FlowID)
			if err != nil {
				t.Fatal(err)
			}
			twin := *f
			twin.ID, twin.Token, twin.Name, twin.Intent, twin.Commands = 0, "", "Turn on dark mode in the editor", "turn on dark mode in the editor", nil
			if err := r.store.SaveFlow(ctx, &twin); err != nil {
				t.Fatal(err)
			}
			r.eng.InvalidateFlows()
			cands, err := r.eng.MatchFlow(ctx, "turn on dark mode", "", 2)
			if err != nil || len(cands) != 2 || cands[0].Score-cands[1].Score >= 0.05 || cands[1].Score < intent.DefaultThreshold {
				t.Fatalf("the two flows must fit about equally: %+v %v", cands, err)
			}
			if tt.asker != nil {
				r.eng.SetAsker(tt.asker)
			}
			res := r.run(t, "turn on dark mode", daemon.Options{NoPlanner: true})
			if res.Matched != tt.replay || res.Chosen != tt.replay {
				t.Fatalf("matched %v chosen %v, want %v: %+v", res.Matched, res.Chosen, tt.replay, res)
			}
			if tt.replay && res.FlowID != cands[1].FlowID {
				t.Errorf("replayed flow %d, want the owner's choice %d", res.FlowID, cands[1].FlowID)
			}
			if tt.asker != nil && tt.asker.asked() != 1 {
				t.Errorf("asked %d times, want once", tt.asker.asked())
			}
		})
	}
}

// TestRunOnValueIsOffered: a lexical match whose value runs on over a
// date or number the slot never held (another requirement swallowed) is
// not replayed on its own: the owner is asked, and nothing replays
// without an answer. A long value without one still replays.
func TestRunOnValueIsOffered(t *testing.T) {
	for _, tt := range []struct {
		name   string
		cmd    string
		asker  *answer
		replay bool
	}{
		{"a plain long title", "create a note called dinner with mom and the kids", nil, true},
		{"a date swallowed, nobody to ask", "create a note called dinner with mom on july 14, remind me 30 min before", nil, false},
		{"a date swallowed, the owner declines", "create a note called dinner with mom on july 14, remind me 30 min before", &answer{text: daemon.AnswerNone}, false},
		{"a date swallowed, the owner chooses it", "create a note called dinner with mom on july 14, remind me 30 min before", &answer{text: "1"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, nil)
			if first := r.run(t, `create a note called "Milk"`, daemon.Options{}); !first.Saved {
				t.Fatalf("learn: %+v", first)
			}
			if c, err := r.eng.MatchFlow(context.Background(), tt.cmd, "", 1); err != nil || len(c) == 0 || c[0].Score < intent.DefaultThreshold {
				t.Fatalf("the command must match lexically for this test: %+v %v", c, err)
			}
			if tt.asker != nil {
				r.eng.SetAsker(tt.asker)
			}
			res := r.run(t, tt.cmd, daemon.Options{NoPlanner: true})
			if res.Matched != tt.replay {
				t.Fatalf("matched %v, want %v: %+v", res.Matched, tt.replay, res)
			}
			if tt.asker != nil && tt.asker.asked() != 1 {
				t.Errorf("asked %d times, want once", tt.asker.asked())
			}
		})
	}
}

// TestMissingValueIsAsked: a flow whose slot the command leaves empty is
// offered only with the owner giving the value ("— with other values"),
// never as read, and the replay types the owner's answer; an empty
// answer replays nothing.
func TestMissingValueIsAsked(t *testing.T) {
	for _, tt := range []struct {
		name, value string
		replay      bool
	}{
		{"the owner gives the value", "Groceries", true},
		{"the owner gives none", "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, llmtest.WithKey(embedKey))
			r := embedRig(t, s)
			r.offering(s, 0.3)
			r.learnGraph(t, `create a note called "Milk"`)
			var offered []string
			asked := 0
			own := ownerChoosing(func(o string) bool { return strings.HasSuffix(o, daemon.OfferOtherValues) }, tt.value, &offered)
			r.eng.SetAsker(askFunc(func(q string, options []string) (string, error) {
				asked++
				return own(q, options)
			}))
			res := r.run(t, "create a new note", daemon.Options{NoPlanner: true})
			if len(offered) == 0 {
				t.Fatalf("not offered: %+v", res)
			}
			for _, o := range offered {
				if o != daemon.AnswerNone && !strings.HasSuffix(o, daemon.OfferOtherValues) {
					t.Errorf("option %q would replay the flow without the value the command did not give", o)
				}
			}
			if res.Matched != tt.replay || tt.replay && strings.Join(res.Typed, "|") != tt.value {
				t.Errorf("matched %v typed %q, want %v and %q", res.Matched, res.Typed, tt.replay, tt.value)
			}
			if asked != 2 {
				t.Errorf("%d questions, want the offer and the value", asked)
			}
		})
	}
}

// TestAskedMatchOffersFlowsBeside: a lexical match asked about (its value
// is a guess) is offered first, with the flows the model finds close
// beside it; the owner may choose one of those, which then replays with
// the command's value, though its own lexical score is below the
// threshold.
func TestAskedMatchOffersFlowsBeside(t *testing.T) {
	s := llmtest.NewServer(t, llmtest.WithKey(embedKey), llmtest.WithSynonyms(map[string]string{"scribble": "create a note"}))
	r := embedRig(t, s)
	res := r.learnGraph(t, `create a note called "Milk"`)
	f, err := r.store.Flow(context.Background(), res.FlowID)
	if err != nil {
		t.Fatal(err)
	}
	g := *f // the same route under other words
	g.ID, g.Token, g.Name, g.Intent, g.Commands = 0, "", "Scribble", "scribble {"+f.Slots[0].Name+"}", nil
	if err := r.store.SaveFlow(context.Background(), &g); err != nil {
		t.Fatal(err)
	}
	r.offering(s, 0.1)
	var offered []string
	r.eng.SetAsker(ownerChoosing(func(o string) bool { return strings.HasPrefix(o, "Scribble") }, "eggs", &offered))
	got := r.run(t, "create a note eggs", daemon.Options{NoPlanner: true})
	if !strings.HasPrefix(offered[0], f.Name) || !slices.ContainsFunc(offered, func(o string) bool { return strings.HasPrefix(o, "Scribble") }) {
		t.Fatalf("offered %q: want the lexical match first, the other flow beside it", offered)
	}
	if !got.Matched || got.FlowID != g.ID || got.Outcome != knowledge.OutcomeSuccess || strings.Join(got.Typed, "|") != "eggs" {
		t.Errorf("replay %+v, want flow %d typing \"eggs\"", got, g.ID)
	}
}

// TestPromotedValueIsDoubted: a flow the model promotes is held to the
// doubts the lexical match has of its values (slotvalues.go): a name the
// command gives without setting it apart ("jot a memo eggs" against
// "create a note called {title}") is offered to the owner, never typed on
// its own; set apart by a colon, it replays.
func TestPromotedValueIsDoubted(t *testing.T) {
	for _, tt := range []struct {
		name, cmd string
		asker     *answer
		replay    bool
	}{
		{"a value set apart is promoted", "jot a memo: eggs", nil, true},
		{"an unnamed value, nobody to ask", "jot a memo eggs", nil, false},
		{"an unnamed value, the owner declines", "jot a memo eggs", &answer{text: daemon.AnswerNone}, false},
		{"an unnamed value, the owner chooses it", "jot a memo eggs", &answer{text: "1"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, llmtest.WithKey(embedKey), llmtest.WithSynonyms(map[string]string{"jot": "create", "memo": "note"}))
			r := embedRig(t, s)
			r.learnGraph(t, `create a note called "Milk"`)
			r.eng = daemon.New(r.phone, r.store, nil, nil, daemon.Config{Embedder: embedderOn(s),
				Semantic: semantic.Config{Timeout: 500 * time.Millisecond, MinCosine: 0.7}})
			if c, err := r.eng.MatchFlow(context.Background(), tt.cmd, "", 1); err != nil || len(c) == 0 || c[0].Score >= intent.DefaultThreshold || len(c[0].Vetoes) > 0 {
				t.Fatalf("the command must be a grey-zone candidate with no veto for this test: %+v %v", c, err)
			}
			if tt.asker != nil {
				r.eng.SetAsker(tt.asker)
			}
			res, evs := r.runEvents(t, tt.cmd, daemon.Options{NoPlanner: true})
			if res.Matched != tt.replay {
				t.Fatalf("matched %v, want %v: %+v", res.Matched, tt.replay, res)
			}
			if tt.replay && (res.Outcome != knowledge.OutcomeSuccess || strings.Join(res.Typed, "|") != "eggs") {
				t.Errorf("replay %+v, want it to type \"eggs\"", res)
			}
			if doubted := strings.HasSuffix(tt.cmd, " eggs") && !strings.Contains(tt.cmd, ":"); doubted {
				if res.Promoted && !res.Chosen {
					t.Errorf("promoted on its own: %+v", res)
				}
				if tt.asker != nil && tt.asker.asked() != 1 {
					t.Errorf("asked %d times, want once", tt.asker.asked())
				}
				if fm := flowMatch(t, evs); fm.Semantic == nil || !strings.Contains(fm.Semantic.Reason, "not replayed on its own") {
					t.Errorf("flow_matched semantic %+v, want the doubt in its reason", fm.Semantic)
				}
			}
		})
	}
}
