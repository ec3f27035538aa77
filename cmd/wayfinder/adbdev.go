package main

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/adb"
)

// adbChoice is what `--adb [SERIAL]` asked for.
type adbChoice struct {
	On     bool
	Serial string // "" = the only connected device
}

// serialRE is what an adb serial looks like: USB serials, emulator-5554,
// host:port of a network device.
var serialRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]*$`)

// takeADB removes `--adb`, `--adb=SERIAL` and `--adb SERIAL` from args (the
// flag package has no optional values). A word after a bare --adb is the
// serial when it looks like one and, with positional, more words follow
// (so `run --adb "open notes"` keeps its command).
func takeADB(args []string, positional bool) (adbChoice, []string) {
	var c adbChoice
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "adb" {
			rest = append(rest, a)
			continue
		}
		c.On = true
		if hasVal {
			c.Serial = val
			continue
		}
		if i+1 < len(args) && serialRE.MatchString(args[i+1]) && (!positional || hasPositionalAfter(args[i+2:])) {
			c.Serial = args[i+1]
			i++
		}
	}
	return c, rest
}

func hasPositionalAfter(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return true
		}
	}
	return false
}

// connectADB connects to the phone, saying which on standard error.
func connectADB(ctx context.Context, c adbChoice) (*adb.Device, error) {
	d, err := adb.Connect(ctx, c.Serial, adb.Options{})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(os.Stderr, "adb: %s %s\n", d.Serial(), d.Model())
	return d, nil
}
