package graphplan

import (
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// TestMessageValue: the text after "that" or ":" right after a recipient's
// name is the message, to the command's end; "that" after anything else
// starts a clause saying which thing, and quotes say where the text is.
func TestMessageValue(t *testing.T) {
	for _, tc := range []struct {
		cmd, want string
		ok        bool
	}{
		{"text Ada that the train is late", "the train is late", true},
		{"message Ada: see you at 8!", "see you at 8", true},
		{"tell Ada Lovelace that I-am-on-my-way.", "I-am-on-my-way", true},
		{"text ada that the train is late", "the train is late", true}, // the recipient in lower case, right after the verb
		{"sms ada: see you at 8", "see you at 8", true},
		{"share photo that I took", "", false}, // a thing of the vocabulary, no recipient
		{"text the crew that I am late", "", false},
		{"delete the note that I wrote", "", false},
		{"text Ada that 'the train is late'", "", false},
		{"text Ada that", "", false},
		{"text Ada that one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen", "", false},
		// nothing between a recipient the app shows and the text
		{"text ada running late be there in 10", "running late be there in 10", true},
		{"message Ada lunch at 1?", "lunch at 1?", true},
		{"text ada the address", "", false},
		{"text ada on the work phone", "", false},
		{"text ada and say hi", "", false},
		{"text ada now", "", false},
		{"text vera running late", "", false}, // a name the app does not show
		{"messages row height large", "", false},
	} {
		v, ok := messageValue(tc.cmd, intent.Understand(tc.cmd).Values, func(t term) bool { return t == "ada" || t == "row" })
		if ok != tc.ok || v.Text != tc.want || ok && tc.cmd[v.Start:v.End] != tc.want {
			t.Errorf("messageValue(%q) = %q, %v; want %q, %v", tc.cmd, v.Text, ok, tc.want, tc.ok)
		}
	}
	// the message is typed as written, and its words are no terms to find
	rs := newRunState("text Ada that the train is late", "")
	if len(rs.values) != 1 || rs.values[0].text != "the train is late" || !rs.values[0].quoted || !rs.values[0].names {
		t.Errorf("values %+v, want the message as a named value", rs.values)
	}
	for _, ct := range rs.terms {
		if ct.t == "train" || ct.t == "late" {
			t.Errorf("term %q of the message left to find", ct.t)
		}
	}
}

// TestMessageAsVerb: a message's name as the command's verb ("sms Ada
// …") sends what the command gives to send; a command that only names
// messages sends nothing.
func TestMessageAsVerb(t *testing.T) {
	for _, tc := range []struct {
		cmd   string
		sends bool
	}{
		{"sms Ada 'the train is late'", true},
		{"message Ada: the train is late", true},
		{"message ada saying see you soon", true},
		{"messages row height large", false},
		{"sms night mode on", false},
		{"message row height to tall", false},
		{"messages: mark all as read", false},
		{"open the note 'sms drafts'", false}, // not the verb
	} {
		if got := newRunState(tc.cmd, "").sends; got != tc.sends {
			t.Errorf("%q: sends %v, want %v", tc.cmd, got, tc.sends)
		}
	}
}

// FuzzMessageValue: any command is read without a panic, and a message
// found is the command's own text, 1 to maxMessageWords words.
func FuzzMessageValue(f *testing.F) {
	for _, s := range []string{"text ada that the train is late", "sms Ada: see you", "message ada saying hi", "text :", "sms a: ", "text x that"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		u := intent.Understand(cmd)
		messageAsVerb(cmd, u)
		v, ok := messageValue(cmd, u.Values, func(t term) bool { return len(t)%2 == 0 })
		if !ok {
			return
		}
		if v.Start < 0 || v.End > len(cmd) || v.Start >= v.End || cmd[v.Start:v.End] != v.Text {
			t.Fatalf("messageValue(%q) = %+v: not the command's own text", cmd, v)
		}
		if n := len(strings.Fields(v.Text)); n == 0 || n > maxMessageWords {
			t.Fatalf("messageValue(%q) = %q: %d words", cmd, v.Text, n)
		}
	})
}
