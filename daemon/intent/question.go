package intent

// Questions about state: "is dark mode on?", "are delivery reports
// enabled", "does the alarm vibrate" ask what the phone shows, not for
// anything to be done. Replaying the flow that turns dark mode on, or
// planning a tap on the switch, would change what the owner only asked
// about; a wrong action is worse than none.

var (
	// stateAux: an auxiliary or copula opening a yes/no question
	stateAux = setOf("is", "are", "am", "was", "were", "isn't", "aren't", "wasn't", "weren't")
	// doAux: "do" opening a yes/no question when a subject follows
	doAux = setOf("do", "does", "did", "doesn't", "didn't")
	// doSubject: the words that start the subject of such a question ("do
	// I have …", "does the alarm …"); "do not …" and "do a backup" stay
	// commands
	doSubject = setOf("i", "we", "they", "it", "he", "she", "my", "our", "the", "this", "that", "these", "those", "any", "all")
	// leadFiller: words a spoken command may open with before the question
	leadFiller = setOf("hey", "hi", "ok", "okay", "so", "um", "uh", "oh", "yo", "quick", "question", "tell", "me")
)

// AsksState reports whether text is a yes/no question about the phone's
// state rather than a command: after opening filler ("hey", "quick
// question"), it starts with a form of "be" ("is", "are", "isn't", …) or
// of "do" followed by a subject ("does the alarm …", "do I have …").
// Requests phrased as questions stay commands: "are you able to …",
// "is there a way to …", "is it possible to …", "do you mind …", and
// "can you …", "could you …", "would you …" (no such opening word).
// Questions starting with "what", "how" or "which" ask to be shown
// something, which a flow may do ("how big is my last photo"), and are
// not reported.
func AsksState(text string) bool {
	var words []string
	for _, t := range Tokenize(text) {
		if t.Kind == KindWord {
			words = append(words, t.Text)
		}
	}
	for len(words) > 0 && leadFiller[words[0]] {
		words = words[1:]
	}
	if len(words) < 2 {
		return false
	}
	first, next := words[0], words[1]
	switch {
	case next == "you" || next == "u":
		return false // "are you able to …", "do you mind …"
	case stateAux[first]:
		if next == "there" || next == "it" && len(words) > 2 && words[2] == "possible" {
			return false // "is there a way to …", "is it possible to …"
		}
		return true
	case doAux[first]:
		return doSubject[next]
	}
	return false
}
