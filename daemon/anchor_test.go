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

// anchorApp is a made-up launcher with a column-count dialog, a theme
// dialog, a sort dialog, a contact list and two flows that pick from the
// same list of lengths.
func anchorApp() map[int64]*knowledge.Flow {
	const pkg = "org.example.launcher"
	menu := &knowledge.Goal{Labels: []string{"Sort by", "Column count", "Settings", "Home screen widgets"}}
	colors := &knowledge.Goal{Labels: []string{"Theme", "Text color", "Background color", "Primary color"}}
	lengths := []string{"5 minutes", "1 minute", "10 minutes", "30 minutes", "1 hour", "Custom"}
	tap := func(label string, where *knowledge.Goal) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: descriptorOf(label), Where: where}
	}
	choice := func(slot string, where *knowledge.Goal, options ...string) knowledge.Step {
		return knowledge.Step{Action: device.Tap, Target: descriptorOf(options[0]), Text: "{" + slot + "}", Choices: options, Where: where}
	}
	flows := []*knowledge.Flow{
		{ID: 1, Intent: "change column count to {number}", Slots: []knowledge.Slot{{Name: "number", Example: "3"}},
			Steps: []knowledge.Step{tap("More options", nil), tap("Column count", menu), choice("number", nil, "3 columns", "1 column", "2 columns", "4 columns", "5 columns")}},
		{ID: 2, Intent: "change theme color to {color}", Slots: []knowledge.Slot{{Name: "color", Example: "light"}},
			Steps: []knowledge.Step{tap("Settings", menu), tap("Customize colors", nil), tap("Theme", colors), choice("color", nil, "Light", "Dark", "Dark red", "White", "Black & White")}},
		{ID: 3, Intent: "sort apps by title in descending order",
			Steps: []knowledge.Step{tap("Sort by", menu), tap("Title", &knowledge.Goal{Labels: []string{"Title", "Ascending", "Descending"}}), tap("Descending", nil), tap("OK", nil)}},
		{ID: 4, Intent: "set the snooze time to {time}", Slots: []knowledge.Slot{{Name: "time", Example: "5 minutes"}},
			Steps: []knowledge.Step{tap("Snooze time", nil), choice("time", nil, lengths...)}},
		{ID: 5, Intent: "change the timer length to {length}", Slots: []knowledge.Slot{{Name: "length", Example: "5 minutes"}},
			Steps: []knowledge.Step{tap("Timer length", nil), choice("length", nil, lengths...)}},
		{ID: 6, Intent: "sort contacts by {key}", Slots: []knowledge.Slot{{Name: "key", Example: "first name"}},
			Steps: []knowledge.Step{tap("Sort by", &knowledge.Goal{Labels: []string{"Start name with surname"}}), choice("key", nil, "First name", "Middle name", "Surname", "Full name")}},
		{ID: 7, Intent: "text {contact} that {message}", Slots: []knowledge.Slot{{Name: "contact", Example: "Alice"}, {Name: "message", Example: "hi"}},
			Steps: []knowledge.Step{choice("contact", nil, "Alice", "Bob", "Jack"), {Action: device.Input, Text: "{message}", Target: descriptorOf("Message")}}},
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
	m := intent.NewMatcherFor(list, map[string]string{"org.example.launcher": "Home Screen"})
	for _, tt := range []struct {
		name, command string
		want          int64  // 0: no flow
		slot, value   string // the anchored choice slot
		near          int64  // a flow to offer the owner, not replay (0: none checked)
	}{
		{"a new option and a noun of the flow", "2 columns for the app drawer", 1, "number", "2", 0},
		{"a number word", "i want five columns of apps", 1, "number", "five", 0},
		{"the value first, no verb", "launcher theme dark red", 2, "color", "dark red", 0},
		{"the app's name, not framed", "home screen theme dark red", 2, "color", "dark red", 0},
		{"the learned option in other words", "launcher colors: light please", 2, "color", "light", 0},
		{"another element of the same screen", "change the background color to dark red", 0, "", "", 2},
		{"two requests, one of them another dialog's", "sort apps by title and set 4 columns", 0, "", "", 0},
		{"an option two flows offer, a word the flow lacks", "set the snooze to 10 minutes for the kitchen", 0, "", "", 0},
		{"an option two flows offer, a typo of the flow's word", "set the snooze tine to 10 minutes", 0, "", "", 0},
		{"an option two flows offer, every word the flow's", "set the snooze to 10 minutes", 4, "time", "10 minutes", 0},
		{"only the option's number", "set the alarm to 5 minutes", 0, "", "", 0},
		{"only a number, no word of the flow", "volume at 5 please", 0, "", "", 0},
		{"a negation", "don't use 2 columns", 0, "", "", 0},
		{"another verb", "start names with the surname", 0, "", "", 0},
		{"a flow that types a value", "text bob that i am late", 0, "", "", 0},
		{"no option named", "change the theme to purple", 0, "", "", 0},
		{"a value no option holds", "move photo1.jpg to 2 columns", 0, "", "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			all, why := anchorFlows(tt.command, "org.example.launcher", "Home Screen", m, flows)
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

func TestAnchorsOfRewritesToTheLearnedOption(t *testing.T) {
	f := anchorApp()[2]
	rewritten, options, _, _, ok := anchorsOf("Launcher theme Dark red, please", f, nil)
	if !ok || rewritten != "Launcher theme light, please" || options["color"] != "Dark red" {
		t.Fatalf("anchorsOf = %q %v %v", rewritten, options, ok)
	}
	if _, _, _, _, ok := anchorsOf("dark theme, not white", f, nil); ok {
		t.Error("two options named: no anchor")
	}
	if _, _, _, common, ok := anchorsOf("dark theme", f, map[string]bool{"dark": true}); !ok || !common {
		t.Error("an option other flows offer too is not said to be common")
	}
}

func descriptorOf(label string) screen.Descriptor {
	return screen.Descriptor{Class: "android.widget.TextView", Text: label}
}

func TestOtherAction(t *testing.T) {
	for _, tt := range []struct {
		command         string
		extra, flowLone []string
		want            bool
	}{
		{"start names with the surname", []string{"start", "names"}, []string{"sort"}, true},
		{"notes text size 200%", []string{"notes", "text"}, []string{"adjust"}, false}, // "text" is a noun here
		{"delete the 2 columns", []string{"delete"}, nil, true},                        // a strong action word
		{"launcher theme dark red", []string{"launcher"}, []string{"change"}, false},
		{"show 5 columns", []string{"show"}, nil, false}, // the flow leaves out no verb
	} {
		if got := otherAction(tt.command, tt.extra, tt.flowLone); got != tt.want {
			t.Errorf("otherAction(%q) = %v, want %v", tt.command, got, tt.want)
		}
	}
}

// FuzzAnchorsOf: any command against any option group is rewritten
// without a panic, and what it says of an option is its own words.
func FuzzAnchorsOf(f *testing.F) {
	f.Add("launcher theme Dark red, please", "Light|Dark|Dark red|White")
	f.Add("i want six columns", "3 columns|1 column|6 columns")
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
	f := anchorApp()[2] // {color} among Light, Dark, Dark red, White, Black & White
	for _, tt := range []struct {
		command string
		slots   map[string]string
		want    []string
	}{
		{"launcher theme dark red", nil, []string{`"Dark red"`}},
		{"theme it please", map[string]string{"color": "white"}, []string{`"White"`}},
		{"theme it please", nil, nil}, // names none: the replay would stop, so nothing is shown
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
		{"notes text size 200%", "200", ""},
		{"set 5 columns and 50% quality", "5", "50%"},
		{"move video1.mp4 to the sd card", "sd card", "video1.mp4"},
		{"i want five columns", "five", ""},
		{"rename it to 'holiday'", "five", "holiday"},
	} {
		if got := strayValue(tt.command, map[string]string{"v": tt.said}, nil); got != tt.want {
			t.Errorf("strayValue(%q, %q) = %q, want %q", tt.command, tt.said, got, tt.want)
		}
	}
}
