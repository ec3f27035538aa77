package intent

import "testing"

// TestSpeechAct: questions, how-to questions, reports and reminders are
// told from commands, from requests phrased as questions, and from
// questions that ask to be shown something.
func TestSpeechAct(t *testing.T) {
	for _, tc := range []struct {
		text string
		act  Act
		task string
	}{
		{"is dark mode on?", ActStateQuestion, ""},
		// a thing to be left as it is
		{"don't touch the reminder delay", ActLeaveAsIs, ""},
		{"please do not change my ringtone", ActLeaveAsIs, ""},
		{"hey never ever delete my drafts", ActLeaveAsIs, ""},
		{"leave the tile grid alone", ActLeaveAsIs, ""},
		{"keep the theme as it is", ActLeaveAsIs, ""},
		{"don't delete drafts when I leave the editor", ActCommand, ""}, // a habit a setting switches
		{"don't show the digits on the keypad", ActCommand, ""},
		{"don't always use the same delay", ActCommand, ""},
		{"keep the screen on", ActCommand, ""},
		{"leave the group chat", ActCommand, ""},
		{"are read receipts enabled", ActStateQuestion, ""},
		{"hey, is the vibration on", ActStateQuestion, ""},
		{"quick question: are hidden folders visible?", ActStateQuestion, ""},
		{"isn't the 24 hour clock on", ActStateQuestion, ""},
		{"does the morning alarm vibrate", ActStateQuestion, ""},
		{"do I have an alarm at 7", ActStateQuestion, ""},
		{"why is the theme dark", ActQuestion, ""},
		{"when did I add the lunar holidays", ActQuestion, ""},
		{"how do I mark Ezra's thread as unread?", ActHowTo, "mark Ezra's thread as unread?"},
		{"hey how can I show the word count", ActHowTo, "show the word count"},
		{"how to pin a sketch", ActHowTo, "pin a sketch"},
		{"I already called the florist", ActReport, ""},
		{"i turned on dark mode yesterday", ActReport, ""},
		{"I've just renamed the sketch", ActReport, ""},
		{"remind me to print the diary", ActReminder, ""},
		{"I already took the sketch", ActReport, ""},
		{"i just took a selfie", ActReport, ""},
		{"she sent it to me", ActReport, ""},
		{"set the alarm for 7", ActCommand, ""},
		{"set an alarm for", ActCutOff, ""},
		{"move the chart to", ActCutOff, ""},
		{"text mia and", ActCutOff, ""},
		{"sort the files from z to a", ActCommand, ""}, // "a", a letter
		{"turn the flash on", ActCommand, ""},
		{"name it 'to'", ActCommand, ""}, // a quoted text is whole
		{"for", ActCommand, ""},
		{"left align the text", ActCommand, ""},
		{"just printed the diary as a pdf", ActReport, ""},
		{"someone switched my sketchbook to grid view", ActReport, ""},
		{"my brother changed the theme to light", ActReport, ""},
		{"the tape started from where I left off", ActReport, ""},
		{"I hate left aligned text", ActReport, ""},
		{"the grid view in the sketchbook is so cluttered", ActReport, ""},
		{"the note font is way too small", ActReport, ""},
		{"are there 3 columns in my drawer?", ActStateQuestion, ""},
		{"did bob's thread get pinned?", ActStateQuestion, ""},
		{"the week should start on monday", ActCommand, ""},
		{"the week shouldnt start on sunday", ActCommand, ""},
		{"the ringtone is too quiet, make it louder", ActCommand, ""},
		{"the sketch i just took, name it sunset", ActCommand, ""},
		{"the last photo, tilt it left", ActCommand, ""},
		{"i'd like the dark theme", ActCommand, ""},
		{"i just want the dark theme", ActCommand, ""},
		{"is there any way to hide the tab bar", ActCommand, ""},
		{"turn on dark mode", ActCommand, ""},
		{"do not show hidden folders", ActCommand, ""},
		{"don't vibrate on alarms", ActCommand, ""},
		{"do a backup of my notes", ActCommand, ""},
		{"are you able to turn on dark mode", ActCommand, ""},
		{"do you mind turning the alarm off", ActCommand, ""},
		{"is there a way to hide the tab bar", ActCommand, ""},
		{"is it possible to sort by size", ActCommand, ""},
		{"can you turn on dark mode?", ActCommand, ""},
		{"how big is my last photo", ActCommand, ""},
		{"how much storage do I have", ActCommand, ""},
		{"what is my snooze time", ActCommand, ""},
		{"who are my favourite contacts", ActCommand, ""},
		{"when is my next alarm", ActCommand, ""},
		{"i need a new checklist", ActCommand, ""},
		{"i want six columns", ActCommand, ""},
		{"i dont want the digits showing", ActCommand, ""},
		{"add event dinner, remind me 30 min before", ActCommand, ""},
		{"is", ActCommand, ""},
		{"", ActCommand, ""},
	} {
		act, task := SpeechAct(tc.text)
		if act != tc.act || task != tc.task {
			t.Errorf("SpeechAct(%q) = %q, %q; want %q, %q", tc.text, act, task, tc.act, tc.task)
		}
	}
}

func FuzzSpeechAct(f *testing.F) {
	for _, s := range []string{"is dark mode on?", "how do I x", "how to", "remind me", "I already", "\x00is"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// opening filler never changes the act
		a, _ := SpeechAct(s)
		if b, _ := SpeechAct("hey " + s); a != b {
			t.Errorf("%q is %q, %q is %q", s, a, "hey "+s, b)
		}
	})
}
