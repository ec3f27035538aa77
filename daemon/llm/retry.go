package llm

// Sending a request to the endpoint: retries with backoff or the
// server's Retry-After within the call's deadline, the errors a failed
// call returns, and the HTTP plumbing that reads the Retry-After header
// and caps a reply's body. The requests themselves are client.go's.

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// send runs attempt until it succeeds, within Config.Timeout and ctx: it
// re-sends after 429, 5xx and transient network errors with backoff (or
// the server's Retry-After) up to Config.MaxRetries times, and gives up
// at once when a wait would pass the deadline. again, when set, may ask
// for an immediate re-send of a failed attempt (counted as a retry).
// *retries counts the re-sent requests. The error is nil on success.
func (c *Client) send(ctx context.Context, op string, retries *int, attempt func(ctx context.Context) error, again func(err error, status int) bool) *Error {
	callCtx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	// stopped reports why the call ended when a context is done.
	stopped := func(status int) *Error {
		if ctx.Err() != nil {
			e := c.fail(op, *retries, status, ctx.Err(), "canceled", "")
			e.Canceled = true
			return e
		}
		e := c.fail(op, *retries, status, callCtx.Err(), "timeout "+c.cfg.Timeout.String(), "")
		e.Timeout = true
		return e
	}
	for {
		hdr := &capturedHeader{}
		err := attempt(context.WithValue(callCtx, captureKey{}, hdr))
		if err == nil {
			return nil
		}
		status := statusOf(err)
		if callCtx.Err() != nil {
			return stopped(status)
		}
		if again != nil && again(err, status) {
			c.logRetry(op, *retries+1, status, 0, err)
			*retries++
			c.count(Usage{Retries: 1})
			continue
		}
		what := "network error"
		if errors.Is(err, ErrReplyTooLarge) {
			what = "reply too large"
		}
		if status != 0 {
			what = "status " + strconv.Itoa(status)
		}
		if !retryable(err, status) || *retries >= c.cfg.MaxRetries {
			return c.fail(op, *retries, status, err, what, "")
		}
		wait := c.backoff(*retries)
		if ra, ok := hdr.retryAfter(time.Now()); ok {
			wait = ra
		}
		if dl, ok := callCtx.Deadline(); ok && time.Until(dl) < wait {
			return c.fail(op, *retries, status, err, what, fmt.Sprintf("next retry in %s would pass the %s deadline: %s",
				wait.Round(time.Millisecond), c.cfg.Timeout, c.Redact(errDetail(err))))
		}
		c.logRetry(op, *retries+1, status, wait, err)
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-callCtx.Done():
				t.Stop()
				return stopped(status)
			}
		}
		*retries++
		c.count(Usage{Retries: 1})
	}
}

// fail builds the *Error for the current attempt; detail defaults to the
// redacted cause text.
func (c *Client) fail(op string, retries, status int, err error, what, detail string) *Error {
	if err == nil {
		err = errors.New(detail)
	}
	if detail == "" {
		detail = c.Redact(errDetail(err))
	}
	return &Error{StatusCode: status, Retries: retries, Err: sanitizeErr(err, c.cfg.APIKey), op: op, what: what, detail: detail}
}

func (c *Client) logRetry(op string, n, status int, wait time.Duration, err error) {
	if c.cfg.Logger == nil {
		return
	}
	msg := "llm: retrying chat completion"
	if op == opEmbed {
		msg = "llm: retrying embeddings"
	}
	c.cfg.Logger.Warn(msg,
		slog.Int("retry", n), slog.Int("max_retries", c.cfg.MaxRetries), slog.Int("status", status),
		slog.Duration("wait", wait), slog.String("err", c.Redact(errDetail(err))))
}

// backoff returns the wait before retry n (0-based): BackoffBase·2ⁿ capped
// at MaxBackoff, with equal jitter (half fixed, half uniform random).
func (c *Client) backoff(n int) time.Duration {
	d := c.cfg.BackoffBase
	for i := 0; i < n && d < MaxBackoff; i++ {
		d *= 2
	}
	d = min(d, MaxBackoff)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

// statusOf returns the HTTP status carried by a go-openai error, else 0.
func statusOf(err error) int {
	var ae *openai.APIError
	if errors.As(err, &ae) {
		return ae.HTTPStatusCode
	}
	var re *openai.RequestError
	if errors.As(err, &re) {
		return re.HTTPStatusCode
	}
	return 0
}

// errDetail is the most useful text of a go-openai error: the API message,
// or the start of a non-JSON error body.
func errDetail(err error) string {
	var ae *openai.APIError
	if errors.As(err, &ae) && ae.Message != "" {
		return ae.Message
	}
	var re *openai.RequestError
	if errors.As(err, &re) {
		body := strings.TrimSpace(string(re.Body))
		if len(body) > 300 {
			body = body[:300] + "…"
		}
		if body != "" {
			return body
		}
		if re.Err != nil {
			return re.Err.Error()
		}
		return re.HTTPStatus
	}
	return err.Error()
}

// retryable classifies a failed attempt: 429 and 5xx statuses, and network
// errors other than TLS certificate failures and malformed URLs.
func retryable(err error, status int) bool {
	if status != 0 {
		return status == http.StatusTooManyRequests || status >= 500
	}
	var certErr *tls.CertificateVerificationError
	if errors.As(err, &certErr) {
		return false
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		msg := ue.Err.Error()
		return !strings.Contains(msg, "unsupported protocol scheme") && !strings.Contains(msg, "no Host in request URL")
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// captureKey carries a *capturedHeader in a request context so the HTTP
// doer (captureDoer, which also applies a request's bodyPatch) can hand
// back the response headers go-openai does not expose on errors.
type captureKey struct{}

type capturedHeader struct{ h http.Header }

type captureDoer struct{ inner openai.HTTPDoer }

func (d captureDoer) Do(req *http.Request) (*http.Response, error) {
	if err := patchBody(req); err != nil {
		return nil, err
	}
	resp, err := d.inner.Do(req)
	if resp != nil {
		if c, ok := req.Context().Value(captureKey{}).(*capturedHeader); ok {
			c.h = resp.Header.Clone()
		}
		resp.Body = &cappedBody{rc: resp.Body, left: MaxReplyBytes}
	}
	return resp, err
}

// MaxReplyBytes caps the bytes read of one endpoint response (256 KiB):
// a chat reply is a few hundred bytes of JSON and an embedding batch tens
// of kilobytes, so anything larger is a fault or an attack and is cut off
// with ErrReplyTooLarge instead of being held in memory.
const MaxReplyBytes = 256 << 10

// ErrReplyTooLarge: the endpoint sent more than MaxReplyBytes.
var ErrReplyTooLarge = fmt.Errorf("llm: reply larger than %d bytes", MaxReplyBytes)

// cappedBody reads at most left bytes of rc, then fails with
// ErrReplyTooLarge.
type cappedBody struct {
	rc   io.ReadCloser
	left int64
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// one byte more tells a body of exactly the cap from a longer one
		var one [1]byte
		if n, _ := b.rc.Read(one[:]); n > 0 {
			return 0, ErrReplyTooLarge
		}
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *cappedBody) Close() error { return b.rc.Close() }

// retryAfter parses Retry-After (delay-seconds or an HTTP date, RFC 9110
// §10.2.3) or the non-standard retry-after-ms some OpenAI-compatible
// servers send.
func (c *capturedHeader) retryAfter(now time.Time) (time.Duration, bool) {
	if c == nil || c.h == nil {
		return 0, false
	}
	return parseRetryAfter(c.h.Get("Retry-After"), c.h.Get("Retry-After-Ms"), now)
}

func parseRetryAfter(ra, raMS string, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(raMS); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 && ms < 1e9 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(ra)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, 1_000_000)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}
