package graphplan

import (
	"context"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// TestDialogNobodyAskedFor: a dialog the last step brought up that has
// nothing of the command is put off with its "Not now" (its "Got it", its
// one "OK"), never with the button that does what it offers; a dialog
// offering what the command asks ("rate the app"), asking something (a
// field, a box), about the command, or one the run's own step opened with
// no button that only puts it off ("Delete 3 memos?") is left to the
// other rules. Put off and undone once, it is not put off again.
func TestDialogNobodyAskedFor(t *testing.T) {
	const rate = `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Enjoying Jotter?","bounds":[160,640,920,740],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Tell us on the store, it helps a lot.","bounds":[160,760,920,900],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Not now","bounds":[160,1400,520,1500],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.Button","text":"Rate","bounds":[560,1400,920,1500],"clickable":true,"enabled":true,"visible_to_user":true}`
	const news = `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Fresh in this version","bounds":[160,640,920,740],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Pages load faster than before.","bounds":[160,760,920,900],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[560,1400,920,1500],"clickable":true,"enabled":true,"visible_to_user":true}`
	const confirm = `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Delete 3 memos?","bounds":[160,640,920,740],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[160,1400,520,1500],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Delete","bounds":[560,1400,920,1500],"clickable":true,"enabled":true,"visible_to_user":true}`
	const asks = `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Enjoying Jotter?","bounds":[160,640,920,740],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.CheckBox","text":"Never ask again","checkable":true,"bounds":[160,760,920,900],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Not now","bounds":[160,1400,520,1500],"clickable":true,"enabled":true,"visible_to_user":true}`
	tap := daemon.StepRecord{Action: device.Tap, Target: screen.Descriptor{Text: "Tags"}, Screen: "list", After: "dialog", OK: true, Changed: true}
	for _, tc := range []struct {
		name, cmd, nodes string
		history          []daemon.StepRecord
		undone           bool
		want             string // the button put off with, "" none
	}{
		{"a rating prompt", "colour the tag work red", rate, []daemon.StepRecord{tap}, false, "Not now"},
		{"a notice of one button", "colour the tag work red", news, []daemon.StepRecord{tap}, false, "OK"},
		{"at the start of the run", "colour the tag work red", rate, nil, false, "Not now"},
		{"what the command asks", "rate the app on the store", rate, []daemon.StepRecord{tap}, false, ""},
		{"the run's own question", "delete 3 memos", confirm, []daemon.StepRecord{tap}, false, ""},
		{"it asks something", "colour the tag work red", asks, []daemon.StepRecord{tap}, false, ""},
		{"not brought up by the last step", "colour the tag work red", rate, []daemon.StepRecord{{Action: device.Tap, Screen: "list", After: "list", OK: true}}, false, ""},
		{"undone once", "colour the tag work red", rate, []daemon.StepRecord{tap}, true, ""},
	} {
		s := dialogOf(t, tc.nodes)
		st := &daemon.PlanState{Command: tc.cmd, Screen: s, Elements: screen.Elements(s), Print: "dialog", History: tc.history, Penalties: map[string]float64{}}
		if tc.undone {
			for i := range st.Elements {
				st.Penalties[daemon.OperationKey("dialog", device.Tap, screen.Describe(s, st.Elements[i].NodeID))] = 1
			}
		}
		rs := newRunState(tc.cmd, "Jotter")
		c, ok := rs.interstitial(st)
		got := ""
		if ok {
			got = st.Elements[c.element].Label
		}
		if got != tc.want {
			t.Errorf("%s: put off with %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestPutOffDialogLeftOutOfTheRoute: once a dialog nobody asked for is put
// off, the run's rules read the step that brought it up as the last one,
// leading to the screen behind it: a folder picked in a picker (its
// option), a rating prompt put off, and the picker is the one the pick
// was made on, to accept. The planner puts the prompt off and then
// accepts the picker.
func TestPutOffDialogLeftOutOfTheRoute(t *testing.T) {
	ctx := context.Background()
	store, appID := storeWithApp(t, "org.example.snaps", "Snaps")
	// the folder dialog, opened into the folder picked
	inTrips := dialogOf(t, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Pick a folder","bounds":[160,640,920,740],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.TextView","text":"Internal > trips","bounds":[160,760,920,860],"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Cancel","bounds":[160,1400,520,1500],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":4,"parent":0,"class":"android.widget.Button","text":"OK","bounds":[560,1400,920,1500],"clickable":true,"enabled":true,"visible_to_user":true}`)
	inTrips.Package = "org.example.snaps"
	prompt := dialogOf(t, `{"id":1,"parent":0,"class":"android.widget.TextView","text":"Enjoying Snaps?","bounds":[160,640,920,740],"enabled":true,"visible_to_user":true},
	 {"id":2,"parent":0,"class":"android.widget.Button","text":"Not now","bounds":[160,1400,520,1500],"clickable":true,"enabled":true,"visible_to_user":true},
	 {"id":3,"parent":0,"class":"android.widget.Button","text":"Rate","bounds":[560,1400,920,1500],"clickable":true,"enabled":true,"visible_to_user":true}`)
	prompt.Package = "org.example.snaps"
	pick := daemon.StepRecord{Action: device.Tap, Target: screen.Descriptor{Class: "android.widget.RadioButton", Text: "Trips", Checkable: true}, Label: "Trips", Screen: "in trips", After: "prompt", OK: true, Changed: true}
	putOff := daemon.StepRecord{Action: device.Tap, Target: screen.Descriptor{Text: "Not now"}, Label: "Not now", Screen: "prompt", After: "in trips", OK: true, Changed: true}
	const cmd = "move the photo to the 'Trips' folder"
	p := New(store)
	st := &daemon.PlanState{Command: cmd, Package: "org.example.snaps", AppID: appID, Screen: prompt, Elements: screen.Elements(prompt), Print: "prompt", Step: 1, History: []daemon.StepRecord{pick}}
	d, err := p.Next(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if !tapsLabel(d, st, "Not now") {
		t.Fatalf("on the prompt: %s %d (%s), want a tap on Not now", d.Action, d.Element, d.Reason)
	}
	st = &daemon.PlanState{Command: cmd, Package: "org.example.snaps", AppID: appID, Screen: inTrips, Elements: screen.Elements(inTrips), Print: "in trips", Step: 2, History: []daemon.StepRecord{pick, putOff}}
	// the rules' reading: the pick is the last step, made on this screen
	read := p.run.withoutPutOffs(st)
	if len(read.History) != 1 || read.History[0].After != "in trips" || len(st.History) != 2 {
		t.Fatalf("history read as %+v (the run's own: %d steps), want the pick alone, leading here", read.History, len(st.History))
	}
	if h, _ := p.run.pickedHere(read); h.Label != "Trips" {
		t.Errorf("the step picked here: %q, want the folder", h.Label)
	}
	if d, err = p.Next(ctx, st); err != nil {
		t.Fatal(err)
	}
	if !tapsLabel(d, st, "OK") {
		t.Errorf("behind the prompt: %s %d (%s), want the picker's OK", d.Action, d.Element, d.Reason)
	}
}
