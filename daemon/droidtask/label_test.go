package droidtask_test

import (
	"fmt"
	"testing"
	"testing/fstest"

	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
)

// state is a DroidBot state of one window holding texts.
func state(texts ...string) []byte {
	views := `{"temp_id":0,"parent":-1,"class":"android.widget.FrameLayout","bounds":[[0,0],[1080,2400]],"visible":true,"enabled":true,"children":[]}`
	for i, t := range texts {
		views += fmt.Sprintf(`,{"temp_id":%d,"parent":0,"class":"android.widget.TextView","text":%q,"bounds":[[0,%d],[1080,%d]],"visible":true,"enabled":true}`, i+1, t, 100*i, 100*i+90)
	}
	return []byte(`{"width":1080,"height":2400,"foreground_activity":"p/.A","views":[` + views + `]}`)
}

// TestLabel: an app's label is the recorded text that is its data-set
// name with spaces and case aside — on its own screens first, else on
// another app's (a launcher's) — else the name capitalised.
func TestLabel(t *testing.T) {
	d, err := droidtask.LoadFS(fstest.MapFS{
		"apps.json":                    {Data: []byte(`{"launcher":{"main_package":"l"},"musicbox":{"main_package":"m"},"notepad":{"main_package":"n"},"zz":{"main_package":"z"}}`)},
		"tasks.jsonl":                  {Data: []byte("")},
		"transitions.jsonl":            {Data: []byte("")},
		"apps/launcher/states/s1.json": {Data: state("Music Box", "Note pad", "Settings")},
		"apps/musicbox/states/s1.json": {Data: state("Songs", "Albums")},
		"apps/notepad/states/s1.json":  {Data: state("NotePad", "New note")},
		"apps/notepad/states/s2.json":  {Data: state("NotePad")},
		"apps/zz/states/s1.json":       {Data: state("Zzz")},
	}, "mem")
	if err != nil {
		t.Fatal(err)
	}
	for app, want := range map[string]string{"musicbox": "Music Box", "notepad": "NotePad", "zz": "Zz"} {
		if got := d.Label(app); got != want {
			t.Errorf("Label(%q) = %q, want %q", app, got, want)
		}
	}
}
