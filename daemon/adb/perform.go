package adb

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// Perform sends a through `adb shell input` (or monkey/am for a launch)
// and returns once adb has returned and the screen has settled; Changed
// compares the settled screen's fingerprint with the last dump's.
func (d *Device) Perform(ctx context.Context, a device.Action) (device.Result, error) {
	if err := a.Validate(); err != nil {
		return device.Result{Message: err.Error()}, nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.fresh = nil
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
	d.fresh = s
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
	case device.ImeEnter:
		// focus the named field first (a tap), then the keyboard's Enter
		if r, ok := d.target(a); ok && a.Node >= 0 {
			if err := d.input(ctx, "tap", itoa((r[0]+r[2])/2), itoa((r[1]+r[3])/2)); err != nil {
				return "", err
			}
		}
		return "", d.input(ctx, "keyevent", "KEYCODE_ENTER")
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
