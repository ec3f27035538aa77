package daemon

import (
	"strings"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// Compounds: the owner writes as two words what the app writes as one
// ("number pad" for a "Numberpad" button, "auto play" for "Autoplay videos"),
// or the other way round. Matching aligns a word with a word, so the two
// halves find nothing ("pad") or something else ("dial" is a verb of
// calling). Before matching, two adjacent words of the command whose
// concatenation is a word of the texts (the flows' words, an app's
// labels) are read as that word, when the texts do not also write the
// two words side by side: the texts' own spelling, no dictionary.

// minCompound is the shortest word read as a compound of two: shorter
// joins are too often chance ("a" + "t").
const minCompound = 5

// ReadCompounds returns command with each pair of adjacent words whose
// concatenation (lower case) is a word of texts read as that word
// ("number pad" as "numberpad"), each word that texts write as two
// adjacent words read as those two ("textsize" as "text size"), and
// whether it changed any; quoted values are the owner's text and stay as
// they are. A pair is not joined, nor a word split, when texts also write
// it the other way ("back up" as well as "backup": either reading is
// theirs), when either part is a stop word, or when either holds no
// letter.
func ReadCompounds(command string, texts []string) (string, bool) {
	return outsideQuotes(command, func(part string) (string, bool) { return readCompounds(part, texts) })
}

// readCompounds is ReadCompounds on a part of a command without quoted
// values.
func readCompounds(command string, texts []string) (string, bool) {
	words := strings.Fields(command)
	if len(words) < 2 {
		return command, false
	}
	known := map[string]bool{}   // the texts' words, but names in CamelCase
	phrases := map[string]bool{} // their pairs of adjacent words
	for _, t := range texts {
		ws := strings.FieldsFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		for k, w := range ws {
			lw := strings.ToLower(w)
			if !camelCase(w) {
				known[lw] = true
			}
			if k > 0 {
				phrases[strings.ToLower(ws[k-1])+" "+lw] = true
			}
		}
	}
	core := func(w string) string { return strings.TrimFunc(w, unicode.IsPunct) }
	split := map[string]string{} // a pair of the texts written together -> the pair
	for ph := range phrases {
		a, b, _ := strings.Cut(ph, " ")
		if len(a+b) >= minCompound && !known[a+b] && !intent.IsStopword(a) && !intent.IsStopword(b) &&
			strings.ContainsFunc(a, unicode.IsLetter) && strings.ContainsFunc(b, unicode.IsLetter) {
			split[a+b] = ph
		}
	}
	var out []string
	changed := false
	for i := 0; i < len(words); i++ {
		if c := core(words[i]); strings.HasSuffix(words[i], c) && strings.HasPrefix(words[i], c) {
			if ph, ok := split[strings.ToLower(c)]; ok {
				// one word the texts write as two ("textsize": "Text size")
				out = append(out, ph)
				changed = true
				continue
			}
		}
		if i+1 < len(words) {
			ca, cb := core(words[i]), core(words[i+1])
			a, b := strings.ToLower(ca), strings.ToLower(cb)
			joined := a + b
			// the first word ends with no punctuation ("pad, dial" is no pair)
			if strings.HasSuffix(words[i], ca) && len(joined) >= minCompound && known[joined] && !phrases[a+" "+b] &&
				!intent.IsStopword(a) && !intent.IsStopword(b) && strings.ContainsFunc(a, unicode.IsLetter) && strings.ContainsFunc(b, unicode.IsLetter) {
				lead := words[i][:len(words[i])-len(ca)]
				tail := words[i+1][strings.Index(words[i+1], cb)+len(cb):]
				out = append(out, lead+joined+tail)
				changed = true
				i++
				continue
			}
		}
		out = append(out, words[i])
	}
	if !changed {
		return command, false
	}
	return strings.Join(out, " "), true
}

// camelCase reports whether w has a capital after its first letter
// ("GroceryRun", "iPhone"): a name joined from words, not one word.
func camelCase(w string) bool {
	for i, r := range w {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}
