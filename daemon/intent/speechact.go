package intent

import (
	"slices"
	"strings"
)

// Speech acts: Wayfinder carries out commands. A question ("is dark mode
// on?", "why is the theme dark"), a request for instructions ("how do I
// mark the chat as unread"), a report ("I already called the florist") or a
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
	ActReport        Act = "report"         // "I already called the florist", "someone switched it", "the font is too small"
	ActReminder      Act = "reminder"       // "remind me to …"
	ActCutOff        Act = "cut off"        // "set an alarm for", "move the chart to"
	ActLeaveAsIs     Act = "leave as is"    // "don't touch the snooze time", "leave the grid alone"
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
	// otherSubject: who else a report may be about ("someone switched …")
	otherSubject = setOf("someone", "somebody", "he", "she", "they", "it", "everyone", "nobody")
	// opinion: a first-person liking or disliking ("I hate left aligned
	// text"); "I'd like …" and "I want …" are requests
	opinion = setOf("hate", "love", "like", "dislike", "loathe")
	// determiners opening a subject ("the font is too small")
	determiners = setOf("the", "this", "that", "these", "those", "my", "our", "your")
	// copulas of a remark about a thing ("… is so cluttered")
	copulas = setOf("is", "are", "was", "were", "looks", "look", "seems", "seem", "feels", "feel", "'s")
	// requestModals turn a remark into a request ("the week should start on monday")
	requestModals = setOf("should", "must", "shall", "needs", "need", "ought", "has", "have", "gotta")
	// thereRequest: "is there a way to …", "is there an option to …"
	thereRequest = setOf("way", "option", "setting", "chance", "possibility")
	// leadFiller: words a spoken utterance may open with
	leadFiller = setOf("hey", "hi", "ok", "okay", "so", "um", "uh", "oh", "yo", "quick", "question", "tell", "me", "well", "and")
	// changeVerbs change or undo something once: negated ("don't touch
	// the snooze time", "never delete my notes"), they ask for it to be
	// left as it is — unlike a behaviour a setting switches ("don't show
	// the digits", "don't always use the same snooze time")
	changeVerbs = setOf("change", "touch", "modify", "alter", "edit", "adjust", "reset", "mess", "delete", "remove",
		"erase", "clear", "rename", "move")
	// habitual: what makes a negated change a behaviour a setting
	// switches ("don't delete drafts when I exit")
	habitual = setOf("when", "whenever", "after", "automatically", "every", "each", "always", "anymore")
	// asIs: how a request to leave a thing alone ends ("leave the grid
	// alone", "keep the theme as it is")
	asIs = [][]string{{"alone"}, {"as", "is"}, {"as", "it", "is"}, {"the", "way", "it", "is"}, {"as", "they", "are"}}
	// dangling: words no request ends with — a preposition that wants
	// its object, an article or a possessive that wants its noun, a
	// conjunction that wants its clause; a particle that may close a
	// phrasal verb ("turn it on", "back up", "log in") is none of them,
	// nor "a", a letter too ("from z to a")
	dangling = setOf("to", "for", "by", "of", "with", "at", "into", "onto", "from", "than", "via", "about",
		"the", "an", "my", "your", "his", "her", "their", "our", "its", "this", "these", "those",
		"and", "or", "but", "then", "um", "uh", "er", "erm", "uhm")
)

// SpeechAct classifies text, after opening filler ("hey", "quick
// question"), as a command (ActCommand) or as another act, and returns
// with a how-to question the task it asks about ("mark the chat as
// unread" of "how do I mark the chat as unread"):
//   - ActStateQuestion: a form of "be" first ("is", "aren't", "are there
//     3 columns …"), "does" or "did" with anything but "not" next, or "do"
//     with a subject next ("do I have …");
//   - ActQuestion: "why …", or "when" with an auxiliary of the past
//     ("when did I add …");
//   - ActHowTo: "how" with a modal and who would do it ("how do I …",
//     "how can you …"), or "how to …";
//   - ActReport: a first-person opinion ("I hate …"), or what reported
//     finds: a report of something done ("I already called …", "someone
//     switched …") or a remark on a thing ("the font is too small");
//   - ActReminder: "remind me …" first;
//   - ActCutOff: the last word wants more (dangling: "set an alarm for",
//     "move the chart to", "text theo and"), as a voice command cut off
//     by the recogniser or the speaker reads; a quoted text last is whole.
//
// "you" right after the opening word makes a request ("are you able to
// …", "do you mind …"), as do "is there a way …" and "is it possible …".
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
	for i < len(words) && (leadFiller[words[i]] || politeFiller[words[i]]) {
		i++
	}
	w := words[i:]
	if len(w) < 2 {
		return ActCommand, ""
	}
	if n := len(toks); toks[n-1].Kind == KindWord && dangling[toks[n-1].Text] {
		return ActCutOff, "" // "set an alarm for": what it is for was not heard
	}
	if leftAsIs(w) {
		return ActLeaveAsIs, ""
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
	case stateAux[first] && next == "there":
		for _, x := range w[2:min(len(w), 5)] {
			if thereRequest[x] {
				return ActCommand, "" // "is there a way to …"
			}
		}
		return ActStateQuestion, "" // "are there 3 columns …"
	case stateAux[first]:
		if next == "it" && len(w) > 2 && w[2] == "possible" {
			return ActCommand, "" // "is it possible to …"
		}
		return ActStateQuestion, ""
	case doAux[first] && first != "do" && next != "not":
		return ActStateQuestion, "" // "does the alarm …", "did bob's chat get …"
	case first == "do" && subjects[next]:
		return ActStateQuestion, ""
	case reportSubject[first] && opinion[next]:
		return ActReport, "" // "I hate left aligned text"
	}
	if reported(w, !strings.ContainsAny(text, ",;") && !slices.Contains(w, "then")) {
		return ActReport, ""
	}
	return ActCommand, ""
}

// leftAsIs reports whether words (an utterance's, opening filler aside)
// ask for something to be left as it is: a negation ("don't", "do not",
// "never"), maybe "ever" or "even", then a verb that changes or undoes
// something once (changeVerbs), with nothing making it a habit a setting
// switches (habitual); or "leave" or "keep" first and a close that
// leaves the thing as it is (asIs: "leave the grid alone").
func leftAsIs(w []string) bool {
	k := 0
	switch {
	case len(w) > 2 && w[0] == "do" && w[1] == "not":
		k = 2
	case isNegation(w[0]):
		k = 1
	case w[0] == "leave" || w[0] == "keep":
		for _, end := range asIs {
			if len(w) > len(end)+1 && slices.Equal(w[len(w)-len(end):], end) {
				return true
			}
		}
		return false
	default:
		return false
	}
	for k < len(w) && (w[k] == "ever" || w[k] == "even") {
		k++
	}
	if k >= len(w) || !changeVerbs[w[k]] {
		return false
	}
	return !slices.ContainsFunc(w[k+1:], func(x string) bool { return habitual[x] })
}

// reported reports whether words (an utterance's, opening filler aside)
// tell of something done or remark on a thing rather than ask for
// anything: a subject — the first person, someone else ("someone", "my
// brother"), or a thing ("the video") — or none at all, maybe an adverb
// ("already", "just"), then a word of the past ("I turned …", "just
// printed …", "my wife changed …", "the video started …"), or "already"
// after a person ("I already took it"); or, in an utterance of one
// clause (one), a thing and a copula with no modal ("the grid view in
// the gallery is so cluttered"; not "the week should start on monday",
// nor "the ringtone is too quiet, make it louder").
func reported(w []string, one bool) bool {
	k := 0
	switch {
	case reportSubject[w[0]] || otherSubject[w[0]]:
		k = 1
	case w[0] == "my" && len(w) > 2:
		k = 2 // "my wife …"
	case determiners[w[0]]:
		// a thing: up to five words of its name, then a copula or a past
		// form; a modal first makes it a request
		for j := 1; j < len(w) && j <= 6 && one; j++ {
			switch {
			case requestModals[w[j]] || reportSubject[w[j]] || isNegation(w[j]):
				return false
			case copulas[w[j]] || past(w[j]):
				return j > 1
			}
		}
		return false
	}
	if k < len(w) && reportAdverb[w[k]] {
		if k > 0 && w[k] == "already" {
			return true // "I already took it"
		}
		k++
	}
	if k+1 < len(w) && (w[k] == "have" || w[k] == "had" || w[k] == "has") {
		k++ // "I have already …" was seen above; "we have turned …"
		if reportAdverb[w[k]] {
			k++
		}
	}
	return k < len(w) && past(w[k]) && (k > 0 || len(w) > 1)
}

// past reports whether word reads as a past form: a regular one
// ("turned", "opened": five letters or more ending in "ed", not "need"
// or "speed"-like words ending in "eed"), or a common irregular one that
// is no present form too ("took", "sent"; not "set", "put" or "read").
func past(word string) bool {
	return len(word) >= 5 && strings.HasSuffix(word, "ed") && !strings.HasSuffix(word, "eed") || irregularPast[word]
}

// irregularPast: irregular past forms of verbs a phone is told to do
// things with, each no present form of a verb too
var irregularPast = setOf("took", "sent", "made", "wrote", "got", "did", "saw", "gave", "bought", "chose", "forgot",
	"hid", "shot", "told", "went", "kept", "lost", "found", "paid", "began", "rang", "sang", "drew", "threw",
	"brought", "thought", "caught", "taught", "sold", "heard", "stole", "woke", "froze", "spoke", "broke", "ate")
