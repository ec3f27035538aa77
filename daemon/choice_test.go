package daemon

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func TestChoiceSlots(t *testing.T) {
	cols := []string{"3 tiles", "1 tile", "2 tiles", "4 tiles", "5 tiles"}
	theme := []string{"Light", "Dark", "System default"}
	views := []string{"Timeline layout", "Board layout", "Grid layout", "List layout"}
	nested := []string{"Week and Start time", "Manual order", "Start time"}
	for _, tt := range []struct {
		name, command string
		labels        []string
		value         string // choiceValue at learn time
		pick          int    // pickByCommand at replay
	}{
		{"count", "change tile count to 3", cols, "3", 0},
		{"other count", "change tile count to 5", cols, "", 4},
		{"theme", "set the theme to light", theme, "light", 0},
		{"other theme", "make it dark", theme, "", 1},
		{"two options named: no slot", "change the layout from board to timeline", views, "", -1},
		{"no option named", "set the theme to purple", theme, "", -1},
		{"too few options", "pick light", []string{"Light", "Dark"}, "", -1},
		// an option whose words are all another's: named by them when the
		// other's own words are missing, not passed over for an option
		// one word of the command's verb shares
		{"an option inside another", "order the timers by start time", nested, "", 2},
		{"the option around it", "order the timers by week and start time", nested, "week and", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := choiceValue(tt.command, tt.labels); got != tt.value && tt.name != "other count" && tt.name != "other theme" {
				t.Errorf("choiceValue = %q, want %q", got, tt.value)
			}
			if got := pickByCommand(tt.labels, tt.command); got != tt.pick {
				t.Errorf("pickByCommand = %d, want %d", got, tt.pick)
			}
		})
	}
	f := &knowledge.Flow{Intent: "set the theme to {theme}", Steps: []knowledge.Step{{Action: "tap", Text: "{theme}", Choices: theme}}}
	if _, unknown := unknownChoice(f, "set the theme to purple", map[string]string{"theme": "purple"}, nil); !unknown {
		t.Error("a command naming no known option must not replay the flow")
	}
	if _, unknown := unknownChoice(f, "set the theme to dark", map[string]string{"theme": "dark"}, nil); unknown {
		t.Error("a known option was refused")
	}
}

// TestChoiceNamedByStemsAndNumbers: an option is named by stems and
// number words ("45 sec", "five"), by part of its words when no other
// option has them, and "dark blue" names "Dark blue", not "Dark".
func TestChoiceNamedByStemsAndNumbers(t *testing.T) {
	delay := []string{"45 seconds", "1 second", "5 seconds", "15 seconds", "1 hour", "Custom"}
	cols := []string{"5 per row", "1 per row", "2 per row", "3 per row", "4 per row"}
	theme := []string{"Light", "Sepia", "Dark", "Dark blue", "White"}
	for _, tt := range []struct {
		name, command string
		labels        []string
		value         string // choiceValue at learn time
		pick          int    // pickByCommand at replay
	}{
		{"part of the words, unique", "change the delay to 45 sec", delay, "45", 0},
		{"a stem", "delay it 1 seconds", delay, "", 1},
		{"a number word", "show five items per row", cols, "five", 0},
		{"a shared part names nothing", "delay it 1", delay, "", -1},
		{"all the words of one of two", "delay it 1 hour", delay, "", 4},
		{"the longer of two full matches", "make the theme dark blue", theme, "", 3},
		{"a word of another option too: no value", "from light to dark", []string{"Light", "Dark", "System default"}, "", -1},
		{"a period's adjective named by its unit", "show the planner by week", []string{"Yearly planner", "Monthly planner", "Weekly planner", "Daily planner"}, "", 2},
		{"every day names Daily", "repeat it every day", []string{"Never", "Daily", "Weekly", "Monthly"}, "", 1},
		{"& is and, in a command", "sort timers by week & start time", []string{"Start time", "Week and Start time", "Time added"}, "", 1},
		{"& is and, in a label", "sort them by day and start time", []string{"Start time", "Day & Start time", "Date added"}, "", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := choiceValue(tt.command, tt.labels); got != tt.value {
				t.Errorf("choiceValue = %q, want %q", got, tt.value)
			}
			if got := pickByCommand(tt.labels, tt.command); got != tt.pick {
				t.Errorf("pickByCommand = %d, want %d", got, tt.pick)
			}
		})
	}
	if got := pickChoice(delay, "15"); got != 3 {
		t.Errorf("pickChoice(15) = %d, want 3", got)
	}
	if got := pickChoice(delay, "1"); got != -1 {
		t.Errorf("pickChoice(1) = %d, want -1 (1 second or 1 hour)", got)
	}
}

// TestPeersPreferTheRadioGroup: a dialog with two radio groups (sort by
// name / size / date, and ascending / descending) under one layout: an
// option's peers are its own group's when it has three or more, else the
// whole dialog's.
func TestPeersPreferTheRadioGroup(t *testing.T) {
	radio := func(text string, top int) string {
		return `<node text="` + text + `" class="android.widget.RadioButton" checkable="true" clickable="true" enabled="true" bounds="[0,` + strconv.Itoa(top) + `][500,` + strconv.Itoa(top+90) + `]"/>`
	}
	xml := `<?xml version="1.0"?><hierarchy rotation="0"><node class="android.widget.LinearLayout" bounds="[0,0][1080,1000]">` +
		`<node class="android.widget.RadioGroup" bounds="[0,0][1080,300]">` + radio("Name", 0) + radio("Size", 100) + radio("Date", 200) + `</node>` +
		`<node class="android.widget.RadioGroup" bounds="[0,400][1080,600]">` + radio("Ascending", 400) + radio("Descending", 500) + `</node>` +
		`</node></hierarchy>`
	s, err := screen.ParseUIAutomator([]byte(xml))
	if err != nil {
		t.Fatal(err)
	}
	find := func(label string) *screen.Element {
		for _, el := range screen.Elements(s) {
			if el.Label == label {
				return &el
			}
		}
		t.Fatalf("no element %q", label)
		return nil
	}
	if got := peers(s, find("Size")); !slices.Equal(got, []string{"Size", "Name", "Date"}) {
		t.Errorf("peers(Size) = %q, want its own group", got)
	}
	if got := peers(s, find("Descending")); len(got) != 5 || got[0] != "Descending" {
		t.Errorf("peers(Descending) = %q, want the whole dialog (its group has 2)", got)
	}
	if v := choiceValue("sort by size in descending order", peers(s, find("Size"))); v != "size" {
		t.Errorf("choiceValue with the other group's word = %q, want size", v)
	}
}

// TestRunOnValue: a slot value at more than twice its example's words
// (and more than 2) has swallowed another requirement when it runs on over
// a date, time or number its example never had, or when the command does
// not set it apart (quotes, or a naming word or colon before it and
// nothing after it); a long value so set apart, of the same kind as its
// example, or a short one, has not.
func TestRunOnValue(t *testing.T) {
	f := &knowledge.Flow{Name: "f", Intent: "add event {title}", Slots: []knowledge.Slot{{Name: "title", Example: "standup"}}}
	msg := &knowledge.Flow{Name: "m", Intent: "remind me at {when}", Slots: []knowledge.Slot{{Name: "when", Example: "7:30 on monday"}}}
	txt := &knowledge.Flow{Name: "t", Intent: "text Tamsin that {body}", Slots: []knowledge.Slot{{Name: "body", Example: "hello"}}}
	for _, tt := range []struct {
		name           string
		f              *knowledge.Flow
		command, value string
		want           bool
	}{
		{"a date and a reminder swallowed", f, "add event dinner with mom on july 14, remind me 30 min before", "dinner with mom on july 14, remind me 30 min before", true},
		{"a date swallowed, quoted", f, "add event 'dinner on july 14 at 8'", "dinner on july 14 at 8", true},
		{"a long title, named", f, "add an event called dinner with mom and the kids", "dinner with mom and the kids", false},
		{"a long title after a colon", f, "new event: dinner with mom and the kids.", "dinner with mom and the kids", false},
		{"a long title, quoted", f, "add event \"dinner with mom and the kids\" please", "dinner with mom and the kids", false},
		{"a long title, not set apart", f, "add event dinner with mom and the kids", "dinner with mom and the kids", true},
		{"a requirement after the name", f, "add an event called yoga repeating every day", "yoga repeating every day", false},
		{"a naming word inside the value", f, "add a new event type called sports", "type called sports", true},
		{"words after a named value: where it ends is a guess", f, "add an event called dinner with mom tomorrow please", "dinner with mom", true},
		{"a short title with a number", f, "add event gym 2", "gym 2", false},
		{"another action after a named value", f, "add an event called dinner with mom and delete it", "dinner with mom and delete it", true},
		{"another action, quoted: part of the name", f, "add an event called 'dinner and delete it'", "dinner and delete it", false},
		{"a date where the example had one", msg, "remind me at 8:15 on the first friday of june next year please", "8:15 on the first friday of june next year please", false},
		{"no value for the slot", f, "add event", "", false},
		{"a message's text with a time, after saying", txt, "send Orla a text saying see you at 8", "see you at 8", false},
		{"a message's text with more after it", txt, "send Orla a text saying see you at 8 and call her", "see you at 8", true},
		{"a message's text with a time, quoted", txt, "shoot Orla a text: 'see you at 8'", "see you at 8", false},
		{"a message's text with a time, unquoted", txt, "shoot Orla a text see you at 8 tonight", "see you at 8 tonight", true},
	} {
		slots := map[string]string{}
		if tt.value != "" {
			slots[tt.f.Slots[0].Name] = tt.value
		}
		if _, _, got := runOnValue(tt.f, tt.command, slots); got != tt.want {
			t.Errorf("%s: runOnValue = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestPickOptionByMeaning: an option is picked word for word first, by
// meaning only when no word names one, and by meaning only when the
// naming phrase shares a word with the label (a word the list lacks lands
// near a neighbour, which the model cannot tell from a synonym).
func TestPickOptionByMeaning(t *testing.T) {
	at := func(a float64) []float32 { return []float32{float32(math.Cos(a)), float32(math.Sin(a)), 0} }
	vecs := map[string][]float32{
		"aerial view": at(0), "aerial": at(0), "Satellite view": at(0.3), "Satellite": at(0.3),
		"Terrain view": at(1), "Terrain": at(1), "Default view": at(-1.2), "Default": at(-1.2),
		"memo1.ogg": at(2), "memo2.ogg": at(2.6), "plan.txt": at(-2.5), "first memo": at(2), "the first memo": at(2), "memo": at(2),
	}
	fake := semantic.Func{Model: "fake", Fn: func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, s := range texts {
			if v, ok := vecs[s]; ok {
				out[i] = v
			} else {
				out[i] = []float32{0, 0, 1}
			}
		}
		return out, nil
	}}
	sem := semantic.New(fake, nil, semantic.Config{ChoiceMinCosine: 0.85, ChoiceMargin: 0.08})
	views := []string{"Default view", "Satellite view", "Terrain view"}
	bare := []string{"Default", "Satellite", "Terrain"}
	memos := []string{"memo1.ogg", "memo2.ogg", "plan.txt"}
	for _, tt := range []struct {
		name    string
		command string
		readAs  string // the command as flow matching read it
		labels  []string
		sem     *semantic.Rescorer
		want    int
	}{
		{"word for word", "show the terrain view", "", views, sem, 2},
		{"by meaning, sharing a word", "show the aerial view", "", views, sem, 1},
		{"by meaning, sharing no word", "show it aerial", "", bare, sem, -1},
		{"no model", "show the aerial view", "", views, nil, -1},
		// the command as the flows write it names the row ("memo one.ogg"
		// matched as "memo1.ogg")
		{"read as the flows write it", "play memo one.ogg", "play memo1.ogg", memos, nil, 0},
		// a numbered item is named by its number, never by meaning
		{"a numbered row by meaning", "play the first memo", "", memos, sem, -1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run{e: &Engine{bus: event.NewBus()}, res: &Result{Command: tt.command}, sem: tt.sem, readAs: tt.readAs}
			if got := r.pickOption(context.Background(), tt.labels, ""); got != tt.want {
				t.Errorf("pickOption(%q) = %d, want %d", tt.command, got, tt.want)
			}
			if tt.readAs != "" {
				return // unknownChoice reads the command as said
			}
			f := &knowledge.Flow{Steps: []knowledge.Step{{Action: device.Tap, Text: "{view}", Choices: tt.labels}}}
			if _, unknown := unknownChoice(f, tt.command, nil, r.byMeaning(context.Background())); unknown != (tt.want < 0) {
				t.Errorf("unknownChoice(%q) = %v, want %v", tt.command, unknown, tt.want < 0)
			}
		})
	}
}

func TestAnchored(t *testing.T) {
	for _, tt := range []struct {
		phrase, label string
		want          bool
	}{
		{"alarms by time", "Time added", true},
		{"one hour", "1 hour", true},
		{"minutes", "5 minutes", true},
		{"tiny", "Small", false},
		{"huge", "Large", false},
		{"lisbon", "Lisboa", true},          // the name in another language
		{"polish", "Polski", true},          // its adjective, another spelling
		{"açores", "Acores", true},          // accents folded
		{"of the", "Out of the box", false}, // stop words anchor nothing
		{"", "Small", false},
	} {
		if got := anchored(tt.phrase, tt.label); got != tt.want {
			t.Errorf("anchored(%q, %q) = %v, want %v", tt.phrase, tt.label, got, tt.want)
		}
	}
}

// FuzzRunOnValue: any command and value (outside input: what the owner
// said, the matcher's slot) is judged without a panic, and a value that is
// not in the command at all is never set apart.
func FuzzRunOnValue(f *testing.F) {
	f.Add("add an event called dinner with mom", "dinner with mom")
	f.Add("new event: 'İstanbul trip' ", "İstanbul trip")
	f.Fuzz(func(t *testing.T, command, value string) {
		fl := &knowledge.Flow{Name: "f", Intent: "add event {title}", Slots: []knowledge.Slot{{Name: "title", Example: "x"}}}
		runOnValue(fl, command, map[string]string{"title": value})
		if setApart(command, value) && !strings.Contains(strings.ToLower(command), strings.ToLower(strings.TrimSpace(value))) && !strings.ContainsAny(command, "'\"‘’“”«»`") {
			t.Fatalf("setApart(%q, %q): a value not in the command", command, value)
		}
	})
}

// TestMisplacedValue: a typed value holding the word that names an option
// of a choice step whose own value names none was drawn in the wrong
// place; a typed value apart from the option's word, or a choice value
// that names its option, was not.
func TestMisplacedValue(t *testing.T) {
	f := &knowledge.Flow{Name: "f", Intent: "create an entry of {title} with {repeat} repetition",
		Slots: []knowledge.Slot{{Name: "title", Example: "standup"}, {Name: "repeat", Example: "Daily"}},
		Steps: []knowledge.Step{
			{Action: "type", Text: "{title}"},
			{Action: "tap", Text: "{repeat}", Choices: []string{"Daily", "Weekly", "Monthly", "Yearly"}},
		}}
	for _, tt := range []struct {
		name, command string
		slots         map[string]string
		want          bool
	}{
		{"the option's word typed as the title", "create a weekly repeating entry gym", map[string]string{"title": "weekly repeating", "repeat": "gym"}, true},
		{"the option as a period word", "create a repeating entry every week called gym", map[string]string{"title": "week gym", "repeat": "called"}, true},
		{"values in their places", "create an entry of gym with weekly repetition", map[string]string{"title": "gym", "repeat": "weekly"}, false},
		{"the option named, the title apart", "create a weekly repeating entry gym", map[string]string{"title": "gym", "repeat": "weekly repeating"}, false},
		{"the option named by its own value too", "create a weekly entry weekly review", map[string]string{"title": "weekly review", "repeat": "weekly"}, false},
		{"no option named", "create an entry of gym with some repetition", map[string]string{"title": "gym", "repeat": "some"}, false},
	} {
		if _, got := misplacedValue(f, tt.command, tt.slots); got != tt.want {
			t.Errorf("%s: misplacedValue = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestMisplacedValueTrailsOption: a choice slot that ends its template,
// whose value goes on past the option it names, swallowed another
// requirement; words before the option, or a template going on after the
// slot, do not count.
func TestMisplacedValueTrailsOption(t *testing.T) {
	labels := []string{"Name", "Size", "Last modified", "Extension"}
	sortBy := func(intent string) *knowledge.Flow {
		return &knowledge.Flow{Name: "s", Intent: intent, Slots: []knowledge.Slot{{Name: "order", Example: "Name"}},
			Steps: []knowledge.Step{{Action: "tap", Text: "Sort by"}, {Action: "tap", Text: "{order}", Choices: labels}}}
	}
	atEnd, inside := sortBy("sort the albums by {order}"), sortBy("sort by {order} in descending order")
	for _, tt := range []struct {
		name    string
		f       *knowledge.Flow
		command string
		value   string
		want    bool
	}{
		{"an order after the option", atEnd, "albums by name z to a", "name z", true},
		{"a scope after the option", atEnd, "sort the albums by size only here", "size only here", true},
		{"the option alone", atEnd, "sort the albums by last modified", "last modified", false},
		{"a word before the option", atEnd, "sort my albums by the size", "the size", false},
		{"the template goes on after the slot", inside, "sort by name z to a", "name z", false},
		{"no option named", atEnd, "sort the albums by colour", "colour", false},
	} {
		if _, got := misplacedValue(tt.f, tt.command, map[string]string{"order": tt.value}); got != tt.want {
			t.Errorf("%s: misplacedValue = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// FuzzMisplacedValue: any command and values (outside input) are read
// without a panic, and a value that is also the choice slot's option
// name is never misplaced.
func FuzzMisplacedValue(f *testing.F) {
	f.Add("create a weekly repeating entry gym", "weekly repeating", "gym")
	f.Add("albums by name z to a", "", "name z")
	f.Add("sort by Ünïcode ", "x", "Ünïcode ")
	f.Fuzz(func(t *testing.T, command, title, repeat string) {
		fl := &knowledge.Flow{Name: "f", Intent: "add {title} every {repeat}",
			Slots: []knowledge.Slot{{Name: "title", Example: "gym"}, {Name: "repeat", Example: "Daily"}},
			Steps: []knowledge.Step{{Action: "type", Text: "{title}"}, {Action: "tap", Text: "{repeat}", Choices: []string{"Daily", "Weekly", "Monthly", "Yearly"}}}}
		misplacedValue(fl, command, map[string]string{"title": title, "repeat": repeat})
		for _, o := range []string{"Daily", "Weekly", "Monthly", "Yearly"} {
			if _, bad := misplacedValue(fl, command, map[string]string{"title": title, "repeat": o}); bad {
				t.Fatalf("misplacedValue(%q, title %q, repeat %q): the option itself is misplaced", command, title, o)
			}
		}
	})
}

// TestPickByCommandCompoundNumber: a number said in two words names its
// option, not the option of its tens ("seventy five" is 75, not 70).
func TestPickByCommandCompoundNumber(t *testing.T) {
	quality := []string{"60%", "70%", "75%", "80%"}
	for _, tt := range []struct {
		command string
		want    int
	}{
		{"set the quality to seventy five percent", 2},
		{"set the quality to seventy percent", 1},
		{"set the quality to sixty", 0},
	} {
		if got := pickByCommand(quality, tt.command); got != tt.want {
			t.Errorf("pickByCommand(%q) = %d, want %d", tt.command, got, tt.want)
		}
	}
}

// TestSameRoot: a value said in another form than its option's name
// ("kenyan" for "Kenya") picks the one option whose word shares its
// first three letters; none or several such options pick nothing.
func TestSameRoot(t *testing.T) {
	lands := []string{"Chad", "Peru", "Kenya", "Mali", "Malta", "Österreich"}
	for _, tt := range []struct {
		value string
		want  int
	}{
		{"kenyan", 2},
		{"peruvian", 1},
		{"maltese", -1},     // Mali and Malta
		{"french", -1},      // no option begins so
		{"chi", -1},         // too short to tell
		{"new zealand", -1}, // not one word
	} {
		if got := pickChoice(lands, tt.value); got != tt.want {
			t.Errorf("pickChoice(%q) = %d, want %d", tt.value, got, tt.want)
		}
	}
}
