package semantic_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/knowledge/knowledgetest"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

const th = intent.DefaultThreshold

// unit is a fake embedder: every text maps to a fixed vector by its first
// word ("a", "b", "c", ...), so a test states cosines directly. A flow's
// path text (semantic.PathText: labels joined by commas) whose first word
// has no vector maps opposite every command (cosine −1): these tests state
// a flow's cosine through its template.
func unit(calls *atomic.Int32, vecs map[string][]float32) semantic.Func {
	return semantic.Func{Model: "fake", Fn: func(ctx context.Context, texts []string) ([][]float32, error) {
		calls.Add(1)
		out := make([][]float32, len(texts))
		for i, t := range texts {
			w, _, _ := strings.Cut(t, " ")
			v, ok := vecs[w]
			if !ok && strings.Contains(t, ", ") {
				v, ok = []float32{-1, 0}, true
			}
			if !ok {
				return nil, errors.New("fake: no vector for " + t)
			}
			out[i] = v
		}
		return out, nil
	}}
}

// vectors at known cosines to cmd = (1, 0): same 1, close cos(0.3) ≈
// 0.955, near cos(0.6) ≈ 0.825, far cos(1.2) ≈ 0.36
var vecs = map[string][]float32{
	"cmd":   {1, 0},
	"same":  {1, 0},
	"same2": {1, 0},
	"close": {float32(math.Cos(0.3)), float32(math.Sin(0.3))},
	"near":  {float32(math.Cos(0.6)), float32(math.Sin(0.6))},
	"far":   {float32(math.Cos(1.2)), float32(math.Sin(1.2))},
}

func flowsOf(intents ...string) map[int64]*knowledge.Flow {
	m := map[int64]*knowledge.Flow{}
	for i, in := range intents {
		m[int64(i+1)] = &knowledge.Flow{ID: int64(i + 1), Intent: in, Package: "p"}
	}
	return m
}

func cand(id int64, score float64, vetoes ...string) intent.Candidate {
	return intent.Candidate{FlowID: id, Score: score, Vetoes: vetoes}
}

func TestDecideRule(t *testing.T) {
	grey := th - 0.05
	tests := []struct {
		name     string
		flows    []string // intents of flows 1, 2, ... (first word picks the vector)
		cands    []intent.Candidate
		promoted int  // index, -1 none
		calls    int  // embedding requests
		consult  bool // embeddings compared
	}{
		{"paraphrase in the grey zone, high cosine", []string{"same x"}, []intent.Candidate{cand(1, grey)}, 0, 1, true},
		{"lexical match above the threshold: no embedding", []string{"same x"}, []intent.Candidate{cand(1, th+0.01)}, -1, 0, false},
		{"opposite concept never promoted", []string{"same x"}, []intent.Candidate{cand(1, grey, intent.VetoOpposite, intent.VetoAction)}, -1, 0, false},
		{"negation never promoted", []string{"same x"}, []intent.Candidate{cand(1, grey, intent.VetoNegation)}, -1, 0, false},
		{"missing slot never promoted", []string{"same x"}, []intent.Candidate{{FlowID: 1, Score: grey, Missing: []string{"title"}}}, -1, 0, false},
		{"below the grey zone", []string{"same x"}, []intent.Candidate{cand(1, th-intent.GreyZone-0.01)}, -1, 0, false},
		{"grey-zone floor included", []string{"same x"}, []intent.Candidate{cand(1, th-intent.GreyZone+1e-9)}, 0, 1, true},
		{"cosine below MinCosine", []string{"near x"}, []intent.Candidate{cand(1, grey)}, -1, 1, true},
		{"two flows equally close: ambiguous", []string{"same x", "same2 y"}, []intent.Candidate{cand(1, grey), cand(2, 0.2)}, -1, 1, true},
		{"runner-up far enough", []string{"same x", "far y"}, []intent.Candidate{cand(1, grey), cand(2, grey-0.01)}, 0, 1, true},
		{"best cosine wins among grey candidates", []string{"far x", "same y"}, []intent.Candidate{cand(1, grey), cand(2, grey-0.02)}, 1, 1, true},
		{"a vetoed look-alike does not make it ambiguous", []string{"close x", "same y"}, []intent.Candidate{cand(1, grey), cand(2, grey, intent.VetoOpposite)}, 0, 1, true},
		{"unknown flow ignored", []string{"same x"}, []intent.Candidate{cand(9, grey)}, -1, 0, false},
		{"no candidates", nil, nil, -1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			r := semantic.New(unit(&calls, vecs), nil, semantic.Config{})
			d := r.Decide(context.Background(), "cmd please", tt.cands, flowsOf(tt.flows...), th)
			if d.Promoted != tt.promoted || int(calls.Load()) != tt.calls || d.Consulted != tt.consult || d.Err != nil {
				t.Errorf("promoted %d calls %d consulted %v err %v (%s); want %d %d %v", d.Promoted, calls.Load(), d.Consulted, d.Err, d.Reason, tt.promoted, tt.calls, tt.consult)
			}
			if d.Reason == "" {
				t.Error("no reason")
			}
		})
	}
}

func TestDecideNilAndDefaults(t *testing.T) {
	var r *semantic.Rescorer
	if d := r.Decide(context.Background(), "x", []intent.Candidate{cand(1, 0.6)}, flowsOf("x"), th); d.Promoted != -1 || d.Consulted {
		t.Errorf("nil rescorer: %+v", d)
	}
	if semantic.New(nil, nil, semantic.Config{}) != nil {
		t.Error("New(nil) is not nil")
	}
	if r.Model() != "" {
		t.Error("nil Model")
	}
}

func TestFlowTexts(t *testing.T) {
	f := &knowledge.Flow{Intent: "send {message} to {contact}", Slots: []knowledge.Slot{{Name: "message", Example: "hi"}, {Name: "contact"}},
		Commands: []string{"send hi to Alice", "text  Bob  hello", "SEND HI TO ALICE", "c4", "c5", "c6"}}
	got := semantic.FlowTexts(f, 4)
	want := []string{"send hi to contact", "c6", "c5", "c4"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("FlowTexts = %q, want %q", got, want)
	}
	got = semantic.FlowTexts(f, 0)
	want = []string{"send hi to contact", "c6", "c5", "c4", "SEND HI TO ALICE", "text Bob hello"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("all = %q, want %q (newest first, spacing collapsed, repeats differing in case dropped)", got, want)
	}
	sw := &knowledge.Flow{Intent: "stop the buzzing on taps", Steps: []knowledge.Step{{Action: knowledge.StepSwitchOff, Target: screen.Descriptor{Text: "Haptic feedback", Checkable: true}}}}
	if got, want := semantic.FlowTexts(sw, 0), []string{"stop the buzzing on taps", "turn off Haptic feedback"}; !slices.Equal(got, want) {
		t.Errorf("a switch flow's texts = %q, want %q", got, want)
	}
}

// TestPathText: a flow in the words of the elements it taps, a switch
// with the state it sets; typed text, a slot-bound tap, scrolls, keys
// and prose are left out.
func TestPathText(t *testing.T) {
	tap := func(label string) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: screen.Descriptor{Text: label}}
	}
	f := &knowledge.Flow{Intent: "mute {name}", Slots: []knowledge.Slot{{Name: "name", Example: "Dora"}}, Steps: []knowledge.Step{
		{Action: device.Launch},
		tap("Chats"),
		{Action: device.Scroll, Target: screen.Descriptor{Text: "Chats · Calls"}},
		{Action: device.Input, Target: screen.Descriptor{Text: "Search"}, Text: "{name}"},
		{Action: device.Tap, Target: screen.Descriptor{Text: "Dora · 2 unread"}, Text: "{name}"},
		{Action: device.Tap, Target: screen.Descriptor{Desc: "Conversation details"}},
		tap("Notifications for this conversation are delivered with sound and vibration unless muted"),
		{Action: knowledge.StepSwitchOn, Target: screen.Descriptor{Text: "Mute notifications OFF", Checkable: true}},
		{Action: device.Back},
	}}
	if got, want := semantic.PathText(f), "Chats, Conversation details, turn on Mute notifications"; got != want {
		t.Errorf("PathText = %q, want %q", got, want)
	}
	if got, want := semantic.FlowTexts(f, 2), []string{"mute Dora", "Chats, Conversation details, turn on Mute notifications"}; !slices.Equal(got, want) {
		t.Errorf("FlowTexts = %q, want %q (the path right after the template)", got, want)
	}
	if got := semantic.PathText(&knowledge.Flow{Intent: "x", Steps: []knowledge.Step{{Action: device.Input, Text: "hello"}}}); got != "" {
		t.Errorf("a flow that only types: PathText = %q, want \"\"", got)
	}
}

// TestOfflineFallbackAndCooldown: a failing embedder leaves the decision
// lexical, says why, and is not asked again until the cooldown passes;
// a cancelled run does not start a cooldown.
func TestOfflineFallbackAndCooldown(t *testing.T) {
	var calls atomic.Int32
	fail := true
	emb := semantic.Func{Model: "m", Fn: func(ctx context.Context, texts []string) ([][]float32, error) {
		calls.Add(1)
		if fail {
			return nil, errors.New("dial tcp: connection refused")
		}
		return unit(&atomic.Int32{}, vecs).Fn(ctx, texts)
	}}
	now := time.Unix(1000, 0)
	r := semantic.New(emb, nil, semantic.Config{Cooldown: time.Minute})
	semantic.SetClock(r, func() time.Time { return now })
	cands, flows := []intent.Candidate{cand(1, th-0.05)}, flowsOf("same x")
	d := r.Decide(context.Background(), "cmd", cands, flows, th)
	if d.Promoted != -1 || d.Err == nil || !strings.Contains(d.Reason, "connection refused") || calls.Load() != 1 {
		t.Fatalf("first: %+v", d)
	}
	d = r.Decide(context.Background(), "cmd", cands, flows, th)
	if d.Promoted != -1 || d.Err == nil || calls.Load() != 1 {
		t.Fatalf("during cooldown the endpoint was asked again: %d calls, %+v", calls.Load(), d)
	}
	now = now.Add(2 * time.Minute)
	fail = false
	if d = r.Decide(context.Background(), "cmd", cands, flows, th); d.Promoted != 0 || calls.Load() != 2 {
		t.Fatalf("after cooldown: %d calls, %+v", calls.Load(), d)
	}
	// cancelled: no cooldown
	fail = true
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r2 := semantic.New(emb, nil, semantic.Config{})
	_ = r2.Decide(ctx, "cmd", cands, flows, th)
	fail = false
	if d = r2.Decide(context.Background(), "cmd", cands, flows, th); d.Promoted != 0 {
		t.Fatalf("a cancelled run started a cooldown: %+v", d)
	}
}

func TestTimeoutBoundsTheCall(t *testing.T) {
	emb := semantic.Func{Model: "m", Fn: func(ctx context.Context, texts []string) ([][]float32, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	r := semantic.New(emb, nil, semantic.Config{Timeout: 50 * time.Millisecond})
	start := time.Now()
	d := r.Decide(context.Background(), "cmd", []intent.Candidate{cand(1, th-0.05)}, flowsOf("same x"), th)
	if d.Promoted != -1 || d.Err == nil || !strings.Contains(d.Reason, "no answer within 50ms") || time.Since(start) > 2*time.Second {
		t.Fatalf("%s: %+v", time.Since(start), d)
	}
}

// ---- with the real matcher, the fake endpoint and the store as cache ----

func matcherFlows() []knowledge.Flow {
	mk := func(id int64, in string, cmds ...string) knowledge.Flow {
		return knowledge.Flow{ID: id, Package: "org.example.settings", Intent: in, Commands: cmds, Steps: []knowledge.Step{{Action: "tap"}}}
	}
	return []knowledge.Flow{
		mk(1, "turn on hide caller id", "turn on hide caller id"),
		mk(2, "turn on dark mode", "turn on dark mode"),
		mk(3, "turn off dark mode", "turn off dark mode"),
		mk(4, "sort notes by date"),
		mk(5, "open the settings"),
	}
}

const testKey = "sk-semantic-test-5f4e3d2c1b0a99887766"

func client(s *llmtest.Server, timeout time.Duration) *llm.Client {
	cfg := llm.DefaultConfig()
	cfg.BaseURL, cfg.APIKey, cfg.EmbedModel = s.URL(), testKey, "fake-embed"
	cfg.Timeout, cfg.BackoffBase = timeout, time.Millisecond
	return llm.New(cfg)
}

// TestWithMatcherAndEndpoint runs the matcher's real candidates through
// the rule against the fake endpoint, whose synonyms stand in for what an
// embedding model knows.
func TestWithMatcherAndEndpoint(t *testing.T) {
	flows := matcherFlows()
	m := intent.NewMatcher(flows)
	byID := map[int64]*knowledge.Flow{}
	for i := range flows {
		byID[flows[i].ID] = &flows[i]
	}
	syn := map[string]string{"number": "id", "title": "date", "switch": "turn", "to": "on", "off": "on"}
	tests := []struct {
		name    string
		cmd     string
		flow    int64 // the candidate looked at
		grey    bool  // it scores in the grey zone
		vetoed  bool
		promote bool
	}{
		{"paraphrase just below the threshold is promoted", "turn on hide caller number", 1, true, false, true},
		{"opposite concept is never promoted, even at cosine 1", "turn off hide caller number", 1, false, true, false},
		{"ambiguous toggle in the grey zone is vetoed", "switch to dark mode", 2, true, true, false},
		{"exact match needs no embedding", "turn on dark mode", 2, false, false, false},
		{"substitution below the grey zone stays a miss", "sort notes by title", 4, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, llmtest.WithKey(testKey), llmtest.WithSynonyms(syn))
			r := semantic.New(client(s, 2*time.Second), knowledgetest.Open(t), semantic.Config{})
			cands := m.Rank(tt.cmd, "", 3)
			at := slices.IndexFunc(cands, func(c intent.Candidate) bool { return c.FlowID == tt.flow })
			if at < 0 {
				t.Fatalf("lexical candidates %+v lack flow %d", cands, tt.flow)
			}
			top := cands[at]
			if grey := top.Score >= th-intent.GreyZone && top.Score < th; grey != tt.grey || (len(top.Vetoes) > 0) != tt.vetoed {
				t.Fatalf("lexical %.3f vetoes %v: grey %v vetoed %v, want %v %v", top.Score, top.Vetoes, grey, len(top.Vetoes) > 0, tt.grey, tt.vetoed)
			}
			d := r.Decide(context.Background(), tt.cmd, cands, byID, th)
			if d.Err != nil {
				t.Fatal(d.Err)
			}
			if (d.Promoted >= 0) != tt.promote || (tt.promote && d.Promoted != at) {
				t.Errorf("promoted %d (%s), want %v", d.Promoted, d.Reason, tt.promote)
			}
			if !d.Consulted && s.EmbedCalls() != 0 {
				t.Errorf("%d embedding requests without a grey-zone candidate", s.EmbedCalls())
			}
		})
	}
}

func TestCacheHitMeansNoSecondRequest(t *testing.T) {
	flows := matcherFlows()
	m := intent.NewMatcher(flows)
	byID := map[int64]*knowledge.Flow{}
	for i := range flows {
		byID[flows[i].ID] = &flows[i]
	}
	s := llmtest.NewServer(t, llmtest.WithSynonyms(map[string]string{"number": "id"}))
	st := knowledgetest.Open(t)
	const cmd = "turn on hide caller number"
	cands := m.Rank(cmd, "", 3)

	d1 := semantic.New(client(s, 2*time.Second), st, semantic.Config{}).Decide(context.Background(), cmd, cands, byID, th)
	if d1.Promoted != 0 || d1.Requests != 1 || d1.CacheHits != 0 || s.EmbedCalls() != 1 {
		t.Fatalf("first: %+v, %d calls", d1, s.EmbedCalls())
	}
	if v, err := st.Embedding(context.Background(), "fake-embed", cmd); err != nil || len(v) != llmtest.EmbedDim {
		t.Fatalf("command not cached: %v", err)
	}
	// a new Rescorer (a restarted daemon) over the same store
	d2 := semantic.New(client(s, 2*time.Second), st, semantic.Config{}).Decide(context.Background(), cmd, cands, byID, th)
	if d2.Promoted != 0 || d2.Requests != 0 || d2.CacheHits == 0 || s.EmbedCalls() != 1 {
		t.Fatalf("second: %+v, %d calls", d2, s.EmbedCalls())
	}
	// another model: its own cache entries
	other := client(s, 2*time.Second)
	cfg := other.Config()
	cfg.EmbedModel = "other-embed"
	if d3 := semantic.New(llm.New(cfg), st, semantic.Config{}).Decide(context.Background(), cmd, cands, byID, th); d3.Requests != 1 || s.EmbedCalls() != 2 {
		t.Fatalf("other model: %+v", d3)
	}
}

func TestServerDownLeavesLexicalResult(t *testing.T) {
	flows := matcherFlows()
	m := intent.NewMatcher(flows)
	byID := map[int64]*knowledge.Flow{}
	for i := range flows {
		byID[flows[i].ID] = &flows[i]
	}
	const cmd = "turn on hide caller number"
	cands := m.Rank(cmd, "", 3)
	before := append([]intent.Candidate(nil), cands...)
	for _, tt := range []struct {
		name  string
		setup func(s *llmtest.Server)
	}{
		{"closed", func(s *llmtest.Server) { s.Close() }},
		{"500", func(s *llmtest.Server) { s.EmbedAlways(llmtest.Fault500) }},
		{"hangs", func(s *llmtest.Server) { s.EmbedAlways(llmtest.FaultTimeout) }},
		{"short reply", func(s *llmtest.Server) { s.EmbedAlways(llmtest.FaultShort) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := llmtest.NewServer(t, llmtest.WithKey(testKey), llmtest.WithSynonyms(map[string]string{"number": "id"}))
			tt.setup(s)
			r := semantic.New(client(s, 5*time.Second), knowledgetest.Open(t), semantic.Config{Timeout: 300 * time.Millisecond})
			start := time.Now()
			d := r.Decide(context.Background(), cmd, cands, byID, th)
			if d.Promoted != -1 || d.Err == nil || d.Consulted {
				t.Fatalf("%+v", d)
			}
			if strings.Contains(d.Reason, testKey) || strings.Contains(d.Err.Error(), testKey) {
				t.Errorf("key in %q", d.Reason)
			}
			if el := time.Since(start); el > 3*time.Second {
				t.Errorf("took %s", el)
			}
			for i := range cands {
				if cands[i].Score != before[i].Score || cands[i].FlowID != before[i].FlowID {
					t.Errorf("candidates changed: %+v", cands)
				}
			}
		})
	}
}

// scorer is a fake lexical matcher for retrieval: fixed candidates by
// flow ID.
type scorer map[int64]intent.Candidate

func (s scorer) Score(cmd string, ids []int64) []intent.Candidate {
	var out []intent.Candidate
	for _, id := range ids {
		if c, ok := s[id]; ok {
			out = append(out, c)
		}
	}
	return out
}

// TestDecideRetrieves: with Config.Retrieve, a flow of the pool that the
// lexical candidates lack is scored and decided on like them; without it,
// or beyond Retrieve flows, it is not.
func TestDecideRetrieves(t *testing.T) {
	grey := th - 0.05
	flows := flowsOf("far a", "same b", "near c")
	lex := []intent.Candidate{cand(1, grey)}
	sc := scorer{2: cand(2, grey), 3: cand(3, grey)}
	pool := []int64{1, 2, 3}
	tests := []struct {
		name     string
		retrieve int
		scorer   semantic.Scorer
		want     int64 // flow promoted, 0 none
		cands    int
	}{
		{"retrieval off: only the lexical candidate, too far", 0, sc, 0, 1},
		{"retrieval finds the closest flow", 1, sc, 2, 2},
		{"two retrieved: the closest still wins by the margin", 2, sc, 2, 3},
		{"no scorer: no retrieval", 2, nil, 0, 1},
		{"a retrieved flow the scorer vetoes is not promoted", 1, scorer{2: cand(2, grey, intent.VetoValue)}, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var calls atomic.Int32
			cfg := semantic.MiniLM
			cfg.Retrieve = tt.retrieve
			in := semantic.Input{Cands: lex, Flows: flows, Threshold: th, Pool: pool}
			if tt.scorer != nil {
				in.Scorer = tt.scorer
			}
			d := semantic.New(unit(&calls, vecs), nil, cfg).DecideIn(context.Background(), "cmd please", in)
			var got int64
			if d.Promoted >= 0 {
				got = d.Cands[d.Promoted].FlowID
			}
			if got != tt.want || len(d.Cands) != tt.cands || len(d.Cosine) != len(d.Cands) {
				t.Errorf("promoted flow %d of %d candidates (%s); want %d of %d", got, len(d.Cands), d.Reason, tt.want, tt.cands)
			}
		})
	}
}

// TestDecideSaysWhyBarred: each candidate the grey-zone rule may not
// promote carries why, for the match report.
func TestDecideSaysWhyBarred(t *testing.T) {
	grey := th - 0.05
	var calls atomic.Int32
	r := semantic.New(unit(&calls, vecs), nil, semantic.Config{})
	cands := []intent.Candidate{
		cand(1, grey),
		cand(2, grey, intent.VetoNegation),
		cand(3, th-intent.GreyZone-0.01),
		{FlowID: 4, Score: grey, Missing: []string{"title"}},
		cand(9, grey),
	}
	d := r.Decide(context.Background(), "cmd please", cands, flowsOf("same x", "far y", "far z", "far w"), th)
	want := []string{"", semantic.BarContradicted, semantic.BarLow, semantic.BarMissing, semantic.BarGone}
	if !slices.Equal(d.Barred, want) || d.Promoted != 0 {
		t.Fatalf("barred %q, promoted %d; want %q, 0", d.Barred, d.Promoted, want)
	}
}
