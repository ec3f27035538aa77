package intent

import "strings"

// Speech acts: Wayfinder carries out commands. A question ("is dark mode
// on?", "why is the theme dark"), a request for instructions ("how do I
// mark the chat as unread"), a report ("I already called 911") or a
// request for a reminder ("remind me to print the diary") names a task
// without asking for it to be done now. Replaying the flow that does the
// task, or planning it, would change what the owner only talked about; a
// wrong action is worse than none. Requests phrased as questions stay
// commands ("can you …", "are you able to …", "is there a way to …"),
// and so do questions that ask to be shown something a flow may show
// ("how big is my last photo", "where is the faq", "who are my favourite
// contacts").

// Act is what an utterance does besides commanding (SpeechAct).
type Act string

// The acts SpeechAct tells apart; ActCommand is the zero value.
const (
	ActCommand       Act = ""
	ActStateQuestion Act = "state question" // "is dark mode on?"
	ActQuestion      Act = "question"       // "why is the theme dark", "when did I add …"
	ActHowTo         Act = "how-to"         // "how do I …", "how to …"
	ActReport        Act = "report"         // "I already called 911", "I turned it on"
	ActReminder      Act = "reminder"       // "remind me to …"
)

var (
	// stateAux: an auxiliary or copula opening a yes/no question
	stateAux = setOf("is", "are", "am", "was", "were", "isn't", "aren't", "wasn't", "weren't", "isnt", "arent", "wasnt", "werent")
	// doAux: "do" opening a yes/no question when a subject follows
	doAux = setOf("do", "does", "did", "doesn't", "didn't", "doesnt", "didnt")
	// subjects: the words that start the subject of such a question ("do
	// I have …", "does the alarm …"); "do not …" and "do a backup" stay
	// commands
	subjects = setOf("i", "we", "they", "it", "he", "she", "my", "our", "the", "this", "that", "these", "those", "any", "all")
	// pastAux: the auxiliaries of a question about the past ("when did …")
	pastAux = setOf("did", "was", "were", "had", "have", "has", "didn't", "didnt")
	// howModal: "how do I …", "how can we …", "how should I …"
	howModal = setOf("do", "does", "can", "could", "should", "would", "will", "may", "might", "must")
	// howSubject: who would do it ("how do I …", "how can you …")
	howSubject = setOf("i", "we", "you", "u", "one", "someone")
	// reportAdverb: "I already …", "I just …", "I've already …"
	reportAdverb = setOf("already", "just", "recently", "earlier", "previously")
	// reportSubject: the first person opening a report
	reportSubject = setOf("i", "i've", "ive", "we", "we've", "weve")
	// leadFiller: words a spoken utterance may open with
	leadFiller = setOf("hey", "hi", "ok", "okay", "so", "um", "uh", "oh", "yo", "quick", "question", "tell", "me", "well", "and")
)

// SpeechAct classifies text, after opening filler ("hey", "quick
// question"), as a command (ActCommand) or as another act, and returns
// with a how-to question the task it asks about ("mark the chat as
// unread" of "how do I mark the chat as unread"):
//   - ActStateQuestion: a form of "be" first ("is", "aren't"), or of "do"
//     with a subject next ("does the alarm …");
//   - ActQuestion: "why …", or "when" with an auxiliary of the past
//     ("when did I add …");
//   - ActHowTo: "how" with a modal and who would do it ("how do I …",
//     "how can you …"), or "how to …";
//   - ActReport: the first person then a word of the past ("I already
//     called …", "I turned …", "I've just set …");
//   - ActReminder: "remind me …" first.
//
// "you" right after the opening word makes a request ("are you able to
// …", "do you mind …"), as do "is there …" and "is it possible …".
func SpeechAct(text string) (Act, string) {
	toks := Tokenize(text)
	var words []string
	var starts []int
	for _, t := range toks {
		if t.Kind == KindWord {
			words = append(words, t.Text)
			starts = append(starts, t.Start)
		}
	}
	i := 0
	for i < len(words) && leadFiller[words[i]] {
		i++
	}
	w := words[i:]
	if len(w) < 2 {
		return ActCommand, ""
	}
	first, next := w[0], w[1]
	switch {
	case first == "remind" && next == "me":
		return ActReminder, ""
	case first == "why":
		return ActQuestion, ""
	case first == "when" && pastAux[next]:
		return ActQuestion, ""
	case first == "how" && next == "to" && len(w) > 2:
		return ActHowTo, strings.TrimSpace(text[starts[i+2]:])
	case first == "how" && howModal[next] && len(w) > 3 && howSubject[w[2]]:
		return ActHowTo, strings.TrimSpace(text[starts[i+3]:])
	case next == "you" || next == "u":
		return ActCommand, "" // "are you able to …", "do you mind …"
	case stateAux[first]:
		if next == "there" || next == "it" && len(w) > 2 && w[2] == "possible" {
			return ActCommand, "" // "is there a way to …", "is it possible to …"
		}
		return ActStateQuestion, ""
	case doAux[first] && subjects[next]:
		return ActStateQuestion, ""
	case reportSubject[first]:
		if reportAdverb[next] || len(w) > 2 && (next == "have" || next == "had") && reportAdverb[w[2]] {
			return ActReport, ""
		}
		if past(next) {
			return ActReport, ""
		}
	}
	return ActCommand, ""
}

// past reports whether word reads as a regular past form ("turned",
// "opened"): five letters or more ending in "ed", and not "need" or
// "speed"-like words ending in "eed".
func past(word string) bool {
	return len(word) >= 5 && strings.HasSuffix(word, "ed") && !strings.HasSuffix(word, "eed")
}
