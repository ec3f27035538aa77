package intent

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestUnderstand(t *testing.T) {
	type val struct {
		text string
		kind Kind
	}
	tests := []struct {
		cmd     string
		verbs   []string
		values  []val
		targets []string
	}{
		{"send 'see you' to Bob", []string{"send"}, []val{{"see you", KindQuoted}, {"Bob", KindWord}}, nil},
		{"Turn on dark mode", []string{"on"}, nil, []string{"dark", "mode"}},
		{"turn the wifi off please", []string{"off"}, nil, []string{"wifi"}},
		{"Dark mode on", []string{"on"}, nil, []string{"dark", "mode"}},
		{"remind me on monday", nil, []val{{"monday", KindDate}}, []string{"remind"}},
		{"Call John Smith", []string{"call"}, []val{{"John Smith", KindWord}}, nil},
		{"call John. Then Text Mary", []string{"call", "send"}, []val{{"John", KindWord}, {"Mary", KindWord}}, nil},
		{"Set An Alarm For Seven", []string{"add", "edit"}, nil, []string{"alarm", "seven"}},
		{"open Settings", []string{"open"}, nil, []string{"settings"}},
		{"go to the more options menu", []string{"open"}, nil, []string{"more", "options", "menu"}},
		{"look up 'pizza places' near me", []string{"search"}, []val{{"pizza places", KindQuoted}}, []string{"near"}},
		{"removed the alarm at 6:45 pm on 3/5", []string{"delete"}, []val{{"6:45 pm", KindTime}, {"3/5", KindDate}}, []string{"alarm"}},
		{"turn up the volume", []string{"increase"}, nil, []string{"volume"}},
		{"email alice@example.com the file", []string{}, []val{{"alice@example.com", KindWord}}, []string{"email", "file"}},
		{"tap + to add a note", []string{"add"}, nil, []string{"note"}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			c := Understand(tt.cmd)
			if len(tt.verbs) > 0 || c.Verbs != nil {
				if !slices.Equal(c.Verbs, tt.verbs) && !(len(tt.verbs) == 0 && len(c.Verbs) == 0) {
					t.Errorf("Verbs = %v, want %v", c.Verbs, tt.verbs)
				}
			}
			var vals []val
			for _, v := range c.Values {
				vals = append(vals, val{v.Text, v.Kind})
				if tt.cmd[v.Start:v.End] != v.Text {
					t.Errorf("value %q at %d:%d is %q", v.Text, v.Start, v.End, tt.cmd[v.Start:v.End])
				}
			}
			if !slices.Equal(vals, tt.values) {
				t.Errorf("Values = %v, want %v", vals, tt.values)
			}
			if !slices.Equal(c.TargetWords, tt.targets) {
				t.Errorf("TargetWords = %v, want %v", c.TargetWords, tt.targets)
			}
			if len(c.Stems) != len(c.Tokens) {
				t.Errorf("%d stems for %d tokens", len(c.Stems), len(c.Tokens))
			}
		})
	}
}

func TestUnderstandPolarity(t *testing.T) {
	tests := []struct {
		cmd  string
		want string // "on", "off" or "" (no on/off concept)
	}{
		{"turn on bluetooth", "on"},
		{"switch bluetooth off", "off"},
		{"flip the airplane mode switch on", "on"},
		{"keep the screen on", "on"},
		{"bluetooth on", "on"},
		{"bluetooth on please", "on"},
		{"enable bluetooth", "on"},
		{"deactivate bluetooth", "off"},
		{"put the event on friday", ""},
		{"show notes on the home screen", "on"}, // "show" is a weak member of on
		{"meet on the terrace", ""},
		{"send 'turn on the lights' to Al", ""},
		{"clear every booking off my planner", ""}, // what it is cleared from
		{"take Dora off my favourites", "off"},
		{"get the songs off the memory card", "off"},
		{"switch off the wifi", "off"},
		{"turn the wifi off the way it was", "off"},
		{"lights off", "off"},
		{"take the sketch out of my favourites", "off"},
		{"take my last sketch out of the favourites", "off"},
		{"get me out of here", ""},
		{"print out the sketch", ""},
	}
	for _, tt := range tests {
		c := Understand(tt.cmd)
		hasOn, hasOff := slices.Contains(c.Verbs, "on"), slices.Contains(c.Verbs, "off")
		got := ""
		switch {
		case hasOn && hasOff:
			got = "both"
		case hasOn:
			got = "on"
		case hasOff:
			got = "off"
		}
		if got != tt.want {
			t.Errorf("%q: polarity %q, want %q (verbs %v)", tt.cmd, got, tt.want, c.Verbs)
		}
	}
}

func TestSynonymsAndConcepts(t *testing.T) {
	if s := Synonyms("remove"); len(s) == 0 || s[0] != "remove" || !slices.Contains(s, "delete") || !slices.Contains(s, "trash") {
		t.Errorf("Synonyms(remove) = %v", s)
	}
	if s := Synonyms("Enable"); !slices.Contains(s, "turn on") || !slices.Contains(s, "on") || slices.Contains(s, "disable") {
		t.Errorf("Synonyms(Enable) = %v", s)
	}
	if s := Synonyms("⋮"); !slices.Contains(s, "more options") || !slices.Contains(s, "settings") {
		t.Errorf("Synonyms(⋮) = %v", s)
	}
	if s := Synonyms("giraffe"); s != nil {
		t.Errorf("Synonyms(giraffe) = %v, want nil", s)
	}
	tests := []struct {
		text string
		want []string
	}{
		{"Delete", []string{"delete"}},
		{"removed", []string{"delete"}},
		{"More options", []string{"settings"}},
		{"⋮", []string{"settings"}},
		{"+", []string{"add"}},
		{"ON", []string{"on"}},
		{"Turn off", []string{"off"}},
		{"Sign in", []string{"login"}},
		{"Save", []string{"save"}},
		{"Night mode", []string{"darkmode"}},
		{"Z to A", []string{"descending"}},
		{"newest first", []string{"descending"}},
		{"A-Z", []string{"ascending"}},
		{"Giraffe", nil},
	}
	for _, tt := range tests {
		if got := Concepts(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("Concepts(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	for _, id := range ConceptIDs() {
		if len(Surfaces(id)) == 0 {
			t.Errorf("concept %q has no words", id)
		}
	}
	if !slices.Contains(Opposites("add"), "delete") || !slices.Contains(Opposites("off"), "on") {
		t.Errorf("Opposites wrong: add→%v off→%v", Opposites("add"), Opposites("off"))
	}
	if !IsAction("delete") || IsAction("settings") || IsAction("nope") {
		t.Error("IsAction wrong")
	}
}

// checkCommand verifies the invariants of Understand's output.
func checkCommand(t *testing.T, cmd string, c Command) {
	t.Helper()
	prev := 0
	for _, tok := range c.Tokens {
		if tok.Start < prev || tok.End < tok.Start || tok.End > len(cmd) {
			t.Fatalf("%q: token %+v out of order or range", cmd, tok)
		}
		if cmd[tok.Start:tok.End] != tok.Orig {
			t.Fatalf("%q: token %+v: text at offsets is %q", cmd, tok, cmd[tok.Start:tok.End])
		}
		if tok.Start == tok.End {
			t.Fatalf("%q: empty token %+v", cmd, tok)
		}
		prev = tok.End
	}
	if len(c.Stems) != len(c.Tokens) {
		t.Fatalf("%q: %d stems for %d tokens", cmd, len(c.Stems), len(c.Tokens))
	}
	prev = 0
	for _, v := range c.Values {
		if v.Start < prev || v.End < v.Start || v.End > len(cmd) || cmd[v.Start:v.End] != v.Text {
			t.Fatalf("%q: bad value %+v", cmd, v)
		}
		prev = v.End
	}
}

func FuzzUnderstand(f *testing.F) {
	for _, s := range []string{
		"send 'see you' to Bob", "set an alarm for 7:30 am tomorrow", "call +1 212 555 0100",
		"turn the wifi off", "“quoted” ‘x’ «y» `z`", "on 5th of March at 7 p.m.", "⋮ + 🔍 🗑️",
		"mail a@b.co https://x.y/z", "Title Case Command Here", "'", "\"", "12-05-2024 3/5 555-0100",
		"Ünïcödé Wörds İstanbul", "\xff\xfe bad utf8", "next friday noon", "{slot} {x}",
	} {
		f.Add(s)
	}
	m := NewMatcher(testFlows())
	f.Fuzz(func(t *testing.T, cmd string) {
		c := Understand(cmd)
		checkCommand(t, cmd, c)
		for _, cand := range m.Rank(cmd, "", 3) {
			if cand.Score < 0 || cand.Score > 1 {
				t.Fatalf("%q: score %v out of [0,1]", cmd, cand.Score)
			}
		}
		// the command's own middle as typed text
		var typed []string
		if n := len(cmd); n > 2 {
			a, b := n/3, 2*n/3
			for a > 0 && !utf8.RuneStart(cmd[a]) {
				a--
			}
			for b < n && !utf8.RuneStart(cmd[b]) {
				b++
			}
			typed = append(typed, cmd[a:b])
		}
		intent, slots := Template(cmd, typed)
		for _, s := range slots {
			if !strings.Contains(intent, "{"+s.Name+"}") {
				t.Fatalf("%q: intent %q lacks slot %q", cmd, intent, s.Name)
			}
		}
		_ = IdentifyApp(cmd, []AppCandidate{{Package: "p", Label: cmd, Keywords: []string{cmd}}})
		_ = Concepts(cmd)
	})
}

// TestUnderstandFiller: the words completing an action phrase are marked,
// the phrase's first word and object phrases' words are not.
func TestUnderstandFiller(t *testing.T) {
	for _, tc := range []struct {
		cmd    string
		filler []string
	}{
		{"get rid of the last picture", []string{"rid", "of"}},
		{"go to settings", []string{"to"}},
		{"turn on dark mode", nil},
		{"delete the note", nil},
	} {
		u := Understand(tc.cmd)
		var got []string
		for i, f := range u.Filler {
			if f {
				got = append(got, u.Tokens[i].Text)
			}
		}
		if !slices.Equal(got, tc.filler) {
			t.Errorf("Understand(%q).Filler words = %q, want %q", tc.cmd, got, tc.filler)
		}
	}
}

// TestUnderstandPhrase: every word of an object phrase of the vocabulary
// carries the phrase's concept; an action phrase's words and words of no
// phrase carry none.
func TestUnderstandPhrase(t *testing.T) {
	for _, tc := range []struct {
		cmd    string
		phrase map[string]string // word → concept
	}{
		{"sort the clips by date, newest first", map[string]string{"newest": "descending", "first": "descending"}},
		{"turn on dark mode", map[string]string{"dark": "darkmode", "mode": "darkmode"}},
		{"go to settings", map[string]string{}},
		{"delete the note", map[string]string{}},
	} {
		u := Understand(tc.cmd)
		got := map[string]string{}
		for i, c := range u.Phrase {
			if c != "" {
				got[u.Tokens[i].Text] = c
			}
		}
		if !maps.Equal(got, tc.phrase) {
			t.Errorf("Understand(%q).Phrase = %v, want %v", tc.cmd, got, tc.phrase)
		}
	}
}

// TestLastBeforeAParticipleIsNewest: "last" before a past participle
// ("last opened", "last saved") means the most recent, as "newest" and
// "latest" do; alone or before a noun it stays "last" (the final one).
func TestLastBeforeAParticipleIsNewest(t *testing.T) {
	for _, tc := range []struct {
		text   string
		newest bool
	}{
		{"Show last saved scan", true},
		{"reopen the last opened ledger", true},
		{"the tool I last used", true},
		{"sort by last used", true},
		{"show my latest ledger", true},
		{"go to the last page", false},
		{"sort by last name", false},
		{"play the last one", false},
	} {
		u := Understand(tc.text)
		if got := slices.Contains(u.Concepts, "newest"); got != tc.newest {
			t.Errorf("%q: concepts %v, newest = %v, want %v", tc.text, u.Concepts, got, tc.newest)
		}
	}
}

// TestWouldLike: "like" after "i'd" or "would" frames a request; alone it
// may still mean marking something a favourite.
func TestWouldLike(t *testing.T) {
	for _, tc := range []struct {
		cmd      string
		favorite bool
	}{
		{"I'd like read receipts on", false},
		{"we would like the week to start on monday", false},
		{"like the last photo", true},
	} {
		if got := slices.Contains(Understand(tc.cmd).Concepts, "favorite"); got != tc.favorite {
			t.Errorf("%q: favorite %v, want %v (concepts %v)", tc.cmd, got, tc.favorite, Understand(tc.cmd).Concepts)
		}
	}
}
