package steps

import (
	"reflect"
	"testing"
)

func TestSplit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Open Settings. Tap Display. Turn on Dark theme.", []string{"Open Settings", "Tap Display", "Turn on Dark theme"}},
		{"1. Open the Settings app\n2. Tap Display\n3) Turn on \"Dark theme\"\n", []string{"Open the Settings app", "Tap Display", `Turn on "Dark theme"`}},
		{"- Open notes\n- Tap the + button\n  at the bottom\n* Type \"milk\" into the title. Tap Save", []string{"Open notes", "Tap the + button at the bottom", `Type "milk" into the title`, "Tap Save"}},
		{"Step 1: Go to Settings > Display > Dark theme", []string{"Go to Settings", "Display", "Dark theme"}},
		{"Tap Display, then tap Dark theme", []string{"Tap Display", "tap Dark theme"}},
		{"Type \"Hello. World\" in the title. Done!", []string{`Type "Hello. World" in the title`, "Done"}},
		{"How to get bigger text:\n1. Tap More options\n2. Pick Large", []string{"Tap More options", "Pick Large"}},
		{"", nil},
		{"1.\n2.\n", nil},
	} {
		if got := Split(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Split(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestNormalise(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Instruction
	}{
		{"Open Settings", Instruction{Op: OpOpen, Target: "Settings"}},
		{"Tap the Display option", Instruction{Op: OpTap, Target: "Display"}},
		{"Turn on Dark theme", Instruction{Op: OpOn, Target: "Dark theme"}},
		{"Switch off the \"Auto sync\" toggle", Instruction{Op: OpOff, Target: "Auto sync"}},
		{"Dark theme to on", Instruction{Op: OpOn, Target: "Dark theme"}},
		{`Type "milk" into the title field`, Instruction{Op: OpInput, Target: "title", Value: "milk"}},
		{"Enter Alice in the Name field", Instruction{Op: OpInput, Target: "Name", Value: "Alice"}},
		{"Scroll down to About phone", Instruction{Op: OpScroll, Target: "About phone", Value: "down"}},
		{"Go back", Instruction{Op: OpBack}},
		{"Then click on Save at the top", Instruction{Op: OpTap, Target: "Save"}},
		{"Select 'Monthly view' from the menu", Instruction{Op: OpTap, Target: "Monthly view"}},
		{"Long press the note", Instruction{Op: OpLong, Target: "note"}},
	} {
		got := Normalise(c.in)
		got.Text = ""
		if got != c.want {
			t.Errorf("Normalise(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("1. Open Settings\n2. Tap Display > Dark theme")
	f.Add("Type \"a\" into b. Scroll up")
	f.Fuzz(func(t *testing.T, s string) {
		ins := Parse(s)
		if len(ins) > MaxInstructions {
			t.Fatalf("%d instructions", len(ins))
		}
		for _, in := range ins {
			if in.Op == "" {
				t.Fatalf("no op in %+v", in)
			}
		}
	})
}
