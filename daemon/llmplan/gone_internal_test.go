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
