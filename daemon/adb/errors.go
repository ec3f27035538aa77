package adb

import (
	"errors"
	"fmt"
	"strings"
)

// Kind classifies what went wrong with adb or the device, so callers (the
// CLI, the engine's error outcome) can say what to do about it.
type Kind string

// Error kinds. Each names one failure the owner can act on.
const (
	KindAdbMissing     Kind = "adb_missing"      // no adb on PATH
	KindNoDevice       Kind = "no_device"        // `adb devices` lists nothing
	KindUnauthorized   Kind = "unauthorized"     // the phone has not accepted this computer's key
	KindOffline        Kind = "offline"          // listed but offline
	KindSeveral        Kind = "several_devices"  // more than one device and no serial given
	KindSerialNotFound Kind = "serial_not_found" // the given serial is not connected
	KindDisconnected   Kind = "disconnected"     // the device went away mid-session
	KindDumpFailed     Kind = "dump_failed"      // uiautomator could not dump (no idle state, service busy)
	KindMalformedDump  Kind = "malformed_dump"   // the dump is not uiautomator XML
	KindPermission     Kind = "permission"       // the shell user may not inject input / read the file
	KindTimeout        Kind = "timeout"          // an adb call exceeded its time limit
	KindCommandFailed  Kind = "command_failed"   // adb or the device command exited non-zero for another reason
	KindNoForeground   Kind = "no_foreground"    // dumpsys named no resumed activity
	KindUnsupported    Kind = "unsupported"      // the action cannot be expressed through `adb shell input`
	KindServer         Kind = "server"           // the adb server could not be started or reached
)

// Error is a failure of adb or the device, with the adb arguments that
// failed and what adb said. errors.Is(err, device.ErrDisconnected) holds
// for KindDisconnected, KindNoDevice and KindSerialNotFound.
type Error struct {
	Kind   Kind
	Serial string
	Args   []string // the adb arguments, without -s SERIAL
	Output string   // trimmed stderr/stdout of adb, at most 300 bytes
	Err    error    // the underlying error, if any
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("adb")
	if e.Serial != "" {
		fmt.Fprintf(&b, " [%s]", e.Serial)
	}
	if len(e.Args) > 0 {
		fmt.Fprintf(&b, " %s", strings.Join(e.Args, " "))
	}
	fmt.Fprintf(&b, ": %s", hints[e.Kind])
	if e.Output != "" {
		fmt.Fprintf(&b, " (adb said: %s)", e.Output)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Is lets errors.Is(err, device.ErrDisconnected) and errors.Is(err,
// &Error{Kind: k}) match.
func (e *Error) Is(target error) bool {
	if t, ok := target.(*Error); ok {
		return t.Kind == e.Kind
	}
	if target == errDisconnected {
		return e.Kind == KindDisconnected || e.Kind == KindNoDevice || e.Kind == KindSerialNotFound
	}
	return false
}

// IsKind reports whether err is an *Error of kind k.
func IsKind(err error, k Kind) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == k
}

var hints = map[Kind]string{
	KindAdbMissing:     "adb is not on PATH (Debian: apt-get install adb; or add platform-tools to PATH)",
	KindNoDevice:       "no device connected (plug in the phone, enable USB debugging, check `adb devices`)",
	KindUnauthorized:   "the phone has not authorised this computer (unlock it and accept the USB debugging prompt)",
	KindOffline:        "the device is offline (reconnect the cable or run `adb reconnect`)",
	KindSeveral:        "several devices are connected; choose one with --adb SERIAL",
	KindSerialNotFound: "no connected device has this serial (see `adb devices`)",
	KindDisconnected:   "the device disconnected",
	KindDumpFailed:     "uiautomator could not dump the screen (the UI never went idle, or another uiautomator is running)",
	KindMalformedDump:  "the screen dump is not uiautomator XML",
	KindPermission:     "permission denied on the device",
	KindTimeout:        "adb did not answer in time",
	KindCommandFailed:  "the command failed",
	KindNoForeground:   "dumpsys named no foreground activity",
	KindUnsupported:    "the action cannot be sent through adb shell input",
	KindServer:         "the adb server is not reachable (try `adb kill-server`, then check that nothing else holds port 5037)",
}

// classify turns adb's output and exit status into an *Error, or nil when
// the output shows no failure. Text patterns are adb's own messages
// (platform-tools adb_client.cpp, transport.cpp) and the device shell's.
func classify(serial string, args []string, out string, runErr error) error {
	low := strings.ToLower(out)
	kind := Kind("")
	switch {
	case strings.Contains(low, "unauthorized"):
		kind = KindUnauthorized
	case strings.Contains(low, "more than one device"), strings.Contains(low, "more than one emulator"):
		kind = KindSeveral
	case strings.Contains(low, "no devices/emulators found"), strings.Contains(low, "device not found") && serial == "":
		kind = KindNoDevice
	case strings.Contains(low, "device '") && strings.Contains(low, "not found"),
		strings.Contains(low, "device not found"), strings.Contains(low, "error: closed"),
		strings.Contains(low, "protocol fault"), strings.Contains(low, "connection reset"):
		kind = KindDisconnected
	case strings.Contains(low, "device offline"):
		kind = KindOffline
	case strings.Contains(low, "permission denial"), strings.Contains(low, "permission denied"),
		strings.Contains(low, "securityexception"):
		kind = KindPermission
	case strings.Contains(low, "cannot connect to daemon"), strings.Contains(low, "failed to start daemon"),
		strings.Contains(low, "server version") && strings.Contains(low, "doesn't match"):
		kind = KindServer
	case strings.Contains(low, "could not get idle state"), strings.Contains(low, "null root node"),
		strings.Contains(low, "uiautomationservice") && strings.Contains(low, "already registered"):
		kind = KindDumpFailed
	case runErr != nil:
		kind = KindCommandFailed
	}
	if kind == "" {
		return nil
	}
	return &Error{Kind: kind, Serial: serial, Args: args, Output: clip(out), Err: runErr}
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
