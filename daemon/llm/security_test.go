package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

// hugeReplyServer answers every chat request with a well-formed reply
// whose content is size bytes long, streamed without holding it in
// memory.
func hugeReplyServer(t testing.TB, size int) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"x","object":"chat.completion","model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"`)
		chunk := []byte(strings.Repeat("a", 64<<10))
		for n := 0; n < size; n += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return // the client hung up: the cap worked
			}
		}
		fmt.Fprint(w, `"}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestSecurityReplyCap (issue 10, item 4): a reply over MaxReplyBytes is
// cut off with ErrReplyTooLarge, not read into memory, and not retried.
func TestSecurityReplyCap(t *testing.T) {
	for _, tt := range []struct {
		name string
		size int
		fail bool
	}{
		{"small", 1 << 10, false},
		{"half the cap", llm.MaxReplyBytes / 2, false},
		{"over the cap", llm.MaxReplyBytes + 1, true},
		{"200 MB", 200 << 20, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := hugeReplyServer(t, tt.size)
			c := newClient(t, nil, func(cfg *llm.Config) { cfg.BaseURL = srv.URL + "/v1"; cfg.Timeout = 20 * time.Second })
			_, err := c.Chat(context.Background(), userMsg("hi"))
			if !tt.fail {
				if err != nil {
					t.Fatalf("reply of %d bytes: %v", tt.size, err)
				}
				return
			}
			if !errors.Is(err, llm.ErrReplyTooLarge) {
				t.Fatalf("reply of %d bytes: err %v, want ErrReplyTooLarge", tt.size, err)
			}
		})
	}
}

// BenchmarkOversizedReply measures what a 200 MB reply costs the client
// (B/op): with the cap it is bounded by MaxReplyBytes, not the reply.
func BenchmarkOversizedReply(b *testing.B) {
	srv := hugeReplyServer(b, 200<<20)
	c := newClient(b, nil, func(cfg *llm.Config) { cfg.BaseURL = srv.URL + "/v1"; cfg.Timeout = 20 * time.Second })
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Chat(context.Background(), userMsg("hi")); !errors.Is(err, llm.ErrReplyTooLarge) {
			b.Fatalf("err %v", err)
		}
	}
}

var _ = llmtest.Text
