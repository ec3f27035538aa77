// Package adb drives a real Android phone from a workstation through the
// `adb` on PATH, as a device.Device: screens from `uiautomator dump`
// (parsed by screen.ParseUIAutomator), actions through `adb shell input`,
// launches through monkey or `am start`, installed apps from `pm list
// packages` and the foreground activity from dumpsys.
//
// Every adb invocation is bounded by Options.CommandTimeout and by ctx;
// every failure is an *Error whose Kind says what the owner can do about it
// (adb missing, no device, unauthorised, several devices, offline, a
// disconnect, a failed or malformed dump, a permission denial, a timeout).
package adb

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

var errDisconnected = device.ErrDisconnected

// Options tunes a Device. The zero value is usable.
type Options struct {
	// Bin is the adb executable; "" finds "adb" on PATH.
	Bin string
	// CommandTimeout bounds one adb call; 0 means 20 s (a uiautomator
	// dump of a busy screen takes several seconds on old phones).
	CommandTimeout time.Duration
	// SettleTimeout bounds how long Snapshot polls for two consecutive
	// dumps with the same fingerprint; 0 means 3 s. Negative: no polling.
	SettleTimeout time.Duration
	// SettleInterval is the pause between polls; 0 means 250 ms.
	SettleInterval time.Duration
	// LongPress is the duration of a long press; 0 means 700 ms (above
	// ViewConfiguration's default 400 ms long-press timeout).
	LongPress time.Duration
}

// Device is one phone reached through adb. Safe for concurrent use; adb
// calls are serialised.
type Device struct {
	bin    string
	serial string
	model  string
	opt    Options

	mu   sync.Mutex
	last *screen.Snapshot // the last dump, for Perform's node lookup and Changed
	dump string           // "tty" | "file": which dump method works on this phone
}

// Connect finds adb, lists the devices and picks serial ("" means the only
// connected one). It fails with KindAdbMissing, KindNoDevice,
// KindUnauthorized, KindOffline, KindSeveral or KindSerialNotFound.
func Connect(ctx context.Context, serial string, opt Options) (*Device, error) {
	if opt.CommandTimeout <= 0 {
		opt.CommandTimeout = 20 * time.Second
	}
	if opt.SettleTimeout == 0 {
		opt.SettleTimeout = 3 * time.Second
	}
	if opt.SettleInterval <= 0 {
		opt.SettleInterval = 250 * time.Millisecond
	}
	if opt.LongPress <= 0 {
		opt.LongPress = 700 * time.Millisecond
	}
	bin := opt.Bin
	if bin == "" {
		bin = "adb"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, &Error{Kind: KindAdbMissing, Err: err}
	}
	d := &Device{bin: path, opt: opt, dump: "tty"}
	out, err := d.adb(ctx, false, "devices", "-l")
	if err != nil {
		return nil, err
	}
	devs := ParseDevices(out)
	pick, err := choose(devs, serial)
	if err != nil {
		return nil, err
	}
	d.serial, d.model = pick.Serial, pick.Model
	return d, nil
}

// Serial returns the device's serial.
func (d *Device) Serial() string { return d.serial }

// Model returns the model adb reported ("" when unknown).
func (d *Device) Model() string { return d.model }

// Listed is one line of `adb devices -l`.
type Listed struct {
	Serial string
	State  string // device | unauthorized | offline | recovery | ...
	Model  string
}

// ParseDevices parses the output of `adb devices -l`: a header line, then
// "SERIAL<whitespace>STATE [key:value ...]" per device.
func ParseDevices(out string) []Listed {
	var devs []Listed
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "List of devices") || strings.HasPrefix(line, "*") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		l := Listed{Serial: f[0], State: f[1]}
		for _, kv := range f[2:] {
			if v, ok := strings.CutPrefix(kv, "model:"); ok {
				l.Model = v
			}
		}
		devs = append(devs, l)
	}
	return devs
}

func choose(devs []Listed, serial string) (Listed, error) {
	state := func(l Listed) error {
		switch l.State {
		case "device":
			return nil
		case "unauthorized":
			return &Error{Kind: KindUnauthorized, Serial: l.Serial}
		case "offline":
			return &Error{Kind: KindOffline, Serial: l.Serial}
		default:
			return &Error{Kind: KindCommandFailed, Serial: l.Serial, Output: "device state " + l.State}
		}
	}
	if serial != "" {
		for _, l := range devs {
			if l.Serial == serial {
				return l, state(l)
			}
		}
		return Listed{}, &Error{Kind: KindSerialNotFound, Serial: serial}
	}
	switch len(devs) {
	case 0:
		return Listed{}, &Error{Kind: KindNoDevice}
	case 1:
		return devs[0], state(devs[0])
	}
	var names []string
	for _, l := range devs {
		names = append(names, l.Serial+" ("+l.State+")")
	}
	return Listed{}, &Error{Kind: KindSeveral, Output: strings.Join(names, ", ")}
}

// adb runs `adb [-s SERIAL] args...` and returns its standard output. With
// dev true the serial is passed. Failures are classified *Errors.
func (d *Device) adb(ctx context.Context, dev bool, args ...string) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, d.opt.CommandTimeout)
	defer cancel()
	full := args
	if dev {
		full = append([]string{"-s", d.serial}, args...)
	}
	cmd := exec.CommandContext(cctx, d.bin, full...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if cctx.Err() != nil {
		return "", &Error{Kind: KindTimeout, Serial: d.serial, Args: args, Err: fmt.Errorf("no answer within %v", d.opt.CommandTimeout)}
	}
	var ee *exec.ExitError
	if runErr != nil && !errors.As(runErr, &ee) {
		return "", &Error{Kind: KindCommandFailed, Serial: d.serial, Args: args, Err: runErr}
	}
	msg := stderr.String()
	if runErr != nil && !strings.Contains(stdout.String(), "<hierarchy") {
		msg += "\n" + stdout.String() // the device tool's own error line
	}
	if err := classify(d.serial, args, msg, runErr); err != nil {
		return stdout.String(), err
	}
	return stdout.String(), nil
}

// shell runs `adb -s SERIAL shell cmd`. With tool true its stdout is
// classified too: input, monkey, am and uiautomator print their errors
// there (dumpsys and pm output is data, never classified).
func (d *Device) shell(ctx context.Context, cmd string, tool bool) (string, error) {
	out, err := d.adb(ctx, true, "shell", cmd)
	if err != nil || !tool {
		return out, err
	}
	if e := classify(d.serial, []string{"shell", cmd}, out, nil); e != nil {
		return out, e
	}
	if strings.HasPrefix(strings.TrimSpace(out), "Error") || strings.Contains(out, "Exception") {
		return out, &Error{Kind: KindCommandFailed, Serial: d.serial, Args: []string{"shell", cmd}, Output: clip(out)}
	}
	return out, nil
}

// Snapshot dumps the screen until two consecutive dumps have the same
// fingerprint (or SettleTimeout passes) and returns the last one, with
// the foreground activity.
func (d *Device) Snapshot(ctx context.Context) (*screen.Snapshot, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
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

// Perform sends a through `adb shell input` (or monkey/am for a launch)
// and returns once adb has returned and the screen has settled; Changed
// compares the settled screen's fingerprint with the last dump's.
func (d *Device) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	if err := a.Validate(); err != nil {
		return device.Result{Message: err.Error()}, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	start := time.Now()
	before := ""
	if d.last != nil {
		before = screen.Fingerprint(d.last)
	}
	msg, err := d.perform(ctx, a)
	if err != nil {
		var ae *Error
		if errors.As(err, &ae) && (ae.Kind == KindUnsupported || ae.Kind == KindPermission) {
			return device.Result{Message: err.Error(), DurationMS: time.Since(start).Milliseconds()}, nil
		}
		return device.Result{}, err
	}
	if msg != "" { // the device refused the action without failing
		return device.Result{Message: msg, DurationMS: time.Since(start).Milliseconds()}, nil
	}
	res := device.Result{OK: true}
	s, err := d.settled(ctx)
	if err != nil {
		return device.Result{}, err
	}
	res.Changed = before == "" || screen.Fingerprint(s) != before
	res.DurationMS = time.Since(start).Milliseconds()
	return res, nil
}

// perform sends one action; a non-empty message is a no-effect result.
func (d *Device) perform(ctx context.Context, a device.Action) (string, error) {
	switch a.Type {
	case device.Back:
		return "", d.input(ctx, "keyevent", "KEYCODE_BACK")
	case device.Home:
		return "", d.input(ctx, "keyevent", "KEYCODE_HOME")
	case device.Launch:
		return d.launch(ctx, a.Package)
	}
	r, ok := d.target(a)
	if !ok {
		return fmt.Sprintf("node %d is not on the last screen and the action has no bounds or point", a.Node), nil
	}
	x, y := (r[0]+r[2])/2, (r[1]+r[3])/2
	if a.Node < 0 && (a.X > 0 || a.Y > 0) {
		x, y = a.X, a.Y
	}
	switch a.Type {
	case device.Tap:
		return "", d.input(ctx, "tap", itoa(x), itoa(y))
	case device.LongPress:
		return "", d.input(ctx, "swipe", itoa(x), itoa(y), itoa(x), itoa(y), itoa(int(d.opt.LongPress/time.Millisecond)))
	case device.Scroll:
		// forward reveals what is below: the finger moves up
		h := r.Height()
		y1, y2 := r[1]+h*3/4, r[1]+h/4
		if a.Direction == device.Backward {
			y1, y2 = y2, y1
		}
		return "", d.input(ctx, "swipe", itoa(x), itoa(y1), itoa(x), itoa(y2), "400")
	case device.Input:
		return "", d.typeInto(ctx, x, y, a, r)
	}
	return "", &Error{Kind: KindUnsupported, Serial: d.serial, Output: a.Type}
}

// target returns the bounds of the action's node: its own Bounds, else the
// node in the last dump; for point actions a zero rect.
func (d *Device) target(a device.Action) (screen.Rect, bool) {
	if a.Bounds != (screen.Rect{}) {
		return a.Bounds, true
	}
	if a.Node >= 0 && d.last != nil {
		if n := d.last.Node(a.Node); n != nil {
			return n.Bounds, true
		}
	}
	if a.Node < 0 && (a.X > 0 || a.Y > 0) {
		return screen.Rect{a.X, a.Y, a.X, a.Y}, true
	}
	if a.Node < 0 && a.Type == device.Scroll && d.last != nil {
		for i := range d.last.Nodes {
			if d.last.Nodes[i].Scrollable {
				return d.last.Nodes[i].Bounds, true
			}
		}
		return screen.Rect{0, 0, d.last.Width, d.last.Height}, true
	}
	return screen.Rect{}, false
}

// typeInto focuses the field, deletes its current text and types a.Text.
func (d *Device) typeInto(ctx context.Context, x, y int, a device.Action, r screen.Rect) error {
	arg, err := InputTextArg(a.Text)
	if err != nil {
		return &Error{Kind: KindUnsupported, Serial: d.serial, Err: err}
	}
	if err := d.input(ctx, "tap", itoa(x), itoa(y)); err != nil {
		return err
	}
	old := 0
	if d.last != nil && a.Node >= 0 {
		if n := d.last.Node(a.Node); n != nil && !n.Password {
			old = len([]rune(n.Text))
		}
	}
	if old > 0 || a.Text == "" {
		// move to the end, then delete backwards: one keyevent call
		keys := []string{"keyevent", "KEYCODE_MOVE_END"}
		for i := 0; i < max(old, 1); i++ {
			keys = append(keys, "KEYCODE_DEL")
		}
		if err := d.input(ctx, keys...); err != nil {
			return err
		}
	}
	if a.Text == "" {
		return nil
	}
	return d.input(ctx, "text", arg)
}

func (d *Device) input(ctx context.Context, args ...string) error {
	_, err := d.shell(ctx, "input "+strings.Join(args, " "), true)
	return err
}

// launch starts pkg's launcher activity with monkey; when monkey is
// missing or finds no launcher activity it resolves one with `cmd package
// resolve-activity` and starts it with `am start -n`.
func (d *Device) launch(ctx context.Context, pkg string) (string, error) {
	if !pkgRE.MatchString(pkg) {
		return fmt.Sprintf("%q is not a package name", pkg), nil
	}
	out, err := d.shell(ctx, "monkey -p "+pkg+" -c android.intent.category.LAUNCHER 1", true)
	if err != nil && !IsKind(err, KindCommandFailed) {
		return "", err
	}
	if err == nil && strings.Contains(out, "Events injected") {
		return "", nil
	}
	res, rerr := d.shell(ctx, "cmd package resolve-activity --brief -c android.intent.category.LAUNCHER "+pkg, false)
	if rerr != nil && !IsKind(rerr, KindCommandFailed) {
		return "", rerr
	}
	comp := ""
	for _, line := range strings.Split(res, "\n") {
		if l := strings.TrimSpace(line); strings.HasPrefix(l, pkg+"/") {
			comp = l
		}
	}
	if comp == "" {
		return "no launchable activity for " + pkg + " (monkey: " + clip(out) + ")", nil
	}
	am, err := d.shell(ctx, "am start -n "+comp, false)
	if err != nil {
		return "", err
	}
	if strings.Contains(am, "Error") {
		return "am start " + comp + ": " + clip(am), nil
	}
	return "", nil
}

var pkgRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)+$`)

func itoa(n int) string { return strconv.Itoa(n) }

// InputTextArg quotes text for `input text` run by the device's sh: `input
// text` turns "%s" into a space, so spaces become %s and a literal "%s" is
// refused (it cannot be typed); the whole argument is single-quoted for sh
// ('\” for a quote). `input text` injects key events of the virtual
// keyboard map, which has no keys for non-ASCII or control characters: those
// are refused too.
func InputTextArg(text string) (string, error) {
	if strings.Contains(text, "%s") {
		return "", errors.New(`text contains "%s", which adb's input text turns into a space`)
	}
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range text {
		switch {
		case r == ' ':
			b.WriteString("%s")
		case r == '\'':
			b.WriteString(`'\''`)
		case r < 0x20 || r > 0x7e:
			return "", fmt.Errorf("character %q cannot be typed through adb shell input text (ASCII only)", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String(), nil
}

var _ device.Device = (*Device)(nil)
