package llm

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrNoJSON is wrapped by ExtractJSON when a reply holds no JSON value.
var ErrNoJSON = errors.New("reply is not JSON")

// ExtractJSON returns the JSON text inside a model reply, tolerating what
// local models commonly add around it:
//
//   - a UTF-8 byte order mark and surrounding whitespace;
//   - reasoning blocks <think>…</think> (DeepSeek-R1, Qwen3 via Ollama);
//     an unclosed <think> means the reply holds no answer;
//   - Markdown code fences (when the text does not already start with
//     '{' or '['): the first fenced block (```json, ```JSON or
//     plain ```) whose content starts with '{' or '[' is used; an unclosed
//     fence runs to the end of the text.
//
// It does not hunt for JSON inside prose: text that does not start with
// '{' or '[' after the steps above is an error wrapping ErrNoJSON, so the
// repair prompt can tell the model to answer with JSON only. Whatever
// follows the value is left for Schema.Validate to reject.
func ExtractJSON(text string) ([]byte, error) {
	s := strings.TrimPrefix(text, "\uFEFF")
	s = stripThink(s)
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("%w: the reply is empty", ErrNoJSON)
	}
	if s[0] != '{' && s[0] != '[' {
		if body, ok := fenced(s); ok {
			s = body
		}
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, fmt.Errorf("%w: the code block is empty", ErrNoJSON)
	}
	if s[0] != '{' && s[0] != '[' {
		return nil, fmt.Errorf("%w: it starts with %s; answer with a JSON object only", ErrNoJSON, strconv.Quote(head(s, 40)))
	}
	return []byte(s), nil
}

// stripThink removes <think>…</think> blocks. An unclosed block removes
// everything after its opening tag.
func stripThink(s string) string {
	for {
		i := strings.Index(s, "<think>")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "</think>")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+len("</think>"):]
	}
}

// fenced returns the content of the first ``` block that holds JSON.
func fenced(s string) (string, bool) {
	rest := s
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			return "", false
		}
		rest = rest[i+3:]
		// Skip the info string (json, JSON, jsonc, ...) up to the line end.
		body := rest
		if nl := strings.IndexByte(body, '\n'); nl >= 0 && isInfoString(body[:nl]) {
			body = body[nl+1:]
		} else if isInfoString(body) {
			body = ""
		}
		end := strings.Index(body, "```")
		content := body
		if end >= 0 {
			content = body[:end]
		}
		if t := strings.TrimSpace(content); t != "" && (t[0] == '{' || t[0] == '[') {
			return content, true
		}
		if end < 0 {
			return "", false
		}
		rest = body[end+3:]
	}
}

// isInfoString reports whether s looks like a fence's language tag: a
// short run without JSON punctuation.
func isInfoString(s string) bool {
	s = strings.TrimSpace(s)
	return len(s) <= 20 && !strings.ContainsAny(s, "{}[]\":")
}

func head(s string, n int) string {
	if len(s) <= n {
		return s
	}
	b := []byte(s[:n])
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return string(bytes.TrimSpace(b)) + "…"
}
