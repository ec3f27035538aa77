package adb_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/adb"
	"github.com/wayfinder-agent/wayfinder/daemon/adb/adbtest"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/internal/shared"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

func TestMain(m *testing.M) {
	adbtest.Serve()
	os.Exit(m.Run())
}

// traces returns the recorded uiautomator traces of ../shared/fixtures.
func traces(t *testing.T) []string {
	t.Helper()
	dir := shared.Path(t, "fixtures", "uiautomator")
	ts, err := filepath.Glob(filepath.Join(dir, "trace_*"))
	if err != nil || len(ts) == 0 {
		t.Skipf("no traces under %s", dir)
	}
	return ts
}

var fast = adb.Options{SettleTimeout: -1, CommandTimeout: 5 * time.Second}

func connect(t *testing.T, trace, mode string) (*adb.Device, *adbtest.Fake) {
	t.Helper()
	f := adbtest.Install(t, trace, mode)
	d, err := adb.Connect(context.Background(), "", fast)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return d, f
}

func TestSnapshotServesTheTrace(t *testing.T) {
	for _, tr := range traces(t) {
		t.Run(filepath.Base(tr), func(t *testing.T) {
			d, f := connect(t, tr, adbtest.ModeOK)
			ctx := context.Background()
			s, err := d.Snapshot(ctx)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := os.ReadFile(filepath.Join(tr, "0.xml"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := screen.ParseUIAutomator(raw)
			if err != nil {
				t.Fatal(err)
			}
			want.Activity = s.Activity
			if screen.Fingerprint(s) != screen.Fingerprint(want) || len(s.Nodes) != len(want.Nodes) {
				t.Fatalf("snapshot differs from 0.xml: %d vs %d nodes", len(s.Nodes), len(want.Nodes))
			}
			act, _ := os.ReadFile(filepath.Join(tr, "0.activity"))
			pkg, _, _ := strings.Cut(strings.TrimSpace(string(act)), "/")
			if s.Activity == "" || !strings.HasPrefix(s.Activity, pkg+"/") {
				t.Errorf("activity %q, want one of %s", s.Activity, pkg)
			}
			fg, err := d.ForegroundApp(ctx)
			if err != nil || fg != pkg {
				t.Errorf("foreground %q, %v; want %s", fg, err, pkg)
			}
			apps, err := d.InstalledApps(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(apps, func(a device.App) bool { return a.Package == pkg && a.Label != "" }) {
				t.Errorf("installed apps %v lack %s", apps, pkg)
			}
			// a tap on the first clickable element's centre moves the fake on
			var target *screen.Node
			for i := range s.Nodes {
				if s.Nodes[i].Clickable && s.Nodes[i].Bounds.Area() > 0 {
					target = &s.Nodes[i]
					break
				}
			}
			if target == nil {
				t.Skip("no clickable node on screen 0")
			}
			res, err := d.Perform(ctx, device.Action{Type: device.Tap, Node: target.ID})
			if err != nil || !res.OK {
				t.Fatalf("tap: %+v %v", res, err)
			}
			if f.Config().Screen != 1 || !res.Changed {
				t.Errorf("after tap: screen %d changed %v, want 1 true", f.Config().Screen, res.Changed)
			}
			b := target.Bounds
			cx, cy := (b[0]+b[2])/2, (b[1]+b[3])/2
			if !slices.ContainsFunc(f.Shell(), func(c []string) bool {
				return slices.Equal(c, []string{"input", "tap", itoa(cx), itoa(cy)})
			}) {
				t.Errorf("no `input tap %d %d` among %q", cx, cy, f.Shell())
			}
			if res, err := d.Perform(ctx, device.Action{Type: device.Back, Node: -1}); err != nil || !res.OK || f.Config().Screen != 0 {
				t.Errorf("back: %+v %v screen %d", res, err, f.Config().Screen)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestImeEnter: Enter in a field taps the field, then sends KEYCODE_ENTER;
// with no field, only the key event (the focused field gets it).
func TestImeEnter(t *testing.T) {
	tr := traces(t)[0]
	d, f := connect(t, tr, adbtest.ModeOK)
	ctx := context.Background()
	if _, err := d.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	has := func(want ...string) bool {
		return slices.ContainsFunc(f.Shell(), func(c []string) bool { return slices.Equal(c, want) })
	}
	if res, err := d.Perform(ctx, device.Action{Type: device.ImeEnter, Node: -1}); err != nil || !res.OK {
		t.Fatalf("enter: %+v %v", res, err)
	}
	if !has("input", "keyevent", "KEYCODE_ENTER") {
		t.Fatalf("no `input keyevent KEYCODE_ENTER` among %q", f.Shell())
	}
	n := len(f.Shell())
	b := screen.Rect{100, 200, 300, 400}
	if res, err := d.Perform(ctx, device.Action{Type: device.ImeEnter, Node: 0, Bounds: b}); err != nil || !res.OK {
		t.Fatalf("enter in a field: %+v %v", res, err)
	}
	if later := f.Shell()[n:]; !slices.ContainsFunc(later, func(c []string) bool { return slices.Equal(c, []string{"input", "tap", "200", "300"}) }) {
		t.Fatalf("the field was not tapped first: %q", later)
	}
}

// TestInputTextEscaping types awkward text and checks, through a real
// /bin/sh split of the shell command, that `input text` got exactly it.
func TestInputTextEscaping(t *testing.T) {
	tr := traces(t)[0]
	d, f := connect(t, tr, adbtest.ModeOK)
	ctx := context.Background()
	s, err := d.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	node := -1
	for i := range s.Nodes {
		if s.Nodes[i].Bounds.Area() > 0 {
			node = i
			break
		}
	}
	for _, text := range []string{
		"milk",
		"I'm late",
		`say "hi" & $HOME; rm -rf / | cat`,
		"`date` $(id) \\ back\\slash",
		"tab\tless?", // refused: control character
		"100% sure",
		"naïve",
		"a %s b",
		"",
	} {
		t.Run(text, func(t *testing.T) {
			before := len(f.Shell())
			res, err := d.Perform(ctx, device.Action{Type: device.Input, Node: node, Text: text})
			if err != nil {
				t.Fatal(err)
			}
			_, qerr := adb.InputTextArg(text)
			if qerr != nil {
				if res.OK || !strings.Contains(res.Message, "input") {
					t.Errorf("untypeable %q: result %+v, want a no-effect result that says why", text, res)
				}
				return
			}
			if !res.OK {
				t.Fatalf("input %q: %+v", text, res)
			}
			if text == "" {
				return
			}
			if got := f.Config().Typed; got != text {
				t.Errorf("typed %q, want %q (shell commands %q)", got, text, f.Shell()[before:])
			}
			for _, c := range f.Shell()[before:] {
				if len(c) > 1 && c[0] == "input" && c[1] == "text" && len(c) != 3 {
					t.Errorf("input text got %d words, want 1: %q", len(c)-2, c)
				}
			}
		})
	}
}

// TestErrorModes drives the fake through each way adb fails and checks
// the kind of error (or no-effect result) and that the message helps.
func TestErrorModes(t *testing.T) {
	tr := traces(t)[0]
	ctx := context.Background()
	type step func(d *adb.Device) error
	snap := func(d *adb.Device) error { _, err := d.Snapshot(ctx); return err }
	fg := func(d *adb.Device) error { _, err := d.ForegroundApp(ctx); return err }
	perform := func(a device.Action) step {
		return func(d *adb.Device) error {
			res, err := d.Perform(ctx, a)
			if err != nil {
				return err
			}
			if !res.OK {
				return errors.New("no effect: " + res.Message)
			}
			return nil
		}
	}
	cases := []struct {
		mode    string
		serial  string
		connect adb.Kind // expected Connect failure, or ""
		then    step     // run after a good connect, under mode
		want    adb.Kind // expected kind from then
		msg     string   // expected in the no-effect message when want is ""
	}{
		{mode: adbtest.ModeNoDevice, connect: adb.KindNoDevice},
		{mode: adbtest.ModeUnauthorized, connect: adb.KindUnauthorized},
		{mode: adbtest.ModeOffline, connect: adb.KindOffline},
		{mode: adbtest.ModeSeveral, connect: adb.KindSeveral},
		{mode: adbtest.ModeOK, serial: "NOPE", connect: adb.KindSerialNotFound},
		{mode: adbtest.ModeServer, connect: adb.KindServer},
		{mode: adbtest.ModeExit, connect: adb.KindCommandFailed},
		{mode: adbtest.ModeDisconnect, then: snap, want: adb.KindDisconnected},
		{mode: adbtest.ModeIdle, then: snap, want: adb.KindDumpFailed},
		{mode: adbtest.ModeMalformed, then: snap, want: adb.KindMalformedDump},
		{mode: adbtest.ModeHang, then: snap, want: adb.KindTimeout},
		{mode: adbtest.ModeNoFocus, then: fg, want: adb.KindNoForeground},
		{mode: adbtest.ModePermission, then: perform(device.Action{Type: device.Tap, Node: -1, X: 5, Y: 5}), msg: "permission"},
		{mode: adbtest.ModeNoLauncher, then: perform(device.Action{Type: device.Launch, Node: -1, Package: "org.example.app"}), msg: "no launchable activity"},
	}
	for _, c := range cases {
		t.Run(c.mode+c.serial, func(t *testing.T) {
			f := adbtest.Install(t, tr, adbtest.ModeOK)
			if c.connect != "" {
				f.SetMode(c.mode)
				_, err := adb.Connect(ctx, c.serial, fast)
				if !adb.IsKind(err, c.connect) {
					t.Fatalf("connect: %v, want kind %s", err, c.connect)
				}
				if strings.Count(err.Error(), "adb") == 0 {
					t.Errorf("message %q does not say it is adb", err)
				}
				return
			}
			opt := fast
			opt.CommandTimeout = 300 * time.Millisecond
			if c.mode != adbtest.ModeHang {
				opt.CommandTimeout = 5 * time.Second
			}
			d, err := adb.Connect(ctx, "", opt)
			if err != nil {
				t.Fatal(err)
			}
			f.SetMode(c.mode)
			err = c.then(d)
			if c.want != "" {
				if !adb.IsKind(err, c.want) {
					t.Fatalf("got %v, want kind %s", err, c.want)
				}
				if c.want == adb.KindDisconnected && !errors.Is(err, device.ErrDisconnected) {
					t.Errorf("%v is not device.ErrDisconnected", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v, want a no-effect result mentioning %q", err, c.msg)
			}
		})
	}
	t.Run("adb_missing", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := adb.Connect(ctx, "", fast)
		if !adb.IsKind(err, adb.KindAdbMissing) || !strings.Contains(err.Error(), "apt-get install adb") {
			t.Fatalf("got %v, want adb_missing with an install hint", err)
		}
	})
}

// TestDumpFallback: a phone whose uiautomator cannot write to /dev/tty is
// dumped to a file and read with cat.
func TestDumpFallback(t *testing.T) {
	tr := traces(t)[0]
	d, f := connect(t, tr, adbtest.ModeNoTTY)
	s, err := d.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Nodes) == 0 {
		t.Fatal("empty snapshot")
	}
	var sawCat bool
	for _, c := range f.Calls() {
		if slices.Contains(c, "cat") {
			sawCat = true
		}
	}
	if !sawCat {
		t.Errorf("no dump-then-cat among %q", f.Calls())
	}
}

// TestSettlePolls: with settling on, Snapshot dumps until two dumps agree.
func TestSettlePolls(t *testing.T) {
	tr := traces(t)[0]
	f := adbtest.Install(t, tr, adbtest.ModeOK)
	d, err := adb.Connect(context.Background(), "", adb.Options{SettleTimeout: 2 * time.Second, SettleInterval: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Snapshot(context.Background()); err != nil {
		t.Fatal(err)
	}
	dumps := 0
	for _, c := range f.Calls() {
		if slices.Contains(c, "uiautomator") {
			dumps++
		}
	}
	if dumps != 2 {
		t.Errorf("%d dumps for a still screen, want 2 (one to compare)", dumps)
	}
}

func TestParseDevicesAndResumed(t *testing.T) {
	devs := adb.ParseDevices("* daemon started successfully\nList of devices attached\nR58M\tdevice usb:1 product:x model:Pixel_7 device:y\nemulator-5554\toffline\n\n")
	if len(devs) != 2 || devs[0].Model != "Pixel_7" || devs[1].State != "offline" {
		t.Errorf("devices: %+v", devs)
	}
	for in, want := range map[string]string{
		"  mResumedActivity: ActivityRecord{c0ffee u0 org.example.app/.Main t12}":        "org.example.app/org.example.app.Main",
		"    topResumedActivity=ActivityRecord{1 u0 org.example/org.example.ui.Home t3}": "org.example/org.example.ui.Home",
		"  mCurrentFocus=Window{9f u0 org.example/org.example.ui.Home}":                  "org.example/org.example.ui.Home",
		"  mCurrentFocus=null": "",
		"ResumedActivity: ActivityRecord{2 u0 com.a.b/com.a.b.X$Inner t1}\nmore lines here": "com.a.b/com.a.b.X$Inner",
	} {
		if got := adb.ParseResumed(in); got != want {
			t.Errorf("ParseResumed(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzInputTextArg(f *testing.F) {
	for _, s := range []string{"I'm late", `a"b`, "x y", "''", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := adb.InputTextArg(s)
		if err != nil {
			return
		}
		if !strings.HasPrefix(q, "'") || !strings.HasSuffix(q, "'") || strings.Contains(q, " ") {
			t.Fatalf("InputTextArg(%q) = %q: want one single-quoted word", s, q)
		}
	})
}

func FuzzParseDevices(f *testing.F) {
	f.Add("List of devices attached\nX\tdevice model:M\n")
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range adb.ParseDevices(s) {
			if d.Serial == "" || d.State == "" {
				t.Fatalf("empty field in %+v", d)
			}
		}
	})
}

func FuzzParseResumed(f *testing.F) {
	f.Add("  mResumedActivity: ActivityRecord{c0ffee u0 org.example.app/.Main t12}")
	f.Add("mCurrentFocus=Window{9f u0 a.b/c.D}")
	f.Fuzz(func(t *testing.T, s string) {
		got := adb.ParseResumed(s)
		if got != "" && !strings.Contains(got, "/") {
			t.Fatalf("ParseResumed(%q) = %q: want pkg/activity or empty", s, got)
		}
	})
}
