package intent

import (
	"slices"
	"testing"
)

// TestPlaceNamed: the place phrase closing a command, and none where the
// command closes with a value, an object or no preposition of place.
func TestPlaceNamed(t *testing.T) {
	for _, tc := range []struct {
		text string
		name []string
	}{
		{"send hi to Ada on Chirper", []string{"chirper"}},
		{"open the last photo in the Snaps app", []string{"snaps"}},
		{"open the last photo in the Snaps app please", []string{"snaps"}},
		{"back up my notes using Mail Box", []string{"mail", "box"}},
		{"set the tone to bells in my music application", []string{"music"}},
		{"remind me in 10 minutes", nil},
		{"add an event on july 30", nil},
		{"text Ada 'see you in town'", nil},
		{"add Ada to favourites", nil},
		{"turn on dark mode", nil},
		{"switch on wi-fi", nil},
		{"sort the apps in the", nil},
		{"in", nil},
		{"", nil},
	} {
		name, ok := PlaceNamed(tc.text)
		if ok != (tc.name != nil) || !slices.Equal(name, tc.name) {
			t.Errorf("PlaceNamed(%q) = %q, %v; want %q", tc.text, name, ok, tc.name)
		}
	}
}

// TestAppNamedWithin: an app a place phrase names by the word "app"
// anywhere in a command; none without that word or before a verb.
func TestAppNamedWithin(t *testing.T) {
	for _, tc := range []struct {
		text string
		name []string
	}{
		{"change the font size in the chirper app to medium", []string{"chirper"}},
		{"set the snooze in my zing notes app to 5 minutes", []string{"zing", "notes"}},
		{"open the last photo in the Snaps app", []string{"snaps"}},
		{"change the font size in the settings to medium", nil},
		{"app settings", nil},
		{"in the app", nil},
		{"", nil},
	} {
		name, ok := AppNamedWithin(tc.text)
		if ok != (tc.name != nil) || !slices.Equal(name, tc.name) {
			t.Errorf("AppNamedWithin(%q) = %q, %v; want %q", tc.text, name, ok, tc.name)
		}
	}
}

func FuzzAppNamedWithin(f *testing.F) {
	for _, s := range []string{"do it in the x app now", "in the app", "app", "on my y z application"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if name, ok := AppNamedWithin(s); ok && (len(name) == 0 || len(name) > 2) {
			t.Fatalf("AppNamedWithin(%q) = %q", s, name)
		}
	})
}

func FuzzPlaceNamed(f *testing.F) {
	for _, s := range []string{"send hi on Chirper", "in the app", "on 5 may", "via 'x'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, ok := PlaceNamed(s)
		if ok != (len(name) > 0) || len(name) > 2 {
			t.Errorf("PlaceNamed(%q) = %q, %v", s, name, ok)
		}
	})
}
