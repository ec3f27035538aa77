// Package adbtest is a fake `adb` for tests: the test binary itself,
// linked as "adb" into a temporary directory put first on PATH. It serves
// the screens of a recorded uiautomator trace (N.xml, N.activity), moves to
// the next screen on a tap and back on BACK, records every invocation, and
// fails in a chosen Mode the way real adb and the device tools do.
//
// A test package that uses it calls Serve first in its TestMain:
//
//	func TestMain(m *testing.M) { adbtest.Serve(); os.Exit(m.Run()) }
//
// Serve returns at once in the test process, and runs the fake (then exits)
// when the binary was started as "adb".
package adbtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Failure modes, each one way adb or the device fails.
const (
	ModeOK           = ""
	ModeNoDevice     = "no_device"    // `adb devices` lists nothing
	ModeUnauthorized = "unauthorized" // listed as unauthorized
	ModeOffline      = "offline"      // listed as offline
	ModeSeveral      = "several"      // two devices listed
	ModeDisconnect   = "disconnect"   // every -s call: "error: device 'S' not found"
	ModeIdle         = "idle"         // uiautomator: "ERROR: could not get idle state."
	ModeMalformed    = "malformed"    // the dump is cut in the middle of the XML
	ModePermission   = "permission"   // input: SecurityException (INJECT_EVENTS)
	ModeHang         = "hang"         // every call sleeps 30 s
	ModeNoTTY        = "no_tty"       // exec-out dump /dev/tty writes no XML (old phones): dump-then-cat works
	ModeNoLauncher   = "no_launcher"  // monkey finds no launcher activity, resolve-activity neither
	ModeNoFocus      = "no_focus"     // dumpsys names no resumed activity
	ModeServer       = "server"       // the adb server cannot start
	ModeExit         = "exit"         // every call exits 1 with an unknown message
)

// Serial is the serial of the fake device.
const Serial = "FAKE0001"

const envDir = "WAYFINDER_FAKEADB_DIR"

// Config is the fake's state, kept as JSON in its directory.
type Config struct {
	Trace  string `json:"trace"`  // directory of N.xml (and N.activity) files
	Mode   string `json:"mode"`   // one of the Mode constants
	Screen int    `json:"screen"` // current screen index
	Typed  string `json:"typed"`  // the text of the last `input text`
}

// Fake is an installed fake adb.
type Fake struct {
	Dir string
	t   testing.TB
}

// Install links the test binary as "adb" into a temporary directory,
// prepends it to PATH (t.Setenv) and starts on screen 0 of trace.
func Install(t testing.TB, trace, mode string) *Fake {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "adb")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(envDir, dir)
	f := &Fake{Dir: dir, t: t}
	f.save(Config{Trace: trace, Mode: mode})
	return f
}

// SetMode changes the failure mode.
func (f *Fake) SetMode(mode string) {
	c := f.Config()
	c.Mode = mode
	f.save(c)
}

// Config returns the fake's current state.
func (f *Fake) Config() Config {
	c, err := load(f.Dir)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

func (f *Fake) save(c Config) {
	if err := save(f.Dir, c); err != nil {
		f.t.Fatal(err)
	}
}

// Calls returns the argument lists adb received, oldest first; for
// `shell CMD` the command string is split the way the device's sh splits
// it (by running /bin/sh), so Calls shows what the device tools got.
func (f *Fake) Calls() [][]string {
	b, err := os.ReadFile(filepath.Join(f.Dir, "calls.jsonl"))
	if err != nil && !os.IsNotExist(err) {
		f.t.Fatal(err)
	}
	var out [][]string
	for _, line := range bytes.Split(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var c []string
		if err := json.Unmarshal(line, &c); err != nil {
			f.t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// Shell returns the device commands received (argv after sh splitting).
func (f *Fake) Shell() [][]string {
	var out [][]string
	for _, c := range f.Calls() {
		if len(c) > 0 && c[0] == "shell>" {
			out = append(out, c[1:])
		}
	}
	return out
}

func load(dir string) (Config, error) {
	var c Config
	b, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err != nil {
		return c, err
	}
	return c, json.Unmarshal(b, &c)
}

func save(dir string, c Config) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "state.json"), b, 0o644)
}

// Serve runs the fake and exits when the process was started as "adb"
// with the fake's directory in the environment; otherwise it returns.
func Serve() {
	dir := os.Getenv(envDir)
	if filepath.Base(os.Args[0]) != "adb" || dir == "" {
		return
	}
	code, err := serve(dir, os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake adb:", err)
		code = 3
	}
	os.Exit(code)
}

func record(dir string, args []string) {
	b, _ := json.Marshal(args)
	f, err := os.OpenFile(filepath.Join(dir, "calls.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(b, '\n'))
}

func serve(dir string, args []string) (int, error) {
	record(dir, args)
	c, err := load(dir)
	if err != nil {
		return 0, err
	}
	out, errw := os.Stdout, os.Stderr
	switch c.Mode {
	case ModeHang:
		time.Sleep(30 * time.Second)
	case ModeServer:
		fmt.Fprint(errw, "* daemon not running; starting now at tcp:5037\nADB server didn't ACK\n* failed to start daemon\nerror: cannot connect to daemon\n")
		return 1, nil
	case ModeExit:
		fmt.Fprint(errw, "adb: something unexpected\n")
		return 1, nil
	}
	if len(args) >= 1 && args[0] == "devices" {
		fmt.Fprintln(out, "List of devices attached")
		switch c.Mode {
		case ModeNoDevice:
		case ModeUnauthorized:
			fmt.Fprintf(out, "%s\tunauthorized usb:1-1 transport_id:1\n", Serial)
		case ModeOffline:
			fmt.Fprintf(out, "%s\toffline usb:1-1 transport_id:1\n", Serial)
		case ModeSeveral:
			fmt.Fprintf(out, "%s\tdevice usb:1-1 product:fake model:Fake_Phone device:fake transport_id:1\n", Serial)
			fmt.Fprintf(out, "emulator-5554\tdevice product:sdk model:sdk_phone device:emu transport_id:2\n")
		default:
			fmt.Fprintf(out, "%s\tdevice usb:1-1 product:fake model:Fake_Phone device:fake transport_id:1\n", Serial)
		}
		fmt.Fprintln(out)
		return 0, nil
	}
	if len(args) < 2 || args[0] != "-s" {
		fmt.Fprintf(errw, "adb: usage: unknown command %v\n", args)
		return 1, nil
	}
	if args[1] != Serial || c.Mode == ModeDisconnect {
		fmt.Fprintf(errw, "error: device '%s' not found\n", args[1])
		return 1, nil
	}
	args = args[2:]
	if len(args) == 0 {
		return 1, nil
	}
	switch args[0] {
	case "exec-out":
		return execOut(dir, c, args[1:])
	case "shell":
		if len(args) != 2 {
			return 0, fmt.Errorf("want one shell command string, got %q", args[1:])
		}
		argv, err := shSplit(args[1])
		if err != nil {
			return 0, err
		}
		record(dir, append([]string{"shell>"}, argv...))
		return shell(dir, c, argv)
	}
	fmt.Fprintf(errw, "adb: unknown command %s\n", args[0])
	return 1, nil
}

// shSplit splits a command string the way sh does, by asking /bin/sh to
// print its words NUL-separated. Unquoted ; & | would run further commands
// here as on the phone, which the printed words reveal.
func shSplit(cmd string) ([]string, error) {
	script := `w() { for a in "$@"; do printf '%s\000' "$a"; done; }; w ` + cmd
	cmdSh := exec.Command("/bin/sh", "-c", script)
	cmdSh.Env = []string{"PATH=/nonexistent"} // a mis-escaped text can run builtins only
	b, err := cmdSh.Output()
	if err != nil {
		return nil, fmt.Errorf("sh could not split %q: %v", cmd, err)
	}
	parts := strings.Split(string(b), "\x00")
	return parts[:len(parts)-1], nil
}

func screenXML(c Config) ([]byte, error) {
	return os.ReadFile(filepath.Join(c.Trace, strconv.Itoa(c.Screen)+".xml"))
}

func screens(c Config) int {
	n := 0
	for {
		if _, err := os.Stat(filepath.Join(c.Trace, strconv.Itoa(n)+".xml")); err != nil {
			return n
		}
		n++
	}
}

func dumpOutput(c Config, to string) (int, error) {
	switch c.Mode {
	case ModeIdle:
		fmt.Fprintln(os.Stdout, "ERROR: could not get idle state.")
		return 1, nil
	}
	b, err := screenXML(c)
	if err != nil {
		return 0, err
	}
	if c.Mode == ModeMalformed {
		b = b[:len(b)/2]
	}
	if to == "/dev/tty" {
		os.Stdout.Write(b)
	}
	fmt.Fprintf(os.Stdout, "UI hierchary dumped to: %s\n", to)
	return 0, nil
}

func execOut(dir string, c Config, args []string) (int, error) {
	switch {
	case slices.Equal(args, []string{"uiautomator", "dump", "/dev/tty"}):
		if c.Mode == ModeNoTTY {
			fmt.Fprintln(os.Stdout, "UI hierchary dumped to: /dev/tty")
			return 0, nil
		}
		return dumpOutput(c, "/dev/tty")
	case len(args) == 2 && args[0] == "cat":
		b, err := os.ReadFile(filepath.Join(dir, "sdcard.xml"))
		if err != nil {
			fmt.Fprintf(os.Stdout, "cat: %s: No such file or directory\n", args[1])
			return 1, nil
		}
		os.Stdout.Write(b)
		return 0, nil
	}
	fmt.Fprintf(os.Stderr, "exec-out: unknown %q\n", args)
	return 1, nil
}

func activity(c Config) string {
	b, err := os.ReadFile(filepath.Join(c.Trace, strconv.Itoa(c.Screen)+".activity"))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func shell(dir string, c Config, argv []string) (int, error) {
	out := os.Stdout
	if len(argv) == 0 {
		return 1, nil
	}
	switch argv[0] {
	case "uiautomator":
		if len(argv) == 3 && argv[1] == "dump" {
			if c.Mode == ModeIdle {
				return dumpOutput(c, argv[2])
			}
			b, err := screenXML(c)
			if err != nil {
				return 0, err
			}
			if c.Mode == ModeMalformed {
				b = b[:len(b)/2]
			}
			if err := os.WriteFile(filepath.Join(dir, "sdcard.xml"), b, 0o644); err != nil {
				return 0, err
			}
			fmt.Fprintf(out, "UI hierchary dumped to: %s\n", argv[2])
			return 0, nil
		}
	case "dumpsys":
		if c.Mode == ModeNoFocus {
			fmt.Fprintln(out, "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)\n  (nothing)")
			return 0, nil
		}
		act := activity(c)
		if len(argv) > 1 && argv[1] == "activity" {
			fmt.Fprintf(out, "ACTIVITY MANAGER ACTIVITIES\n  Display #0\n    mResumedActivity: ActivityRecord{1a2b3c u0 %s t42}\n", act)
		} else {
			fmt.Fprintf(out, "WINDOW MANAGER\n  mCurrentFocus=Window{9f u0 %s}\n", act)
		}
		return 0, nil
	case "pm":
		pkg, _, _ := strings.Cut(activity(c), "/")
		fmt.Fprintf(out, "package:com.android.settings\npackage:%s\n", pkg)
		return 0, nil
	case "monkey":
		pkg := ""
		if len(argv) > 2 && argv[1] == "-p" {
			pkg = argv[2]
		}
		cur, _, _ := strings.Cut(activity(c), "/")
		if c.Mode == ModeNoLauncher || pkg != cur {
			fmt.Fprintln(out, "  bash arg: -p\n** No activities found to run, monkey aborted.")
			return 252, nil
		}
		c.Screen = 0
		fmt.Fprintln(out, "  bash arg: -p\nEvents injected: 1\n## Network stats: elapsed time=12ms")
		return 0, save(dir, c)
	case "cmd":
		fmt.Fprintln(out, "No activity found")
		return 0, nil
	case "input":
		if c.Mode == ModePermission {
			fmt.Fprintln(out, "java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission")
			return 1, nil
		}
		return input(dir, c, argv[1:])
	}
	fmt.Fprintf(out, "/system/bin/sh: %s: not found\n", argv[0])
	return 127, nil
}

func input(dir string, c Config, argv []string) (int, error) {
	if len(argv) == 0 {
		fmt.Fprintln(os.Stdout, "Error: Unknown command")
		return 1, nil
	}
	switch argv[0] {
	case "tap":
		if len(argv) != 3 {
			fmt.Fprintln(os.Stdout, "Error: Invalid arguments for command: tap")
			return 1, nil
		}
		if c.Screen+1 < screens(c) {
			c.Screen++
		}
	case "keyevent":
		for _, k := range argv[1:] {
			if k == "KEYCODE_BACK" && c.Screen > 0 {
				c.Screen--
			}
			if k == "KEYCODE_HOME" {
				c.Screen = 0
			}
		}
	case "text":
		if len(argv) != 2 {
			fmt.Fprintln(os.Stdout, "Error: Invalid arguments for command: text")
			return 1, nil
		}
		c.Typed = strings.ReplaceAll(argv[1], "%s", " ")
	case "swipe":
		if len(argv) < 5 {
			fmt.Fprintln(os.Stdout, "Error: Invalid arguments for command: swipe")
			return 1, nil
		}
	default:
		fmt.Fprintln(os.Stdout, "Error: Unknown command: "+argv[0])
		return 1, nil
	}
	return 0, save(dir, c)
}
