//go:build !wayfinder_release

package inspect_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coder/websocket"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
)

func TestAuth(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	tests := []struct {
		name   string
		query  string
		header http.Header
		want   int
	}{
		{"no token", "", nil, http.StatusUnauthorized},
		{"wrong token", "?token=" + strings.Repeat("0", 64), nil, http.StatusUnauthorized},
		{"token prefix", "?token=" + testToken[:32], nil, http.StatusUnauthorized},
		{"wrong bearer", "", http.Header{"Authorization": {"Bearer nope-nope-nope-nope"}}, http.StatusUnauthorized},
		{"basic auth", "", http.Header{"Authorization": {"Basic " + testToken}}, http.StatusUnauthorized},
		{"query token", "?token=" + testToken, nil, http.StatusSwitchingProtocols},
		{"bearer token", "", http.Header{"Authorization": {"Bearer " + testToken}}, http.StatusSwitchingProtocols},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := testCtx(t)
			c, resp, err := websocket.Dial(ctx, h.ws+tt.query, &websocket.DialOptions{HTTPHeader: tt.header})
			if resp == nil {
				t.Fatalf("no response: %v", err)
			}
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d (err %v)", resp.StatusCode, tt.want, err)
			}
			if tt.want == http.StatusSwitchingProtocols {
				readHello(t, ctx, c)
				c.Close(websocket.StatusNormalClosure, "")
			}
		})
	}
	if !h.logs.contains("missing or wrong token") {
		t.Errorf("refusals not logged:\n%s", h.logs)
	}
	if strings.Contains(h.logs.String(), testToken) {
		t.Errorf("the token leaked into the log:\n%s", h.logs)
	}
}

func TestOrigin(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	u, _ := url.Parse(h.ts.URL)
	port := u.Port()
	tests := []struct {
		origin string
		want   int
	}{
		{"", http.StatusSwitchingProtocols}, // non-browser client
		{"http://127.0.0.1:" + port, http.StatusSwitchingProtocols},
		{"http://localhost:" + port, http.StatusSwitchingProtocols},
		{"http://[::1]:" + port, http.StatusSwitchingProtocols},
		{"http://[::2]:" + port, http.StatusForbidden},
		{"http://1:" + port, http.StatusForbidden},
		{"http://evil.example", http.StatusForbidden},
		{"https://evil.example:" + port, http.StatusForbidden},
		{"http://localhost:1", http.StatusForbidden}, // another local server's page
		{"http://127.0.0.1.evil.example:" + port, http.StatusForbidden},
		{"null", http.StatusForbidden}, // file:// pages
	}
	for _, tt := range tests {
		t.Run(tt.origin, func(t *testing.T) {
			ctx := testCtx(t)
			hdr := http.Header{}
			if tt.origin != "" {
				hdr.Set("Origin", tt.origin)
			}
			c, resp, err := websocket.Dial(ctx, h.ws+"?token="+testToken, &websocket.DialOptions{HTTPHeader: hdr})
			if resp == nil {
				t.Fatalf("no response: %v", err)
			}
			if resp.StatusCode != tt.want {
				t.Fatalf("status %d, want %d (err %v)", resp.StatusCode, tt.want, err)
			}
			if c != nil {
				readHello(t, ctx, c)
				c.CloseNow()
			}
		})
	}
}

// A page of a foreign name that resolves to 127.0.0.1 (DNS rebinding)
// sends its own Host: refused on every route.
func TestForeignHost(t *testing.T) {
	h := start(t, &fakeController{}, inspect.Options{})
	for _, path := range []string{"/", "/ws?token=" + testToken, "/api/flows?token=" + testToken} {
		req, _ := http.NewRequest("GET", h.ts.URL+path, nil)
		req.Host = "rebind.evil.example"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("GET %s with Host %s: status %d, want 403", strings.Split(path, "?")[0], req.Host, resp.StatusCode)
		}
	}
}
