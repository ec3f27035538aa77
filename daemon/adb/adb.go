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

	mu    sync.Mutex
	last  *screen.Snapshot // the last dump, for Perform's node lookup and Changed
	fresh *screen.Snapshot // the screen Perform settled on, served once by Snapshot
	dump  string           // "tty" | "file": which dump method works on this phone
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

var _ device.Device = (*Device)(nil)
