package intent

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kljensen/snowball/english"
)

// stemExceptions are words whose stem would collide with an unrelated UI
// word ("settings"→"set", "monthly"→"month") or that a UI names as they
// are ("sms", "gps").
var stemExceptions = map[string]string{
	"settings": "setting", "setting": "setting",
	"news": "news",
	"sms":  "sms", "gps": "gps", "os": "os", "ios": "ios",
	"ringing": "ring", "ringtones": "ringtone", "ringtone": "ringtone",
	"wireless": "wireless",
	// recurrences and views ("Monthly view", "repeat weekly") are not the
	// unit they are made of ("month", "week")
	"hourly": "hourly", "daily": "daily", "weekly": "weekly", "monthly": "monthly", "yearly": "yearly",
}

// Stem returns the stem of one lower-case English word by the Snowball
// English (Porter2) stemmer (github.com/kljensen/snowball; M. F. Porter,
// "Snowball: A language for stemming algorithms", 2001), with a few
// exceptions that keep common UI words apart ("settings" is not "set").
// Words of two letters or fewer, and words with anything but ASCII
// letters, are returned unchanged.
func Stem(word string) string {
	if s, ok := stemExceptions[word]; ok {
		return s
	}
	if len(word) <= 2 {
		return word
	}
	for i := 0; i < len(word); i++ {
		if c := word[i]; c < 'a' || c > 'z' {
			return word
		}
	}
	if s, ok := stemCache.Load(word); ok {
		return s.(string)
	}
	s := english.Stem(word, true)
	if stemCached.Add(1) <= maxStemCache {
		stemCache.Store(word, s)
	}
	return s
}

// stemCache memoizes Stem (Snowball is pure, and a phone's commands and
// screens reuse few words); at most maxStemCache words are kept, the
// first ones seen. The anchors and the grounding of a command stem the
// same labels again for every flow they check.
var (
	stemCache  sync.Map // word → stem
	stemCached atomic.Int64
)

const maxStemCache = 1 << 16

// stemWord stems a lower-case token text; multi-word and non-letter texts
// are returned as they are.
func stemWord(w string) string {
	if strings.ContainsAny(w, " -'’_") {
		parts := strings.FieldsFunc(w, func(r rune) bool { return r == ' ' || r == '-' || r == '\'' || r == '’' || r == '_' })
		if len(parts) == 0 {
			return w
		}
		// "wi-fi" → "wifi", "don't" → "dont": joined, then stemmed
		return Stem(strings.Join(parts, ""))
	}
	return Stem(w)
}
