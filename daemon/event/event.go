// Package event defines the progress events the agent emits while it runs
// a command — what it saw, what it asked, what it chose and why, what it
// cost — and the Bus that fans them out to subscribers (the CLI printer,
// the debugging websocket, the Android UI through the bridge). Publishing
// never blocks: a subscriber that falls behind its bounded buffer is
// dropped and told why. Events never carry secrets: prompts are redacted
// before they are published.
package event

import (
	"encoding/json"
	"sync"
	"time"
	"unicode/utf8"
)

// Event types, in the order a run emits them.
const (
	RunStarted   = "run_started"   // RunInfo
	AppChosen    = "app_chosen"    // AppInfo
	FlowMatched  = "flow_matched"  // FlowMatch
	Snapshot     = "snapshot"      // ScreenInfo
	Prompt       = "prompt"        // PromptInfo (redacted)
	LLMReply     = "llm_reply"     // ReplyInfo
	Chosen       = "chosen"        // ActionInfo without a result: the choice, before the device acts
	Action       = "action"        // ActionInfo: the action performed, why, and its result
	Ask          = "ask"           // AskInfo: the agent needs the user
	FlowSaved    = "flow_saved"    // FlowInfo
	FlowRepaired = "flow_repaired" // FlowInfo
	RunFinished  = "run_finished"  // RunResult
	Log          = "log"           // LogInfo
	Dropped      = "dropped"       // sent to a subscriber just before it is closed for lagging
)

// Event is one progress event. Seq increases by one per event on a Bus;
// Time is the wall clock in ms since the Unix epoch.
type Event struct {
	Seq   int64           `json:"seq"`
	Time  int64           `json:"time_ms"`
	RunID string          `json:"run_id,omitempty"`
	Type  string          `json:"type"`
	Data  json.RawMessage `json:"data,omitempty"`
}

// RunInfo starts a run.
type RunInfo struct {
	Command string `json:"command"`
	Planner string `json:"planner"` // graph | llm | oracle | none
}

// AppInfo says which app the agent will operate and why.
type AppInfo struct {
	Package string  `json:"package"`
	Label   string  `json:"label,omitempty"`
	Score   float64 `json:"score"`
	Reason  string  `json:"reason,omitempty"`
}

// FlowMatch says which saved flow fits the command (or that none does).
type FlowMatch struct {
	FlowID    int64             `json:"flow_id,omitempty"`
	Name      string            `json:"name,omitempty"`
	Score     float64           `json:"score"`
	Threshold float64           `json:"threshold"`
	Slots     map[string]string `json:"slots,omitempty"`
	Replay    bool              `json:"replay"`
	// Semantic is set when embeddings were asked about the candidates
	// (daemon/semantic): only when no flow reached the threshold.
	Semantic *SemanticMatch `json:"semantic,omitempty"`
	// Anchor is what the command named that made the flow replay below
	// the threshold (daemon's anchors): an option of one of its option
	// groups (`{palette} = "deep blue"`, `step 2 = "weekly"`) or the switch it
	// sets (`switch "Show page count"`); "" otherwise.
	Anchor string `json:"anchor,omitempty"`
}

// SemanticMatch is what the embedding check of a flow match found.
type SemanticMatch struct {
	Model     string  `json:"model"`
	Cosine    float64 `json:"cosine,omitempty"` // of the flow named in FlowMatch, when computed
	Promoted  bool    `json:"promoted"`         // the flow is replayed on the embeddings' word
	Requests  int     `json:"requests"`         // embedding requests sent (0: all from the cache)
	CacheHits int     `json:"cache_hits"`
	Reason    string  `json:"reason"`
	Offline   bool    `json:"offline,omitempty"` // the endpoint failed or is cooling down: lexical only
	// Chosen: no flow was close enough to replay on its own, the owner
	// was offered the closest and chose this one.
	Chosen bool `json:"chosen,omitempty"`
	// Candidates are the flows compared, highest cosine first (at most 5).
	Candidates []SemanticCandidate `json:"candidates,omitempty"`
	// RouteCheck says, per flow walked by the route checker
	// (daemon/routecheck.go) and not confirmed, why ("flow 7: step 2: …").
	RouteCheck []string `json:"route_check,omitempty"`
}

// SemanticCandidate is one flow compared by meaning: its lexical score,
// its cosine with the command (-1: not compared, the command contradicts
// it) and the lexical rules that vetoed it.
type SemanticCandidate struct {
	FlowID  int64    `json:"flow_id"`
	Lexical float64  `json:"lexical"`
	Cosine  float64  `json:"cosine"`
	Vetoes  []string `json:"vetoes,omitempty"`
	Missing []string `json:"missing,omitempty"`
	// Unmatched are the command's words no word of the flow stands for,
	// FlowUnmatched the flow's words without a partner in the command.
	Unmatched     []string `json:"unmatched,omitempty"`
	FlowUnmatched []string `json:"flow_unmatched,omitempty"`
	// Slots are the slot values taken from the command.
	Slots map[string]string `json:"slots,omitempty"`
	// Substituted: an object word of the flow is replaced by another.
	Substituted bool `json:"substituted,omitempty"`
	// Barred says why embeddings may not promote the flow ("" when they
	// may, or when the rule did not run).
	Barred string `json:"barred,omitempty"`
}

// ScreenElement is one element as drawn by the inspector.
type ScreenElement struct {
	Index  int    `json:"index"`
	Kind   string `json:"kind"`
	Label  string `json:"label,omitempty"`
	Bounds [4]int `json:"bounds"` // px [left, top, right, bottom]
}

// ScreenInfo describes a captured screen.
type ScreenInfo struct {
	Step        int             `json:"step"`
	Fingerprint string          `json:"fingerprint"`
	Activity    string          `json:"activity,omitempty"`
	Package     string          `json:"package,omitempty"`
	Width       int             `json:"width"`
	Height      int             `json:"height"`
	Elements    []ScreenElement `json:"elements"`
	CaptureMS   int64           `json:"capture_ms"`
}

// PromptInfo is a rendered prompt, with keys and password fields redacted.
type PromptInfo struct {
	Step int    `json:"step"`
	Kind string `json:"kind"` // next_action | check | repair | describe
	Text string `json:"text"`
}

// ReplyInfo is the LLM's reply to a prompt.
type ReplyInfo struct {
	Step             int    `json:"step"`
	Text             string `json:"text"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	MS               int64  `json:"ms"`
	Error            string `json:"error,omitempty"`
}

// ActionInfo is a chosen (and, for Action events, performed) action. Step
// numbers count from 1 in every event.
type ActionInfo struct {
	Step    int    `json:"step"`
	Mode    string `json:"mode"` // replay | graph | llm | oracle | recovery | backtrack
	Action  string `json:"action"`
	Element int    `json:"element"` // element index on the screen, -1 for none
	Label   string `json:"label,omitempty"`
	Text    string `json:"text,omitempty"`
	Reason  string `json:"reason,omitempty"`
	OK      bool   `json:"ok"`
	Changed bool   `json:"changed"`
	Message string `json:"message,omitempty"`
	MS      int64  `json:"ms"`     // decide + act
	Tokens  int    `json:"tokens"` // spent on this step
}

// AskInfo asks the user to confirm or clarify.
type AskInfo struct {
	Question string   `json:"question"`
	Options  []string `json:"options,omitempty"`
}

// FlowInfo names a saved or repaired flow.
type FlowInfo struct {
	FlowID int64    `json:"flow_id"`
	Name   string   `json:"name"`
	Intent string   `json:"intent"`
	Steps  int      `json:"steps"`
	Slots  []string `json:"slots,omitempty"`
}

// RunResult ends a run.
type RunResult struct {
	Outcome   string `json:"outcome"` // success | failure | error | cancelled
	Error     string `json:"error,omitempty"`
	Mode      string `json:"mode"`
	Steps     int    `json:"steps"`
	LLMCalls  int    `json:"llm_calls"`
	Tokens    int    `json:"tokens"`
	MS        int64  `json:"ms"`
	CacheHits int    `json:"cache_hits"` // steps served from a saved flow or known route
	FlowID    int64  `json:"flow_id,omitempty"`
}

// LogInfo is a free-form line.
type LogInfo struct {
	Level string `json:"level"`
	Text  string `json:"text"`
}

// Bus fans events out to subscribers. The zero value is not usable; call
// NewBus. Safe for concurrent use.
type Bus struct {
	mu   sync.Mutex
	seq  int64
	subs map[*Sub]struct{}
	now  func() time.Time
}

// NewBus returns an empty bus.
func NewBus() *Bus { return &Bus{subs: map[*Sub]struct{}{}, now: time.Now} }

// Sub is a subscription. Read events from C; C is closed after
// Unsubscribe or when the subscriber lagged (then Lagged reports true and
// the last event on C is of type Dropped).
type Sub struct {
	C      <-chan Event
	c      chan Event
	lagged bool
	closed bool
}

// Lagged reports whether the subscription was dropped for falling behind.
func (s *Sub) Lagged() bool { return s.lagged }

// Subscribe registers a subscriber with a buffer of n events (n >= 2).
func (b *Bus) Subscribe(n int) *Sub {
	n = max(n, 2)
	c := make(chan Event, n)
	s := &Sub{C: c, c: c}
	b.mu.Lock()
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	return s
}

// Unsubscribe removes s and closes its channel. Idempotent.
func (b *Bus) Unsubscribe(s *Sub) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.closeLocked(s)
}

func (b *Bus) closeLocked(s *Sub) {
	if s.closed {
		return
	}
	s.closed = true
	delete(b.subs, s)
	close(s.c)
}

// Publish sends an event of type typ with data (marshalled to JSON) to
// every subscriber without blocking, and returns it. A subscriber whose
// buffer has one free slot left gets a Dropped event and is closed.
func (b *Bus) Publish(runID, typ string, data any) Event {
	raw, err := json.Marshal(data)
	if err != nil {
		raw, _ = json.Marshal(LogInfo{Level: "error", Text: "event: " + err.Error()})
	}
	if data == nil {
		raw = nil
	}
	raw = capData(raw)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.seq++
	ev := Event{Seq: b.seq, Time: b.now().UnixMilli(), RunID: runID, Type: typ, Data: raw}
	for s := range b.subs {
		if len(s.c) >= cap(s.c)-1 {
			s.lagged = true
			msg, _ := json.Marshal(LogInfo{Level: "warn", Text: "subscriber dropped: it fell behind by more than its buffer"})
			s.c <- Event{Seq: ev.Seq, Time: ev.Time, RunID: runID, Type: Dropped, Data: msg}
			b.closeLocked(s)
			continue
		}
		s.c <- ev
	}
	return ev
}

// MaxDataBytes caps the JSON data of one event (64 KiB): a screen or a
// prompt is a few kilobytes, so a larger payload (a runaway model reply,
// a hostile screen) is replaced by a Truncated marker before any
// subscriber, history or websocket client holds it.
const MaxDataBytes = 64 << 10

// Truncated is the data of an event whose payload exceeded MaxDataBytes.
type Truncated struct {
	Truncated bool   `json:"truncated"` // always true
	Bytes     int    `json:"bytes"`     // size of the payload that was cut
	Preview   string `json:"preview"`   // its first 1 KiB, as text
}

// capData returns raw, or a Truncated marker when raw is too large.
func capData(raw json.RawMessage) json.RawMessage {
	if len(raw) <= MaxDataBytes {
		return raw
	}
	preview := []rune(string(raw[:1024]))
	if len(preview) > 0 && preview[len(preview)-1] == utf8.RuneError {
		preview = preview[:len(preview)-1]
	}
	out, _ := json.Marshal(Truncated{Truncated: true, Bytes: len(raw), Preview: string(preview) + "…"})
	return out
}

// Subscribers returns the number of live subscriptions.
func (b *Bus) Subscribers() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.subs)
}
