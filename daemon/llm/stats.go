package llm

import "fmt"

// Stats describes how a client's chat calls and structured requests went
// since New: the numbers an evaluation of a model reports (JSON-valid
// rate, repairs, prompt size, latency, timeouts). Tokens are the server's
// usage counts; times are wall-clock milliseconds measured by the client.
type Stats struct {
	// Requests counts CompleteJSON calls whose first chat call was answered.
	Requests int `json:"requests"`
	// ValidFirst counts Requests whose first reply was valid (schema and check).
	ValidFirst int `json:"valid_first"`
	// Repairs counts repair calls made; Repaired those whose reply was
	// valid, Invalid those whose reply was still invalid.
	Repairs  int `json:"repairs"`
	Repaired int `json:"repaired"`
	Invalid  int `json:"invalid"`

	// Chats counts answered chat calls (first and repair calls alike);
	// Failed counts chat calls that ended in an error, Timeouts those
	// among them that ran past Config.Timeout.
	Chats    int `json:"chats"`
	Failed   int `json:"failed"`
	Timeouts int `json:"timeouts"`
	// Truncated counts answers cut off at Config.MaxTokens
	// (finish_reason "length").
	Truncated int `json:"truncated"`

	// PromptTokens and CompletionTokens sum the answered chats' usage;
	// MaxPromptTokens is the largest whole prompt of one chat call.
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	MaxPromptTokens  int `json:"max_prompt_tokens"`
	// ChatMS sums the wall time of answered chat calls; MaxChatMS is the
	// longest one.
	ChatMS    int64 `json:"chat_ms"`
	MaxChatMS int64 `json:"max_chat_ms"`
	// FailedMS sums the wall time of failed chat calls (timeouts included).
	FailedMS int64 `json:"failed_ms"`

	// Format is the response format the client sends now (see Format); it
	// moves down when the endpoint refuses one.
	Format string `json:"format"`
}

// ValidFirstRate is ValidFirst/Requests (0 with no requests): the share of
// first replies that were usable without a repair.
func (s Stats) ValidFirstRate() float64 { return ratio(s.ValidFirst, s.Requests) }

// ValidRate is (ValidFirst+Repaired)/Requests: usable after at most one repair.
func (s Stats) ValidRate() float64 { return ratio(s.ValidFirst+s.Repaired, s.Requests) }

// MeanPromptTokens is PromptTokens/Chats.
func (s Stats) MeanPromptTokens() float64 { return ratio(s.PromptTokens, s.Chats) }

// MeanChatMS is ChatMS/Chats.
func (s Stats) MeanChatMS() float64 {
	if s.Chats == 0 {
		return 0
	}
	return float64(s.ChatMS) / float64(s.Chats)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Stats returns the client's statistics since New.
func (c *Client) Stats() Stats {
	if c == nil {
		return Stats{}
	}
	c.mu.Lock()
	s := c.stats
	c.mu.Unlock()
	s.Format = c.format().String()
	return s
}

func (c *Client) recordChat(r Reply, e *Error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &c.stats
	if e != nil {
		s.FailedMS += r.Duration.Milliseconds()
		s.Failed++
		if e.Timeout {
			s.Timeouts++
		}
		return
	}
	s.Chats++
	if r.FinishReason == "length" {
		s.Truncated++
	}
	s.PromptTokens += r.PromptTokens
	s.CompletionTokens += r.CompletionTokens
	s.MaxPromptTokens = max(s.MaxPromptTokens, r.PromptTokens)
	ms := r.Duration.Milliseconds()
	s.ChatMS += ms
	s.MaxChatMS = max(s.MaxChatMS, ms)
}

// requestOutcome is how one CompleteJSON call ended, for Stats.
type requestOutcome int

const (
	outcomeValidFirst requestOutcome = iota
	outcomeRepaired
	outcomeInvalid
	outcomeRepairFailed // the repair call itself failed (transport)
)

func (c *Client) recordRequest(o requestOutcome) {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := &c.stats
	s.Requests++
	switch o {
	case outcomeValidFirst:
		s.ValidFirst++
	case outcomeRepaired:
		s.Repairs++
		s.Repaired++
	case outcomeInvalid:
		s.Repairs++
		s.Invalid++
	case outcomeRepairFailed:
		s.Repairs++
	}
}

// String is a one-line summary for command-line reports, e.g.
//
//	12 requests: valid first try 9 (75%), after repair 11 (92%); 3 repairs, 1 timeout, 0 other failures, 2 cut at max_tokens; prompt 640 tokens per call (max 910); 2.1 s per call (max 4.0 s); format json_object+schema
func (s Stats) String() string {
	return fmt.Sprintf("%d requests: valid first try %d (%.0f%%), after repair %d (%.0f%%); %d repairs, %d %s, %d other failures, %d cut at max_tokens; prompt %.0f tokens per call (max %d); %.1f s per call (max %.1f s); format %s",
		s.Requests, s.ValidFirst, 100*s.ValidFirstRate(), s.ValidFirst+s.Repaired, 100*s.ValidRate(),
		s.Repairs, s.Timeouts, plural(s.Timeouts, "timeout", "timeouts"), s.Failed-s.Timeouts, s.Truncated,
		s.MeanPromptTokens(), s.MaxPromptTokens, s.MeanChatMS()/1000, float64(s.MaxChatMS)/1000, s.Format)
}
