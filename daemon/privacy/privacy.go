// Package privacy owns what of the owner's words and screens may leave
// the engine: it finds secrets in a command ("password hunter2") and
// redacts secrets and personal data (phone numbers, e-mail addresses,
// card-like numbers) from text bound for the run log, the event stream
// (websocket, bridge, CLI) and stored flow commands.
//
// Secrets are always removed. Personal data is removed by default; the
// owner's "full debugging logs" setting keeps it (never secrets). The
// package is pure text processing: it must not touch the store, the
// device or a model.
package privacy

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Marks that replace what Redact removes.
const (
	SecretMark = "[secret]"
	PhoneMark  = "[phone]"
	EmailMark  = "[email]"
	CardMark   = "[card]"
)

var (
	reEmail = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)
	// 13-19 digits, optionally grouped by spaces or dashes: payment cards
	reCard = regexp.MustCompile(`\b\d(?:[ -]?\d){12,18}\b`)
	// 7-15 digits with the separators people and apps write in phone
	// numbers, optionally starting with +
	rePhone = regexp.MustCompile(`(?:\+|\b)\d(?:[ ().-]{0,2}\d){6,14}\b`)
	// a calendar date in digits, which rePhone also matches: day, month
	// and year (or year first) with one separator repeated, "30.06.2023",
	// "2023-06-30", "6/30/2023"
	reDate = regexp.MustCompile(`^(?:\d{1,2}([./-])\d{1,2}([./-])\d{4}|\d{4}([./-])\d{1,2}([./-])\d{1,2})$`)
	// a value after a word that introduces a secret, in the languages the
	// safety vocabulary covers: "password hunter2", "PIN is 1234",
	// "mot de passe : 'x y'"
	reSecret = regexp.MustCompile(`(?i)(?:\bpass ?words?|\bpasscodes?|\bpasswd|\bpins?(?: codes?)?|\bcontraseñas?|\bmot de passe|\bpasswort|\bsenhas?|密码|密碼|パスワード|暗証番号)` +
		`(?:\s*[:=]\s*|\s+(?:(?:is|was|to|es|est|ist|é)\s+)?)("[^"]+"|'[^']+'|“[^”]+”|\S+)`)
)

// SecretsIn returns the secret values a command carries ("log in with
// password hunter2" → ["hunter2"]), without their quotes.
func SecretsIn(command string) []string {
	var out []string
	for _, m := range reSecret.FindAllStringSubmatch(command, -1) {
		v := strings.Trim(m[1], `"'“”.,;!?`)
		if v != "" && !strings.Contains(v, SecretMark) { // a redacted command carries marks, not secrets
			out = append(out, v)
		}
	}
	return out
}

// Redact returns s with every secret replaced by SecretMark (longest
// first) and, when pii is true, e-mail addresses, card-like numbers and
// phone numbers by their marks.
func Redact(s string, secrets []string, pii bool) string {
	if s == "" {
		return s
	}
	ss := append([]string(nil), secrets...)
	sort.Slice(ss, func(i, j int) bool { return len(ss[i]) > len(ss[j]) })
	for _, x := range ss {
		if len(x) >= 2 {
			s = strings.ReplaceAll(s, x, SecretMark)
		}
	}
	if !pii {
		return s
	}
	s = reEmail.ReplaceAllString(s, EmailMark)
	s = reCard.ReplaceAllString(s, CardMark)
	return rePhone.ReplaceAllStringFunc(s, func(m string) string {
		if isDate(m) {
			return m // a row's date ("test.m4a · 30.06.2023") is no phone number
		}
		return PhoneMark
	})
}

// isDate reports whether m, a run of digits rePhone matched, is a date
// (reDate, one separator used twice, a month of 1–12 and a day of 1–31 in
// either order) rather than a phone number.
func isDate(m string) bool {
	g := reDate.FindStringSubmatch(m)
	if g == nil || g[1] != g[2] || g[3] != g[4] {
		return false
	}
	parts := strings.FieldsFunc(m, func(r rune) bool { return r == '.' || r == '/' || r == '-' })
	if len(parts[0]) == 4 {
		parts = []string{parts[2], parts[1]} // year first: day, month
	}
	a, _ := strconv.Atoi(parts[0])
	b, _ := strconv.Atoi(parts[1]) // digits only: reDate matched
	day := func(n int) bool { return n >= 1 && n <= 31 }
	month := func(n int) bool { return n >= 1 && n <= 12 }
	return day(a) && month(b) || month(a) && day(b)
}

// RedactJSON redacts the string values of a JSON document (an event's
// data): secrets are matched both as written and as JSON escapes them.
// A document that is not valid JSON is redacted as text.
func RedactJSON(raw []byte, secrets []string, pii bool) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // numbers keep their digits
	if err := dec.Decode(&v); err != nil {
		return []byte(Redact(string(raw), secrets, pii))
	}
	v = redactValue(v, secrets, pii)
	out, err := json.Marshal(v)
	if err != nil {
		return []byte(Redact(string(raw), secrets, pii))
	}
	return out
}

func redactValue(v any, secrets []string, pii bool) any {
	switch x := v.(type) {
	case string:
		return Redact(x, secrets, pii)
	case []any:
		for i := range x {
			x[i] = redactValue(x[i], secrets, pii)
		}
	case map[string]any:
		for k := range x {
			x[k] = redactValue(x[k], secrets, pii)
		}
	}
	return v
}
