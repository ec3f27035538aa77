package intent

import (
	"maps"
	"slices"
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestTemplate(t *testing.T) {
	tests := []struct {
		name   string
		cmd    string
		typed  []TypedText
		intent string
		slots  []knowledge.Slot
	}{
		{"quoted and proper", "send 'hi' to Alice", []TypedText{{Text: "hi"}, {Text: "Alice"}},
			"send {text} to {name}", sl("text", "hi", "name", "Alice")},
		{"field labels", "send 'hi' to Alice", []TypedText{{Text: "hi", FieldLabel: "Message"}, {Text: "Alice", FieldLabel: "To"}},
			"send {message} to {name}", sl("message", "hi", "name", "Alice")},
		{"label with spaces", "add a contact named Carol", []TypedText{{Text: "Carol", FieldLabel: "First name"}},
			"add a contact named {first_name}", sl("first_name", "Carol")},
		{"time value", "Set an alarm for 7:30 am.", []TypedText{{Text: "7:30 am"}},
			"Set an alarm for {time}", sl("time", "7:30 am")},
		{"part of a time", "set an alarm for 7:30 am", []TypedText{{Text: "7:30"}},
			"set an alarm for {time} am", sl("time", "7:30")},
		{"case-insensitive", "create a note titled Groceries", []TypedText{{Text: "groceries"}},
			"create a note titled {title}", sl("title", "groceries")},
		{"naming word", "create a note called weekend plans", []TypedText{{Text: "weekend plans"}},
			"create a note called {name}", sl("name", "weekend plans")},
		{"search query", "search for pizza near me", []TypedText{{Text: "pizza"}},
			"search for {query} near me", sl("query", "pizza")},
		{"preceding noun", "rename the folder 'old' to 'archive 2'", []TypedText{{Text: "old"}, {Text: "archive 2"}},
			"rename the folder {folder} to {text}", sl("folder", "old", "text", "archive 2")},
		{"typed text not in command is literal", "add a new contact", []TypedText{{Text: "John"}},
			"add a new contact", nil},
		{"inside a word is not a slot", "call Alexander", []TypedText{{Text: "Alex"}},
			"call Alexander", nil},
		{"same text twice is one slot", "call Bob", []TypedText{{Text: "Bob"}, {Text: "bob"}},
			"call {name}", sl("name", "Bob")},
		{"noun before the value", "open the contact Bob", []TypedText{{Text: "Bob"}},
			"open the contact {contact}", sl("contact", "Bob")},
		{"repeated names get numbers", "send 'a b' and 'c d' to Zed", []TypedText{{Text: "a b"}, {Text: "c d"}},
			"send {text} and {text_2} to Zed", sl("text", "a b", "text_2", "c d")},
		{"curly quotes", "send “see you” to Bob", []TypedText{{Text: "see you"}, {Text: "Bob"}},
			"send {text} to {name}", sl("text", "see you", "name", "Bob")},
		{"empty typed text ignored", "open settings", []TypedText{{Text: "  "}},
			"open settings", nil},
		{"number", "set the volume to 40 percent", []TypedText{{Text: "40"}},
			"set the volume to {number} percent", sl("number", "40")},
		{"date", "remind me on 2024-05-03 to pay rent", []TypedText{{Text: "2024-05-03"}, {Text: "pay rent"}},
			"remind me on {date} to {text}", sl("date", "2024-05-03", "text", "pay rent")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			intent, slots := TemplateWithLabels(tt.cmd, tt.typed)
			if intent != tt.intent {
				t.Errorf("intent %q, want %q", intent, tt.intent)
			}
			if !slices.Equal(slots, tt.slots) {
				t.Errorf("slots %v, want %v", slots, tt.slots)
			}
		})
	}
	// Template is TemplateWithLabels without labels
	if i, s := Template("send 'hi' to Alice", []string{"hi", "Alice"}); i != "send {text} to {name}" || len(s) != 2 {
		t.Errorf("Template: %q %v", i, s)
	}
}

// A template learned from one command must match the same task with new
// values, and fill them.
func TestTemplateRoundTrip(t *testing.T) {
	tests := []struct {
		learned string
		typed   []TypedText
		next    string
		want    map[string]string
	}{
		{"send 'running late' to Alice", []TypedText{{"running late", "Message"}, {"Alice", "To"}},
			"send 'be there soon' to Robert", slots("message", "be there soon", "name", "Robert")},
		{"set an alarm for 6:15 am", []TypedText{{"6:15 am", ""}},
			"set an alarm for 9 pm", slots("time", "9 pm")},
		{"create a note titled packing list", []TypedText{{"packing list", "Title"}},
			"create a note titled birthday gifts", slots("title", "birthday gifts")},
		{"search contacts for Rivera", []TypedText{{"Rivera", ""}},
			"search contacts for Nakamura", slots("query", "Nakamura")},
	}
	for _, tt := range tests {
		intent, sls := TemplateWithLabels(tt.learned, tt.typed)
		f := knowledge.Flow{ID: 1, Package: "p", Intent: intent, Slots: sls, Commands: []string{tt.learned}, Steps: []knowledge.Step{{Action: "tap"}}}
		m := NewMatcher([]knowledge.Flow{f})
		cs := m.Rank(tt.next, "p", 1)
		if len(cs) == 0 || cs[0].Score < DefaultThreshold {
			t.Errorf("%q (template %q): not replayable: %+v", tt.next, intent, cs)
			continue
		}
		if !maps.Equal(cs[0].Slots, tt.want) {
			t.Errorf("%q (template %q): slots %v, want %v", tt.next, intent, cs[0].Slots, tt.want)
		}
	}
}

func FuzzTemplate(f *testing.F) {
	f.Add("send 'hi' to Alice", "hi", "Message")
	f.Add("set an alarm for 7:30 am", "7:30", "")
	f.Add("“x” ‘y’", "x", "{}")
	f.Add("İİİ", "i̇", "")
	f.Fuzz(func(t *testing.T, cmd, typed, label string) {
		intent, slots := TemplateWithLabels(cmd, []TypedText{{Text: typed, FieldLabel: label}})
		for _, s := range slots {
			if s.Name == "" {
				t.Fatalf("empty slot name for %q in %q", typed, cmd)
			}
		}
		_ = analyzeTemplate(intent)
	})
}
