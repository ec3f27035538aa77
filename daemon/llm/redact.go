package llm

import (
	"context"
	"errors"
	"sort"
	"strings"
)

// RedactedMark replaces every secret removed by Redact.
const RedactedMark = "(redacted)"

// Redact returns s with every occurrence of each non-empty secret replaced
// by RedactedMark. Longer secrets are replaced first, so a secret that
// contains another is removed whole. Use it on a rendered prompt before it
// is logged, stored or streamed; pass the API key and every string the
// user marked secret (password text, PINs). Client.Redact adds the key.
func Redact(s string, secrets ...string) string {
	if s == "" || len(secrets) == 0 {
		return s
	}
	ss := make([]string, 0, len(secrets))
	for _, x := range secrets {
		if x != "" {
			ss = append(ss, x)
		}
	}
	sort.Slice(ss, func(i, j int) bool { return len(ss[i]) > len(ss[j]) })
	for _, x := range ss {
		s = strings.ReplaceAll(s, x, RedactedMark)
	}
	return s
}

// containsSecret reports whether any error in err's chain prints a secret.
func containsSecret(err error, secrets ...string) bool {
	found := false
	walkErr(err, func(e error) {
		msg := e.Error()
		for _, s := range secrets {
			if s != "" && strings.Contains(msg, s) {
				found = true
			}
		}
	})
	return found
}

func walkErr(err error, f func(error)) {
	for depth := 0; err != nil && depth < 32; depth++ {
		f(err)
		switch u := err.(type) {
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walkErr(e, f)
			}
			return
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		default:
			return
		}
	}
}

// sanitizeErr returns err unchanged when no error in its chain prints a
// secret; otherwise a plain error with the secrets replaced, which still
// matches context.Canceled / context.DeadlineExceeded with errors.Is.
func sanitizeErr(err error, secrets ...string) error {
	if err == nil || !containsSecret(err, secrets...) {
		return err
	}
	r := &redactedError{msg: Redact(err.Error(), secrets...)}
	for _, sentinel := range []error{context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, sentinel) {
			r.is = append(r.is, sentinel)
		}
	}
	return r
}

type redactedError struct {
	msg string
	is  []error
}

func (e *redactedError) Error() string   { return e.msg }
func (e *redactedError) Unwrap() []error { return e.is }
