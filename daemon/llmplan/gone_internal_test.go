package llmplan

import "testing"

func TestGoneLines(t *testing.T) {
	tests := []struct {
		name, before, now, want string
	}{
		{"same screen", "[0] button \"A\"\n[1] text \"B\"", "[0] button \"A\"\n[1] text \"B\"", ""},
		{"indices shift, nothing gone", "[0] button \"A\"\n[1] text \"B\"", "[0] text \"new\"\n[1] button \"A\"\n[2] text \"B\"", ""},
		{"one gone", "[0] button \"A\"\n[1] checkbox \"Dark\" unchecked", "[0] button \"A\"\n[1] checkbox \"Dark\" checked", "checkbox \"Dark\" unchecked"},
		{"all gone, in order", "[0] button \"Settings\"\n[1] button \"About\"", "[0] text \"Theme\"", "button \"Settings\"\nbutton \"About\""},
		{"duplicates counted", "[0] button \"Item\"\n[1] button \"Item\"", "[0] button \"Item\"", "button \"Item\""},
		{"empty before", "", "[0] text \"x\"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := goneLines(tt.before, tt.now); got != tt.want {
				t.Errorf("goneLines = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCollapseRuns(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"no run", "[0] button \"A\"\n[1] button \"B\"", "[0] button \"A\"\n[1] button \"B\""},
		{"two alike stay", "[0] button id=cell\n[1] button id=cell\n[2] text \"x\"", "[0] button id=cell\n[1] button id=cell\n[2] text \"x\""},
		{"run folded", "[0] text \"Month\"\n[1] button id=cell\n[2] button id=cell\n[3] button id=cell\n[4] button \"New\"",
			"[0] text \"Month\"\n[1-3] button id=cell (3 alike)\n[4] button \"New\""},
		{"alike but not consecutive indices", "[1] button id=cell\n[3] button id=cell\n[5] button id=cell", "[1] button id=cell\n[3] button id=cell\n[5] button id=cell"},
		{"two runs", "[0] button id=a\n[1] button id=a\n[2] button id=a\n[3] button id=b\n[4] button id=b\n[5] button id=b",
			"[0-2] button id=a (3 alike)\n[3-5] button id=b (3 alike)"},
		{"lines without index kept", "text \"gone\"\ntext \"gone\"\ntext \"gone\"", "text \"gone\"\ntext \"gone\"\ntext \"gone\""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := collapseRuns(tt.in); got != tt.want {
				t.Errorf("collapseRuns =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}
