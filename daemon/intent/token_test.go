package intent

import (
	"slices"
	"testing"
)

type tk struct {
	text string
	kind Kind
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		in   string
		want []tk
	}{
		{"Send 'see you' to Bob", []tk{{"send", KindWord}, {"see you", KindQuoted}, {"to", KindWord}, {"bob", KindWord}}},
		{`say "hello   there"`, []tk{{"say", KindWord}, {"hello there", KindQuoted}}},
		{"send “on my way” now", []tk{{"send", KindWord}, {"on my way", KindQuoted}, {"now", KindWord}}},
		{"send ‘ok’ «fine»", []tk{{"send", KindWord}, {"ok", KindQuoted}, {"fine", KindQuoted}}},
		{"send 'don't go' to Al", []tk{{"send", KindWord}, {"don't go", KindQuoted}, {"to", KindWord}, {"al", KindWord}}},
		{"don't delete Bob's note", []tk{{"don't", KindWord}, {"delete", KindWord}, {"bob's", KindWord}, {"note", KindWord}}},
		{"send 'hi to Bob", []tk{{"send", KindWord}, {"hi", KindWord}, {"to", KindWord}, {"bob", KindWord}}},
		{"empty '' quotes", []tk{{"empty", KindWord}, {"quotes", KindWord}}},
		{"set an alarm for 7:30 am tomorrow", []tk{{"set", KindWord}, {"an", KindWord}, {"alarm", KindWord}, {"for", KindWord}, {"7:30 am", KindTime}, {"tomorrow", KindDate}}},
		{"wake me at 6AM", []tk{{"wake", KindWord}, {"me", KindWord}, {"at", KindWord}, {"6am", KindTime}}},
		{"at 7 p.m. sharp", []tk{{"at", KindWord}, {"7 p.m.", KindTime}, {"sharp", KindWord}}},
		{"at 19:00", []tk{{"at", KindWord}, {"19:00", KindTime}}},
		{"at 7 o'clock", []tk{{"at", KindWord}, {"7 o'clock", KindTime}}},
		{"7 amazing things", []tk{{"7", KindNumber}, {"amazing", KindWord}, {"things", KindWord}}},
		{"next friday at noon", []tk{{"next friday", KindDate}, {"at", KindWord}, {"noon", KindTime}}},
		{"next song", []tk{{"next", KindWord}, {"song", KindWord}}},
		{"on 2024-05-03", []tk{{"on", KindWord}, {"2024-05-03", KindDate}}},
		{"on 3/5 or 12.05.2024", []tk{{"on", KindWord}, {"3/5", KindDate}, {"or", KindWord}, {"12.05.2024", KindDate}}},
		{"meet on May 5th", []tk{{"meet", KindWord}, {"on", KindWord}, {"may 5th", KindDate}}},
		{"you may go", []tk{{"you", KindWord}, {"may", KindWord}, {"go", KindWord}}},
		{"on the 5th of March", []tk{{"on", KindWord}, {"the", KindWord}, {"5th of march", KindDate}}},
		{"call +1 212 555 0100 now", []tk{{"call", KindWord}, {"+1 212 555 0100", KindNumber}, {"now", KindWord}}},
		{"dial 555-0100", []tk{{"dial", KindWord}, {"555-0100", KindNumber}}},
		{"volume 50% and 3.5 and 2,000", []tk{{"volume", KindWord}, {"50%", KindNumber}, {"and", KindWord}, {"3.5", KindNumber}, {"and", KindWord}, {"2,000", KindNumber}}},
		{"set 5 alarms", []tk{{"set", KindWord}, {"5", KindNumber}, {"alarms", KindWord}}},
		{"use 4g", []tk{{"use", KindWord}, {"4g", KindWord}}},
		{"turn on Wi-Fi.", []tk{{"turn", KindWord}, {"on", KindWord}, {"wi-fi", KindWord}}},
		{"tap ⋮ then +", []tk{{"tap", KindWord}, {"⋮", KindSymbol}, {"then", KindWord}, {"+", KindSymbol}}},
		{"mail bob@example.com", []tk{{"mail", KindWord}, {"bob@example.com", KindWord}}},
		{"open https://example.org/a?b=1.", []tk{{"open", KindWord}, {"https://example.org/a?b=1", KindWord}}},
		{"", nil},
		{"?!...", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := Tokenize(tt.in)
			var gk []tk
			for _, g := range got {
				gk = append(gk, tk{g.Text, g.Kind})
				if tt.in[g.Start:g.End] != g.Orig {
					t.Errorf("token %q: offsets %d:%d give %q", g.Orig, g.Start, g.End, tt.in[g.Start:g.End])
				}
			}
			if !slices.Equal(gk, tt.want) {
				t.Errorf("Tokenize(%q)\n got  %v\n want %v", tt.in, gk, tt.want)
			}
		})
	}
}

func TestTokenizeQuotedOffsets(t *testing.T) {
	s := `send " see you " to Bob`
	toks := Tokenize(s)
	if len(toks) != 4 || toks[1].Kind != KindQuoted {
		t.Fatalf("tokens %+v", toks)
	}
	if got := s[toks[1].Start:toks[1].End]; got != "see you" {
		t.Errorf("quoted span %q, want %q (inside the marks, trimmed)", got, "see you")
	}
}
