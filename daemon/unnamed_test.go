package daemon

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// TestUnnamedValue: a value of a slot the flow introduces with a naming
// word ("a list named {title}") must be set apart in the command too — by
// a naming word, a colon or quotes — or which words are the name is a
// guess, and the replay is offered instead. So must a typed value the
// command introduces, unquoted, by "as" where the flow has another
// preposition: "set the list as groceries" is not what "rename the list
// to {title}" does.
func TestUnnamedValue(t *testing.T) {
	named := &knowledge.Flow{Intent: "create a list named {title}", Slots: []knowledge.Slot{{Name: "title", Example: "chores"}}}
	plain := &knowledge.Flow{Intent: "rename the list to {title}", Slots: []knowledge.Slot{{Name: "title", Example: "chores"}},
		Steps: []knowledge.Step{{Action: "tap", Text: "Rename"}, {Action: "input", Text: "{title}"}}}
	file := &knowledge.Flow{Intent: "export the list to {title}.csv", Slots: []knowledge.Slot{{Name: "title", Example: "chores"}},
		Steps: []knowledge.Step{{Action: "input", Text: "{title}"}}}
	picked := &knowledge.Flow{Intent: "sort the list by {title}", Slots: []knowledge.Slot{{Name: "title", Example: "size"}},
		Steps: []knowledge.Step{{Action: "tap", Text: "{title}", Choices: []string{"Size", "Name"}}}}
	for _, tt := range []struct {
		name, command string
		f             *knowledge.Flow
		value         string
		want          bool
	}{
		{"no naming word before the value", "make the lists text 90 percent", named, "90 percent", true},
		{"a naming word", "make a list called groceries", named, "groceries", false},
		{"a colon", "new list: groceries", named, "groceries", false},
		{"quotes", "create a list 'groceries'", named, "groceries", false},
		{"a slot the flow does not name", "rename the list groceries", plain, "groceries", false},
		{"no value", "make a list", named, "", false},
		{"another preposition than the flow's", "set the list as groceries", plain, "groceries", true},
		{"the flow's preposition", "change the list to groceries", plain, "groceries", false},
		{"another preposition, neither of them as", "change the list into groceries", plain, "groceries", false},
		{"another preposition, quoted", "set the list as 'groceries'", plain, "groceries", false},
		{"another preposition before a file name", "export the list as groceries.csv", file, "groceries", false},
		{"another preposition before a picked value", "sort the list on size", picked, "size", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, got := unnamedValue(tt.f, tt.command, map[string]string{"title": tt.value})
			if got != tt.want {
				t.Errorf("unnamedValue(%q) = %v, want %v", tt.command, got, tt.want)
			}
		})
	}
}

// TestFileInValue: a typed value holding a file name among other words,
// which the slot's example never had and the command does not set apart,
// names a file to attach or open, not text to type; a file name that is
// the whole value, or one the command quotes or names, is typed.
func TestFileInValue(t *testing.T) {
	message := &knowledge.Flow{Intent: "send Dora {text}", Slots: []knowledge.Slot{{Name: "text", Example: "see you"}},
		Steps: []knowledge.Step{{Action: "tap", Text: "Dora"}, {Action: "input", Text: "{text}"}}}
	export := &knowledge.Flow{Intent: "export the list as {file}", Slots: []knowledge.Slot{{Name: "file", Example: "chores.csv"}},
		Steps: []knowledge.Step{{Action: "input", Text: "{file}"}}}
	picked := &knowledge.Flow{Intent: "open {file}", Slots: []knowledge.Slot{{Name: "file", Example: "notes"}},
		Steps: []knowledge.Step{{Action: "tap", Text: "{file}", Choices: []string{"notes", "pics"}}}}
	for _, tt := range []struct {
		name, command string
		f             *knowledge.Flow
		value         string
		want          bool
	}{
		{"a file among the words of a message", "send Dora the photo beach.jpg", message, "the photo beach.jpg", true},
		{"a message without a file", "send Dora the photo of the beach", message, "the photo of the beach", false},
		{"the file quoted", "send Dora 'the photo beach.jpg'", message, "the photo beach.jpg", false},
		{"the message named", "send Dora a text saying look at beach.jpg", message, "look at beach.jpg", false},
		{"the file name alone", "send Dora beach.jpg", message, "beach.jpg", false},
		{"an example with a file name", "export the list as my chores.csv", export, "my chores.csv", false},
		{"a picked value", "open the file beach.jpg", picked, "the file beach.jpg", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			slot := tt.f.Slots[0].Name
			if _, got := fileInValue(tt.f, tt.command, map[string]string{slot: tt.value}); got != tt.want {
				t.Errorf("fileInValue(%q, {%s: %q}) = %v, want %v", tt.command, slot, tt.value, got, tt.want)
			}
		})
	}
}
