package knowledge

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// unmarshalDescriptor decodes a screen.Descriptor stored as JSON. Loading
// 10,000 flows decodes some 50,000 of them, so the JSON that
// json.Marshal(screen.Descriptor) writes is read by a small scanner
// (about 5x faster than encoding/json); anything else (escapes, unknown or
// differently cased keys, null, non-integer numbers, invalid UTF-8 or
// JSON) goes to encoding/json, so the result is always what json.Unmarshal
// gives (FuzzDescriptorJSON checks this).
func unmarshalDescriptor(b []byte, d *screen.Descriptor) error {
	if len(b) == 0 || string(b) == "{}" {
		return nil
	}
	var fast screen.Descriptor
	if (&descScanner{b: b}).descriptor(&fast) {
		*d = fast
		return nil
	}
	return json.Unmarshal(b, d)
}

// descScanner reads the canonical JSON of a descriptor; every method
// reports false on anything outside that subset.
type descScanner struct {
	b []byte
	i int
}

func (s *descScanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *descScanner) byte(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes or control characters, valid UTF-8.
func (s *descScanner) str() (string, bool) {
	s.ws()
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return "", false
	}
	start := s.i + 1
	ascii := true
	for j := start; j < len(s.b); j++ {
		c := s.b[j]
		switch {
		case c == '"':
			v := s.b[start:j]
			if !ascii && !utf8.Valid(v) {
				return "", false
			}
			s.i = j + 1
			return string(v), true
		case c == '\\' || c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	return "", false
}

func (s *descScanner) strs() ([]string, bool) {
	if !s.byte('[') {
		return nil, false
	}
	out := []string{}
	if s.byte(']') {
		return out, true
	}
	for {
		v, ok := s.str()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		if s.byte(']') {
			return out, true
		}
		if !s.byte(',') {
			return nil, false
		}
	}
}

func (s *descScanner) boolean() (bool, bool) {
	s.ws()
	rest := s.b[s.i:]
	switch {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.i += 5
		return false, true
	}
	return false, false
}

// integer reads an integer that fits an int without overflow, in JSON's
// form (no leading zeros, no plus sign).
func (s *descScanner) integer() (int, bool) {
	s.ws()
	neg := false
	if s.i < len(s.b) && s.b[s.i] == '-' {
		neg = true
		s.i++
	}
	start := s.i
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		if n > (1<<31-1)/10 { // stay far from overflow on any platform
			return 0, false
		}
		n = n*10 + int(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || (digits > 1 && s.b[start] == '0') {
		return 0, false
	}
	if s.i < len(s.b) && (s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

func (s *descScanner) descriptor(d *screen.Descriptor) bool {
	if !s.byte('{') {
		return false
	}
	if !s.byte('}') {
		for {
			key, ok := s.str()
			if !ok || !s.byte(':') {
				return false
			}
			switch key {
			case "rid":
				d.ResourceID, ok = s.str()
			case "class":
				d.Class, ok = s.str()
			case "text":
				d.Text, ok = s.str()
			case "desc":
				d.Desc, ok = s.str()
			case "hint":
				d.Hint, ok = s.str()
			case "path":
				d.Path, ok = s.strs()
			case "near":
				d.Neighbors, ok = s.strs()
			case "editable":
				d.Editable, ok = s.boolean()
			case "checkable":
				d.Checkable, ok = s.boolean()
			case "scrollable":
				d.Scrollable, ok = s.boolean()
			case "password":
				d.Password, ok = s.boolean()
			case "list":
				d.InList, ok = s.boolean()
			case "ord":
				d.Ordinal, ok = s.integer()
			default:
				return false
			}
			if !ok {
				return false
			}
			if s.byte('}') {
				break
			}
			if !s.byte(',') {
				return false
			}
		}
	}
	s.ws()
	return s.i == len(s.b)
}
