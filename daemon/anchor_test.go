package daemon

import (
	"slices"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// anchorApp is a made-up e-reader with a tile-count dialog, a palette
// dialog, a sort dialog, a list-sort dialog, a contact list and two flows
// that pick from the same list of lengths.
func anchorApp() map[int64]*knowledge.Flow {
	const pkg = "org.example.reader"
	menu := &knowledge.Goal{Labels: []string{"Sort by", "Tile count", "Settings", "Book shelf widgets"}}
	colors := &knowledge.Goal{Labels: []string{"Palette", "Text color", "Background color", "Accent color"}}
	lengths := []string{"5 minutes", "1 minute", "10 minutes", "30 minutes", "1 hour", "Custom"}
	tap := func(label string, where *knowledge.Goal) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: descriptorOf(label), Where: where}
	}
	choice := func(slot string, where *knowledge.Goal, options ...string) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: descriptorOf(options[0]), Text: "{" + slot + "}", Choices: options, Where: where}
	}
	flows := []*knowledge.Flow{
		{ID: 1, Intent: "change the tile count to {number}", Slots: []knowledge.Slot{{Name: "number", Example: "3"}},
			Steps: []knowledge.Step{tap("More options", nil), tap("Tile count", menu), choice("number", nil, "3 tiles", "1 tile", "2 tiles", "4 tiles", "5 tiles")}},
		{ID: 2, Intent: "change the palette to {color}", Slots: []knowledge.Slot{{Name: "color", Example: "paper"}},
			Steps: []knowledge.Step{tap("Settings", menu), tap("Customize colors", nil), tap("Palette", colors), choice("color", nil, "Paper", "Blue", "Deep blue", "Sepia", "Night & Day")}},
		{ID: 3, Intent: "sort books by author in descending order",
			Steps: []knowledge.Step{tap("Sort by", menu), tap("Author", &knowledge.Goal{Labels: []string{"Author", "Ascending", "Descending"}}), tap("Descending", nil), tap("OK", nil)}},
		{ID: 4, Intent: "set the reminder delay to {time}", Slots: []knowledge.Slot{{Name: "time", Example: "5 minutes"}},
			Steps: []knowledge.Step{tap("Reminder delay", nil), choice("time", nil, lengths...)}},
		{ID: 5, Intent: "change the countdown length to {length}", Slots: []knowledge.Slot{{Name: "length", Example: "5 minutes"}},
			Steps: []knowledge.Step{tap("Countdown length", nil), choice("length", nil, lengths...)}},
		{ID: 6, Intent: "sort lists by {key}", Slots: []knowledge.Slot{{Name: "key", Example: "newest"}},
			Steps: []knowledge.Step{tap("Sort by", &knowledge.Goal{Labels: []string{"Start lists with the newest"}}), choice("key", nil, "Newest", "Oldest", "Biggest", "Smallest")}},
		{ID: 8, Intent: "sort shelves by {field}", Slots: []knowledge.Slot{{Name: "field", Example: "name"}},
			Steps: []knowledge.Step{tap("Shelf order", nil), choice("field", nil, "Name", "Size", "Date"),
				{Action: device.Tap, Target: descriptorOf("Ascending"), Options: []string{"Ascending", "Descending"}}, tap("OK", nil)}},
		{ID: 7, Intent: "message {contact} that {message}", Slots: []knowledge.Slot{{Name: "contact", Example: "Ann"}, {Name: "message", Example: "hi"}},
			Steps: []knowledge.Step{choice("contact", nil, "Ann", "Ben", "Cleo"), {Action: device.Input, Text: "{message}", Target: descriptorOf("Message")}}},
	}
	out := map[int64]*knowledge.Flow{}
	for _, f := range flows {
		f.Package, f.Name, f.Commands = pkg, f.Intent, []string{f.Intent}
		out[f.ID] = f
	}
	return out
}

func TestAnchorFlows(t *testing.T) {
	flows := anchorApp()
	var list []knowledge.Flow
	for _, f := range flows {
		list = append(list, *f)
	}
	m := intent.NewMatcherFor(list, map[string]string{"org.example.reader": "Book Shelf"})
	for _, tt := range []struct {
		name, command string
		want          int64  // 0: no flow
		slot, value   string // the anchored choice slot
		near          int64  // a flow to offer the owner, not replay (0: none checked)
	}{
		{"a new option and a noun of the flow", "2 tiles for the front page", 1, "number", "2", 0},
		{"a number word", "i want five tiles per row", 1, "number", "five", 0},
		{"the value first, no verb", "reader palette deep blue", 2, "color", "deep blue", 0},
		{"the app's name, not framed", "book shelf palette deep blue", 2, "color", "deep blue", 0},
		{"the learned option in other words", "reader colors: paper please", 2, "color", "paper", 0},
		{"another element of the same screen", "change the background color to deep blue", 0, "", "", 2},
		{"two requests, one of them another dialog's", "sort books by author and set 4 tiles", 0, "", "", 0},
		{"an option two flows offer, a word the flow lacks", "set the reminder to 10 minutes for the kitchen", 0, "", "", 0},
		{"an option two flows offer, a typo of the flow's word", "set the reminder delya to 10 minutes", 0, "", "", 0},
		{"an option two flows offer, every word the flow's", "set the reminder to 10 minutes", 4, "time", "10 minutes", 0},
		{"an option two flows offer, an action the flow says only by its concept", "add a reminder delay of 10 minutes", 0, "", "", 0},
		{"an option compared with, not asked for", "i want more tiles than 2 tiles", 0, "", "", 0},
		{"an option set aside for another", "the palette in sepia instead of deep blue", 2, "color", "sepia", 0},
		{"only the option's number", "set the alarm to 5 minutes", 0, "", "", 0},
		{"only a number, no word of the flow", "volume at 5 please", 0, "", "", 0},
		{"a negation", "don't use 2 tiles", 0, "", "", 0},
		{"another verb", "start lists with the oldest", 0, "", "", 0},
		{"a verb the vocabulary does not know", "flag the deep blue palette", 0, "", "", 0},
		{"the option's own word first", "sepia the palette", 2, "color", "sepia", 0},
		{"a flow that types a value", "message ben that i am late", 0, "", "", 0},
		{"no option named", "change the palette to purple", 0, "", "", 0},
		{"a value no option holds", "move photo1.jpg to 2 tiles", 0, "", "", 0},
		{"the options' unit called by another word", "change the row count to 3", 0, "", "", 1},
		{"an option of the flow's other group meant, not said", "sort shelves by size, z to a", 0, "", "", 0},
		{"the flow's other group left as learned", "sort shelves by size", 8, "field", "size", 0},
		{"the unit as written, another word beside it", "change the tile count to 3 on the front page", 1, "number", "3", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			all, why := anchorFlows(tt.command, "org.example.reader", "Book Shelf", m, flows)
			as, near := passing(all)
			if tt.near != 0 && (len(near) == 0 || near[0].cand.FlowID != tt.near) {
				t.Errorf("near anchors %+v, want flow %d offered", near, tt.near)
			}
			if tt.want == 0 {
				if len(as) > 0 {
					t.Fatalf("anchored flow %d (%v), want none", as[0].cand.FlowID, as[0].options)
				}
				return
			}
			if len(as) != 1 || as[0].cand.FlowID != tt.want {
				t.Fatalf("anchors %+v, want flow %d only; refused: %s", as, tt.want, strings.Join(why, "; "))
			}
			if got := as[0].cand.Slots[tt.slot]; got != tt.value {
				t.Errorf("{%s} = %q, want %q", tt.slot, got, tt.value)
			}
		})
	}
}

// TestAnchorOnNumbersAsRead: the anchor reads the command as flow
// matching does (numbers said in words as digits): "twenty five tiles"
// names no option of 1 to 5 tiles, where its "five" alone would.
func TestAnchorOnNumbersAsRead(t *testing.T) {
	flows := anchorApp()
	var list []knowledge.Flow
	for _, f := range flows {
		list = append(list, *f)
	}
	m := intent.NewMatcherFor(list, map[string]string{"org.example.reader": "Book Shelf"})
	for _, tc := range []struct {
		said string
		want int64
	}{
		{"i want twenty five tiles per row", 0},
		{"i want a hundred and five tiles per row", 0},
		{"i want five tiles per row", 1},
	} {
		said, _ := readDigitNames(tc.said, nil)
		all, _ := anchorFlows(said, "org.example.reader", "Book Shelf", m, flows)
		as, _ := passing(all)
		got := int64(0)
		if len(as) > 0 {
			got = as[0].cand.FlowID
		}
		if got != tc.want {
			t.Errorf("%q read as %q: anchored flow %d, want %d", tc.said, said, got, tc.want)
		}
	}
}

func TestAnchorsOfRewritesToTheLearnedOption(t *testing.T) {
	f := anchorApp()[2]
	rewritten, options, _, _, ok := anchorsOf("Reader palette Deep blue, please", f, nil)
	if !ok || rewritten != "Reader palette paper, please" || options["color"] != "Deep blue" {
		t.Fatalf("anchorsOf = %q %v %v", rewritten, options, ok)
	}
	if _, _, _, _, ok := anchorsOf("blue palette, not sepia", f, nil); ok {
		t.Error("two options named: no anchor")
	}
	if _, _, _, common, ok := anchorsOf("sepia palette", f, map[string]bool{"sepia": true}); !ok || !common {
		t.Error("an option other flows offer too is not said to be common")
	}
}

func descriptorOf(label string) screen.Descriptor {
	return screen.Descriptor{Class: "android.widget.TextView", Text: label}
}

func TestOtherAction(t *testing.T) {
	for _, tt := range []struct {
		command               string
		extra, flowLone, said []string
		want                  bool
	}{
		{"start lists with the oldest", []string{"start", "lists"}, []string{"sort"}, nil, true},
		{"reader text size 120%", []string{"reader", "text"}, []string{"adjust"}, nil, false}, // "text" is a noun here
		{"delete the 2 tiles", []string{"delete"}, nil, nil, true},                            // a strong action word
		{"reader palette deep blue", []string{"reader"}, []string{"change"}, nil, false},
		{"show 5 tiles", []string{"show"}, nil, nil, false}, // the flow leaves out no verb
		// a verb the vocabulary does not know, before an article
		{"eject the sepia palette", []string{"eject"}, []string{"change"}, []string{"sepia"}, true},
		{"sepia the palette", []string{"sepia"}, []string{"change"}, []string{"sepia"}, false},   // the option's word
		{"eject sepia palette", []string{"eject"}, []string{"change"}, []string{"sepia"}, false}, // no article: maybe a noun
	} {
		if got := otherAction(tt.command, tt.extra, tt.flowLone, tt.said); got != tt.want {
			t.Errorf("otherAction(%q) = %v, want %v", tt.command, got, tt.want)
		}
	}
}

// FuzzAnchorsOf: any command against any option group is rewritten
// without a panic, and what it says of an option is its own words.
func FuzzAnchorsOf(f *testing.F) {
	f.Add("reader palette Deep blue, please", "Paper|Blue|Deep blue|Sepia")
	f.Add("i want six tiles", "3 tiles|1 tile|6 tiles")
	f.Add("sort a–z ascending", "Ascending|Descending")
	f.Add("ümlaut ÄÖÜ 'quoted' 5%", "Größe|Ä|5%")
	f.Fuzz(func(t *testing.T, command, labels string) {
		if len(command) > 1000 || len(labels) > 1000 {
			return
		}
		opts := strings.Split(labels, "|")
		fl := &knowledge.Flow{Steps: []knowledge.Step{
			{Action: device.Tap, Text: "{v}", Choices: opts},
			{Action: device.Tap, Options: opts},
		}}
		rewritten, options, picks, _, ok := anchorsOf(command, fl, nil)
		if !ok {
			return
		}
		for _, said := range options {
			if !strings.Contains(command, said) {
				t.Errorf("option words %q are not the command's %q", said, command)
			}
		}
		for _, said := range picks {
			if !strings.Contains(command, said) {
				t.Errorf("picked words %q are not the command's %q", said, command)
			}
		}
		_ = rewritten
	})
}

// passing splits anchors into those that replay and those only offered.
func passing(all []anchor) (pass, near []anchor) {
	for _, a := range all {
		if a.near {
			near = append(near, a)
		} else {
			pass = append(pass, a)
		}
	}
	return pass, near
}

func TestPickedOptions(t *testing.T) {
	f := anchorApp()[2] // {color} among Paper, Blue, Deep blue, Sepia, Night & Day
	for _, tt := range []struct {
		command string
		slots   map[string]string
		want    []string
	}{
		{"reader palette deep blue", nil, []string{`"Deep blue"`}},
		{"palette it please", map[string]string{"color": "sepia"}, []string{`"Sepia"`}},
		{"palette it please", nil, nil}, // names none: the replay would stop, so nothing is shown
	} {
		if got := pickedOptions(f, tt.command, tt.slots); !slices.Equal(got, tt.want) {
			t.Errorf("pickedOptions(%q, %v) = %q, want %q", tt.command, tt.slots, got, tt.want)
		}
	}
}

func TestStrayValue(t *testing.T) {
	for _, tt := range []struct {
		command, said, want string
	}{
		{"reader text size 120%", "120", ""},
		{"set 5 tiles and 50% quality", "5", "50%"},
		{"copy clip7.mp4 to the memory card", "memory card", "clip7.mp4"},
		{"i want five tiles", "five", ""},
		{"rename it to 'holiday'", "five", "holiday"},
	} {
		if got := strayValue(tt.command, map[string]string{"v": tt.said}, nil); got != tt.want {
			t.Errorf("strayValue(%q, %q) = %q, want %q", tt.command, tt.said, got, tt.want)
		}
	}
}
