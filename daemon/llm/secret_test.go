package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
)

// TestKeyNeverPrinted checks every way a Config or Client can be printed.
func TestKeyNeverPrinted(t *testing.T) {
	cfg := llm.DefaultConfig()
	cfg.BaseURL = "https://user:" + testKey + "@api.example.com/v1"
	cfg.Model = "m"
	cfg.APIKey = testKey
	c := llm.New(cfg)

	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x", "%T %v"} {
		outs = append(outs, fmt.Sprintf(verb, cfg), fmt.Sprintf(verb, &cfg), fmt.Sprintf(verb, c))
		outs = append(outs, fmt.Sprintf(verb, struct{ C llm.Config }{cfg}))
	}
	outs = append(outs, cfg.String(), cfg.Redacted(), cfg.GoString(), fmt.Sprint([]llm.Config{cfg}), fmt.Sprintf("%+v", map[string]any{"c": cfg}))
	j, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	outs = append(outs, string(j))
	var logBuf bytes.Buffer
	slog.New(slog.NewJSONHandler(&logBuf, nil)).Info("config", "cfg", cfg)
	slog.New(slog.NewTextHandler(&logBuf, nil)).Info("config", "cfg", cfg)
	outs = append(outs, logBuf.String())

	for _, o := range outs {
		if strings.Contains(o, testKey) || strings.Contains(o, testKey[3:]) {
			t.Errorf("key printed: %s", o)
		}
	}
	if !strings.Contains(cfg.Redacted(), "key=sk-…(redacted)") || !strings.Contains(string(j), `"api_key":"sk-…(redacted)"`) {
		t.Errorf("redacted forms: %s / %s", cfg.Redacted(), j)
	}
	if !strings.Contains(cfg.Redacted(), "https://redacted@api.example.com/v1") {
		t.Errorf("URL user info not redacted: %s", cfg.Redacted())
	}
}

// echoServer answers every request with the given status and an error
// message that echoes the Authorization header, as a careless proxy might.
func echoServer(t *testing.T, statuses ...int) *httptest.Server {
	var mu sync.Mutex
	i := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		st := statuses[min(i, len(statuses)-1)]
		i++
		mu.Unlock()
		auth := r.Header.Get("Authorization")
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(st)
		if st == http.StatusBadGateway {
			fmt.Fprintf(w, "<html>bad gateway for %s</html>", auth) // not JSON: *openai.RequestError
			return
		}
		fmt.Fprintf(w, `{"error":{"message":"rejected %s","type":"x","param":%q,"code":%q}}`, auth, auth, auth)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestKeyNeverInErrorsOrLogs(t *testing.T) {
	tests := []struct {
		name     string
		statuses []int
	}{
		{"401 echoing the key", []int{401}},
		{"429s echoing the key", []int{429, 429, 429, 429}},
		{"500s echoing the key", []int{500}},
		{"non-JSON 502 echoing the key", []int{502}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := echoServer(t, tt.statuses...)
			var logBuf bytes.Buffer
			var mu sync.Mutex
			c := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "m", APIKey: testKey, BackoffBase: time.Millisecond,
				Timeout: 2 * time.Second, JSONMode: true, Logger: newTestLogger(&logBuf, &mu)})

			_, err := c.Chat(context.Background(), userMsg("hi"))
			if err == nil {
				t.Fatal("no error")
			}
			_, _, err2 := llm.CompleteJSON[llm.NextAction](context.Background(), c, userMsg("hi"), nil)

			texts := []string{fmt.Sprint(err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), fmt.Sprint(err2)}
			for _, e := range []error{err, err2} {
				for u := e; u != nil; u = errors.Unwrap(u) {
					texts = append(texts, u.Error(), fmt.Sprintf("%+v", u))
				}
				var le *llm.Error
				if errors.As(e, &le) && le.Err != nil {
					texts = append(texts, le.Err.Error())
				}
			}
			mu.Lock()
			texts = append(texts, logBuf.String())
			mu.Unlock()
			for _, s := range texts {
				if strings.Contains(s, testKey) {
					t.Errorf("key leaked: %s", s)
				}
			}
			// The server really did echo it: the redaction is what hid it.
			if !strings.Contains(err.Error(), "Bearer (redacted)") {
				t.Errorf("error %q does not show the redacted echo", err)
			}
		})
	}
}
