package adb

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Snapshot dumps the screen until two consecutive dumps have the same
// fingerprint (or SettleTimeout passes) and returns the last one, with
// the foreground activity. Right after Perform it returns the screen
// Perform already settled on (once), sparing a second settling.
func (d *Device) Snapshot(ctx context.Context) (*screen.Snapshot, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s := d.fresh; s != nil {
		d.fresh = nil
		return s, nil
	}
	return d.settled(ctx)
}

func (d *Device) settled(ctx context.Context) (*screen.Snapshot, error) {
	s, err := d.dumpOnce(ctx)
	if err != nil {
		return nil, err
	}
	if d.opt.SettleTimeout > 0 {
		fp := screen.Fingerprint(s)
		deadline := time.Now().Add(d.opt.SettleTimeout)
		for time.Now().Before(deadline) {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(d.opt.SettleInterval):
			}
			s2, err := d.dumpOnce(ctx)
			if err != nil {
				return nil, err
			}
			fp2 := screen.Fingerprint(s2)
			s = s2
			if fp2 == fp {
				break
			}
			fp = fp2
		}
	}
	if act, err := d.foregroundActivity(ctx); err == nil {
		s.Activity = act
	} else if !IsKind(err, KindNoForeground) {
		return nil, err
	}
	d.last = s
	return s, nil
}

// dumpOnce takes one uiautomator dump: `exec-out uiautomator dump
// /dev/tty` (the XML, then a "UI hierchary dumped to" line), falling back
// for good to dump-to-file-then-cat when the phone's uiautomator cannot
// write to /dev/tty.
func (d *Device) dumpOnce(ctx context.Context) (*screen.Snapshot, error) {
	if d.dump == "tty" {
		out, err := d.adb(ctx, true, "exec-out", "uiautomator", "dump", "/dev/tty")
		if err != nil {
			return nil, err
		}
		if xml, ok := cutXML(out); ok {
			return d.parse(xml, []string{"exec-out", "uiautomator", "dump", "/dev/tty"})
		}
		if e := classify(d.serial, []string{"exec-out", "uiautomator", "dump", "/dev/tty"}, out, nil); e != nil {
			return nil, e // a failed dump, not a phone that cannot dump to /dev/tty
		}
		d.dump = "file"
	}
	const file = "/sdcard/window_dump.xml"
	if _, err := d.shell(ctx, "uiautomator dump "+file, true); err != nil {
		return nil, err
	}
	out, err := d.adb(ctx, true, "exec-out", "cat", file)
	if err != nil {
		return nil, err
	}
	xml, ok := cutXML(out)
	if !ok {
		if e := classify(d.serial, []string{"exec-out", "cat", file}, out, nil); e != nil {
			return nil, e
		}
		return nil, &Error{Kind: KindMalformedDump, Serial: d.serial, Args: []string{"exec-out", "cat", file}, Output: clip(out)}
	}
	return d.parse(xml, []string{"exec-out", "cat", file})
}

func (d *Device) parse(xml []byte, args []string) (*screen.Snapshot, error) {
	s, err := screen.ParseUIAutomator(xml)
	if err != nil {
		return nil, &Error{Kind: KindMalformedDump, Serial: d.serial, Args: args, Err: err}
	}
	return s, nil
}

// cutXML returns the <?xml ...?><hierarchy>...</hierarchy> part of out.
func cutXML(out string) ([]byte, bool) {
	start := strings.Index(out, "<?xml")
	if start < 0 {
		start = strings.Index(out, "<hierarchy")
	}
	end := strings.LastIndex(out, "</hierarchy>")
	if start < 0 || end < start {
		return nil, false
	}
	return []byte(out[start : end+len("</hierarchy>")]), true
}

// InstalledApps lists the packages of `pm list packages`; the label is a
// readable guess from the package name (pm gives no labels), e.g.
// "com.example.notes.pro" -> "notes".
func (d *Device) InstalledApps(ctx context.Context) ([]device.App, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	out, err := d.shell(ctx, "pm list packages", false)
	if err != nil {
		return nil, err
	}
	var apps []device.App
	for _, line := range strings.Split(out, "\n") {
		pkg, ok := strings.CutPrefix(strings.TrimSpace(line), "package:")
		if !ok || pkg == "" {
			continue
		}
		apps = append(apps, device.App{Package: pkg, Label: LabelFromPackage(pkg)})
	}
	return apps, nil
}

// LabelFromPackage guesses an app's label from its package: the last
// segment that is not a generic word (pro, free, android, app, ...).
func LabelFromPackage(pkg string) string {
	parts := strings.Split(pkg, ".")
	for i := len(parts) - 1; i > 0; i-- {
		switch strings.ToLower(parts[i]) {
		case "pro", "free", "lite", "android", "app", "apps", "debug", "beta", "mobile", "client", "full":
			continue
		}
		return parts[i]
	}
	return pkg
}

// ForegroundApp returns the package of the resumed activity.
func (d *Device) ForegroundApp(ctx context.Context) (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	act, err := d.foregroundActivity(ctx)
	if err != nil {
		return "", err
	}
	pkg, _, _ := strings.Cut(act, "/")
	return pkg, nil
}

// resumedRE finds "pkg/activity" in dumpsys lines such as
// "mResumedActivity: ActivityRecord{c0ffee u0 com.x/.Main t12}",
// "topResumedActivity=ActivityRecord{...}" or
// "mCurrentFocus=Window{... u0 com.x/com.x.Main}".
var resumedRE = regexp.MustCompile(`(?:ResumedActivity|mFocusedApp|mCurrentFocus)[:=].*?\s([A-Za-z0-9_.]+/[A-Za-z0-9_.$]+)`)

// foregroundActivity reads "pkg/.Activity" from `dumpsys activity
// activities`, else from `dumpsys window`. The short form ".Main" is
// expanded to "pkg.Main".
func (d *Device) foregroundActivity(ctx context.Context) (string, error) {
	for _, cmd := range []string{"dumpsys activity activities", "dumpsys window"} {
		out, err := d.shell(ctx, cmd, false)
		if err != nil {
			return "", err
		}
		if act := ParseResumed(out); act != "" {
			return act, nil
		}
	}
	return "", &Error{Kind: KindNoForeground, Serial: d.serial, Args: []string{"shell", "dumpsys window"}}
}

// ParseResumed returns the "pkg/pkg.Activity" of the first resumed or
// focused activity in dumpsys output, or "".
func ParseResumed(out string) string {
	m := resumedRE.FindStringSubmatch(out)
	if m == nil {
		return ""
	}
	pkg, act, _ := strings.Cut(m[1], "/")
	if strings.HasPrefix(act, ".") {
		act = pkg + act
	}
	return pkg + "/" + act
}
