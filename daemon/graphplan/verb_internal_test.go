package graphplan

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestLeadingVerbNamesTheButton: a menu offers "Save as document", "Open
// document" and "Publish", in an app where "document" labels other elements;
// "publish the journal as a web document" names "Publish" by its verb: the
// verb says what to do, the words after it the result. A verb of the
// vocabulary ("call") gets no such weight: it also begins labels that are
// no action ("Call log"); nor does a navigation verb.
func TestLeadingVerbNamesTheButton(t *testing.T) {
	menu := `
	 {"id":1,"parent":0,"class":"android.widget.TextView","text":"Save as document","bounds":[0,100,1080,200],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Open document","bounds":[0,200,1080,300],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.TextView","text":"Publish","bounds":[0,300,1080,400],"clickable":true,"enabled":true,"visible_to_user":true}`
	for _, tc := range []struct{ cmd, want string }{
		{"publish the journal as a web document", "Publish"},
		{"save the journal as a document", "Save as document"},
	} {
		store, appID := storeWithApp(t, "org.example.go", "Go")
		recordScreen(t, store, appID, "documents", "org.example.go/.MainActivity", screen.Descriptor{Text: "New document"}, screen.Descriptor{Text: "Document size"}, screen.Descriptor{Text: "Gear"}, screen.Descriptor{Text: "Credits"})
		d, st := nextOn(t, store, appID, menu, "menu", tc.cmd, nil)
		if !tapsLabel(d, st, tc.want) {
			t.Errorf("%q: decided %+v, want a tap on %q", tc.cmd, d, tc.want)
		}
	}
	for _, tc := range []struct {
		cmd, label string
		want       bool
	}{
		{"publish the journal as a web document", "Publish", true},
		{"publish the journal as a web document", "Publish online", true},
		{"publish the journal as a web document", "Save as document", false},
		{"call the log", "Call log", false},             // a verb of the vocabulary
		{"open the publish settings", "Publish", false}, // a navigation verb leads
	} {
		if got := newRunState(tc.cmd, "").namesVerb(tc.label); got != tc.want {
			t.Errorf("%q names the verb of %q: %v, want %v", tc.label, tc.cmd, got, tc.want)
		}
	}
}
