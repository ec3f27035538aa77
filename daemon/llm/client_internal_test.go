package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		ra, raMS string
		want     time.Duration
		ok       bool
	}{
		{"", "", 0, false},
		{"0", "", 0, true},
		{"3", "", 3 * time.Second, true},
		{" 7 ", "", 7 * time.Second, true},
		{"-1", "", 0, false},
		{"soon", "", 0, false},
		{now.Add(90 * time.Second).Format(http.TimeFormat), "", 90 * time.Second, true},
		{now.Add(-time.Hour).Format(http.TimeFormat), "", 0, true},
		{"5", "250", 250 * time.Millisecond, true},
		{"", "1.5", 1500 * time.Microsecond, true},
		{"2", "x", 2 * time.Second, true},
		{"99999999999999", "", 1_000_000 * time.Second, true},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.ra, tt.raMS, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q, %q) = %s, %t; want %s, %t", tt.ra, tt.raMS, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoffBounds(t *testing.T) {
	c := New(Config{BackoffBase: 100 * time.Millisecond})
	for n := 0; n < 12; n++ {
		step := min(100*time.Millisecond<<n, MaxBackoff)
		for range 50 {
			d := c.backoff(n)
			if d < step/2 || d > step {
				t.Fatalf("backoff(%d) = %s, want in [%s, %s]", n, d, step/2, step)
			}
		}
	}
}

func TestRetryable(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&openai.APIError{HTTPStatusCode: 429}, true},
		{&openai.APIError{HTTPStatusCode: 500}, true},
		{&openai.APIError{HTTPStatusCode: 503}, true},
		{&openai.RequestError{HTTPStatusCode: 502}, true},
		{&openai.APIError{HTTPStatusCode: 400}, false},
		{&openai.APIError{HTTPStatusCode: 401}, false},
		{&openai.APIError{HTTPStatusCode: 404}, false},
		{&url.Error{Op: "Post", URL: "http://x", Err: &net.OpError{Op: "dial", Err: errors.New("connection refused")}}, true},
		{&url.Error{Op: "Post", URL: "http://x", Err: io.EOF}, true},
		{&url.Error{Op: "Post", URL: "x", Err: errors.New("unsupported protocol scheme \"\"")}, false},
		{fmt.Errorf("decode: %w", io.ErrUnexpectedEOF), true},
		{errors.New("invalid character '<' looking for beginning of value"), false},
		{context.Canceled, false},
	}
	for _, tt := range tests {
		if got := retryable(tt.err, statusOf(tt.err)); got != tt.want {
			t.Errorf("retryable(%v) = %t, want %t", tt.err, got, tt.want)
		}
	}
}

func TestSanitizeErrKeepsSentinels(t *testing.T) {
	const key = "sk-secret-0123456789abcdef"
	err := fmt.Errorf("post with %s: %w", key, context.DeadlineExceeded)
	got := sanitizeErr(err, key)
	if !errors.Is(got, context.DeadlineExceeded) || got.Error() != "post with (redacted): context deadline exceeded" {
		t.Errorf("sanitizeErr = %q", got)
	}
	clean := errors.New("no secret")
	if sanitizeErr(clean, key) != clean {
		t.Error("clean error replaced")
	}
	if sanitizeErr(clean, "") != clean || sanitizeErr(nil, key) != nil {
		t.Error("empty key / nil error")
	}
}
