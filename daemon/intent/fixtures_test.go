package intent

import "github.com/wayfinder-agent/wayfinder/knowledge"

// Invented flows of invented apps (generic phone tasks), used by the
// matching tests. Package names are placeholders.
const (
	pkgNotes    = "org.example.notes"
	pkgClock    = "org.example.clock"
	pkgMessages = "org.example.messages"
	pkgSettings = "org.example.settings"
	pkgMusic    = "org.example.music"
	pkgContacts = "org.example.contacts"
	pkgUnits    = "org.example.units"
	pkgFiles    = "org.example.files"
	pkgGallery  = "org.example.gallery"
)

const (
	fNoteCreate = iota + 1
	fNoteDelete
	fNoteSearch
	fNoteShare
	fNoteDarkOn
	fNoteDarkOff
	fNoteSort
	fAlarmSet
	fAlarmDelete
	fTimerStart
	fTimerStop
	fMsgSend
	fMsgDeleteThread
	fCall
	fWifiOn
	fWifiOff
	fBluetoothOn
	fBrightUp
	fBrightDown
	fAirplaneOn
	fPlaySong
	fPauseMusic
	fNextSong
	fFavSong
	fContactAdd
	fContactBlock
	fContactUnblock
	fNotesSettings
	fConvert
	fHideCaller
	fNoLockNotif
	fFavAlice
	fSortAsc
	fFirstPhoto
	fAlarmPage
)

func fl(id int64, pkg, intent string, slots []knowledge.Slot, cmds ...string) knowledge.Flow {
	return knowledge.Flow{ID: id, Package: pkg, Intent: intent, Slots: slots, Commands: cmds,
		Steps: []knowledge.Step{{Action: "tap"}}}
}

func sl(kv ...string) []knowledge.Slot {
	var out []knowledge.Slot
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, knowledge.Slot{Name: kv[i], Example: kv[i+1]})
	}
	return out
}

func testFlows() []knowledge.Flow {
	return []knowledge.Flow{
		fl(fNoteCreate, pkgNotes, "create a note titled {title}", sl("title", "groceries"), "create a note titled groceries"),
		fl(fNoteDelete, pkgNotes, "delete the note {title}", sl("title", "old ideas"), "delete the note old ideas"),
		fl(fNoteSearch, pkgNotes, "search notes for {query}", sl("query", "recipes"), "search notes for recipes"),
		fl(fNoteShare, pkgNotes, "share the note {title} with {contact}", sl("title", "packing list", "contact", "Ivan"), "share the note packing list with Ivan"),
		fl(fNoteDarkOn, pkgNotes, "turn on dark mode", nil, "turn on dark mode"),
		fl(fNoteDarkOff, pkgNotes, "turn off dark mode", nil, "turn off dark mode", "disable dark mode"),
		fl(fNoteSort, pkgNotes, "sort notes by date", nil),
		fl(fAlarmSet, pkgClock, "set an alarm for {time}", sl("time", "7:00 am"), "set an alarm for 7:00 am", "wake me up at 6:30 am"),
		fl(fAlarmDelete, pkgClock, "delete the alarm for {time}", sl("time", "6:30 am"), "delete the alarm for 6:30 am"),
		fl(fTimerStart, pkgClock, "start a timer for {number} minutes", sl("number", "10"), "start a timer for 10 minutes"),
		fl(fTimerStop, pkgClock, "stop the timer", nil),
		fl(fMsgSend, pkgMessages, "send {message} to {contact}", sl("message", "hi", "contact", "Alice"), "send 'hi' to Alice"),
		fl(fMsgDeleteThread, pkgMessages, "delete the conversation with {contact}", sl("contact", "Karl"), "delete the conversation with Karl"),
		fl(fCall, pkgContacts, "call {contact}", sl("contact", "Bob"), "call Bob"),
		fl(fWifiOn, pkgSettings, "turn on wifi", nil),
		fl(fWifiOff, pkgSettings, "turn off wifi", nil),
		fl(fBluetoothOn, pkgSettings, "turn on bluetooth", nil),
		fl(fBrightUp, pkgSettings, "increase the brightness", nil),
		fl(fBrightDown, pkgSettings, "decrease the brightness", nil),
		fl(fAirplaneOn, pkgSettings, "enable airplane mode", nil),
		fl(fPlaySong, pkgMusic, "play {song}", sl("song", "Morning Rain"), "play Morning Rain"),
		fl(fPauseMusic, pkgMusic, "pause the music", nil),
		fl(fNextSong, pkgMusic, "skip to the next song", nil),
		fl(fFavSong, pkgMusic, "add {song} to favorites", sl("song", "Blue Lantern"), "add Blue Lantern to favorites"),
		fl(fContactAdd, pkgContacts, "add a contact named {name} with number {number}", sl("name", "Carol", "number", "555-0100"), "add a contact named Carol with number 555-0100"),
		fl(fContactBlock, pkgContacts, "block {contact}", sl("contact", "Mallory"), "block Mallory"),
		fl(fContactUnblock, pkgContacts, "unblock {contact}", sl("contact", "Mallory")),
		fl(fNotesSettings, pkgNotes, "open the settings", nil, "open the settings"),
		fl(fConvert, pkgUnits, "convert from celsius to fahrenheit", nil),
		fl(fHideCaller, pkgSettings, "turn on hide caller id", nil),
		fl(fNoLockNotif, pkgSettings, "do not show notifications on the lock screen", nil),
		fl(fFavAlice, pkgContacts, "add Alice to favorites", nil, "add Alice to favorites"),
		fl(fSortAsc, pkgFiles, "sort files by size in ascending order", nil),
		fl(fFirstPhoto, pkgGallery, "open the first photo", nil),
		fl(fAlarmPage, pkgClock, "open the alarm page", nil),
	}
}

// matchCase is a command that must be answered by flow want (0: by no
// flow) with the given slots.
type matchCase struct {
	name  string
	cmd   string
	pkg   string
	want  int64
	slots map[string]string
}

func slots(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

var positiveCases = []matchCase{
	// same wording, new values
	{"new title", "create a note titled shopping list", pkgNotes, fNoteCreate, slots("title", "shopping list")},
	{"quoted title", "create a note titled 'Trip plans'", pkgNotes, fNoteCreate, slots("title", "Trip plans")},
	{"paraphrase make new", "make a new note titled weekend", pkgNotes, fNoteCreate, slots("title", "weekend")},
	{"called for titled", "Create a note called Birthday ideas", pkgNotes, fNoteCreate, slots("title", "Birthday ideas")},
	{"remove for delete", "remove the note draft two", pkgNotes, fNoteDelete, slots("title", "draft two")},
	{"find for search", "find notes for pasta", pkgNotes, fNoteSearch, slots("query", "pasta")},
	{"share new values", "share the note travel checklist with Judy", pkgNotes, fNoteShare, slots("title", "travel checklist", "contact", "Judy")},
	{"enable for turn on", "enable dark mode", pkgNotes, fNoteDarkOn, nil},
	{"particle after object", "switch dark mode on", pkgNotes, fNoteDarkOn, nil},
	{"bare off", "dark mode off", pkgNotes, fNoteDarkOff, nil},
	{"deactivate", "please deactivate dark mode", pkgNotes, fNoteDarkOff, nil},
	{"sort plain", "sort my notes by date", pkgNotes, fNoteSort, nil},
	{"alarm new time", "set an alarm for 6:45 am", pkgClock, fAlarmSet, slots("time", "6:45 am")},
	{"alarm at pm", "set an alarm at 5 pm", pkgClock, fAlarmSet, slots("time", "5 pm")},
	{"alarm past command", "wake me up at 8:15", pkgClock, fAlarmSet, slots("time", "8:15")},
	{"remove alarm", "remove the alarm for 9 am", pkgClock, fAlarmDelete, slots("time", "9 am")},
	{"timer minutes", "start a timer for 25 minutes", pkgClock, fTimerStart, slots("number", "25")},
	{"timer stop", "stop the timer please", pkgClock, fTimerStop, nil},
	{"send quoted", "send 'see you soon' to Bob", pkgMessages, fMsgSend, slots("message", "see you soon", "contact", "Bob")},
	{"send curly quotes with on", "send “on my way” to Dana", pkgMessages, fMsgSend, slots("message", "on my way", "contact", "Dana")},
	{"send unquoted", "send running late to Eve", pkgMessages, fMsgSend, slots("message", "running late", "contact", "Eve")},
	{"delete thread", "delete the conversation with Oscar", pkgMessages, fMsgDeleteThread, slots("contact", "Oscar")},
	{"call name", "call Frank", pkgContacts, fCall, slots("contact", "Frank")},
	{"dial name", "dial Grace", pkgContacts, fCall, slots("contact", "Grace")},
	{"call lower case", "call mom", pkgContacts, fCall, slots("contact", "mom")},
	{"wifi particle", "turn the wifi on", pkgSettings, fWifiOn, nil},
	{"wifi hyphen", "enable wi-fi", pkgSettings, fWifiOn, nil},
	{"wifi off", "switch off wifi", pkgSettings, fWifiOff, nil},
	{"brightness up", "turn up the brightness", pkgSettings, fBrightUp, nil},
	{"brightness lower", "lower the brightness", pkgSettings, fBrightDown, nil},
	{"airplane", "turn on airplane mode", pkgSettings, fAirplaneOn, nil},
	{"play song", "play Evening Breeze", pkgMusic, fPlaySong, slots("song", "Evening Breeze")},
	{"pause", "pause music", pkgMusic, fPauseMusic, nil},
	{"next song", "skip to the next song", pkgMusic, fNextSong, nil},
	{"favorite song", "add Quiet Harbor to favorites", pkgMusic, fFavSong, slots("song", "Quiet Harbor")},
	{"contact new", "add a contact named Henry with number 555-0199", pkgContacts, fContactAdd, slots("name", "Henry", "number", "555-0199")},
	{"block", "block Trent", pkgContacts, fContactBlock, slots("contact", "Trent")},
	{"unblock", "unblock Trent", pkgContacts, fContactUnblock, slots("contact", "Trent")},
	{"settings synonym", "open preferences", pkgNotes, fNotesSettings, nil},
	{"typo", "create a notte titled groceries", pkgNotes, fNoteCreate, slots("title", "groceries")},
	{"any app", "turn off dark mode", "", fNoteDarkOff, nil},
	{"polite", "could you please turn the brightness up a bit", pkgSettings, fBrightUp, nil},
	{"plus symbol", "+ note titled ideas", pkgNotes, fNoteCreate, slots("title", "ideas")},
	{"roles kept", "convert celsius to fahrenheit", pkgUnits, fConvert, nil},
	{"contraction negation", "don't show notifications on the lock screen", pkgSettings, fNoLockNotif, nil},
	{"literal value repeated", "add Alice to my favorites", pkgContacts, fFavAlice, nil},
	{"ascending synonym", "sort files by size asc", pkgFiles, fSortAsc, nil},
	{"tab for page", "open the alarm tab", pkgClock, fAlarmPage, nil},
}

// negativeCases must not replay: either no flow reaches the threshold,
// or (want != 0) the named flow must stay below it.
var negativeCases = []matchCase{
	// polarity conflicts
	{"off vs on", "turn off dark mode", pkgNotes, fNoteDarkOn, nil},
	{"on vs off", "turn on dark mode", pkgNotes, fNoteDarkOff, nil},
	{"disable vs on", "disable wifi", pkgSettings, fWifiOn, nil},
	{"particle off vs on", "turn the wifi off", pkgSettings, fWifiOn, nil},
	{"delete vs create", "delete the note groceries", pkgNotes, fNoteCreate, nil},
	{"create vs delete", "create a note titled old ideas", pkgNotes, fNoteDelete, nil},
	{"delete alarm vs set", "delete the alarm for 7:00 am", pkgClock, fAlarmSet, nil},
	{"set alarm vs delete", "set an alarm for 6:30 am", pkgClock, fAlarmDelete, nil},
	{"stop vs start", "stop the timer for 10 minutes", pkgClock, fTimerStart, nil},
	{"start vs stop", "start the timer", pkgClock, fTimerStop, nil},
	{"decrease vs increase", "decrease the brightness", pkgSettings, fBrightUp, nil},
	{"dim vs increase", "dim the brightness", pkgSettings, fBrightUp, nil},
	{"unblock vs block", "unblock Mallory", pkgContacts, fContactBlock, nil},
	{"block vs unblock", "block Mallory", pkgContacts, fContactUnblock, nil},
	{"disable airplane", "disable airplane mode", pkgSettings, fAirplaneOn, nil},
	{"play vs pause", "play the music", pkgMusic, fPauseMusic, nil},
	{"roles swapped", "convert from fahrenheit to celsius", pkgUnits, fConvert, nil},
	{"particle against same words", "turn off hide caller id", pkgSettings, fHideCaller, nil},
	{"negation missing", "show notifications on the lock screen", pkgSettings, fNoLockNotif, nil},
	{"other literal value", "add Bob to favorites", pkgContacts, fFavAlice, nil},
	{"descending", "sort files by size in descending order", pkgFiles, fSortAsc, nil},
	{"last not first", "open the last photo", pkgGallery, fFirstPhoto, nil},
	// same app, other task sharing words
	{"bluetooth vs wifi", "turn on bluetooth", pkgSettings, fWifiOn, nil},
	{"wifi vs bluetooth", "turn on wifi", pkgSettings, fBluetoothOn, nil},
	{"share vs create", "share the note groceries with Bob", pkgNotes, fNoteCreate, nil},
	{"folder vs note", "create a folder titled work", pkgNotes, fNoteCreate, nil},
	{"next vs play", "play the next song", pkgMusic, fPlaySong, nil},
	{"toggle ambiguous", "toggle dark mode", pkgNotes, 0, nil},
	{"dark mode alone", "dark mode", pkgNotes, 0, nil},
	{"delete thread vs send", "delete the conversation with Alice", pkgMessages, fMsgSend, nil},
	{"sort by title", "sort notes by title", pkgNotes, fNoteSort, nil},
	// missing slot values: must not replay with the stale example
	{"no title", "create a note", pkgNotes, fNoteCreate, nil},
	{"no contact", "send 'hello' to", pkgMessages, fMsgSend, nil},
	{"no time", "set an alarm", pkgClock, fAlarmSet, nil},
	{"only call", "call", pkgContacts, fCall, nil},
	{"delete all", "delete all notes", pkgNotes, fNoteDelete, nil},
	{"extra requirement", "call Bob on speaker", pkgContacts, fCall, nil},
	{"create and share", "create a note titled groceries and share it with Bob", pkgNotes, fNoteCreate, nil},
	{"repeat daily", "set an alarm for 7 am every day", pkgClock, fAlarmSet, nil},
	// unused values: the flow would drop them
	{"extra value", "turn on dark mode at 9 pm", pkgNotes, fNoteDarkOn, nil},
	// unrelated
	{"weather", "what's the weather tomorrow", "", 0, nil},
	{"screenshot", "take a screenshot", "", 0, nil},
	{"pizza", "order a large pizza", "", 0, nil},
	{"navigate", "navigate home", "", 0, nil},
	{"trivia", "how tall is mount everest", "", 0, nil},
	{"camera", "open the camera", "", 0, nil},
	{"photo", "delete the last photo", "", 0, nil},
	{"email", "send an email to Walter", "", 0, nil},
	{"empty", "", "", 0, nil},
	{"punctuation", "?!", "", 0, nil},
}
