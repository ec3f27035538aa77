package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
)

const simHelp = `commands: tap N | long N | input N TEXT | scroll [N] [back] | back | home | launch | tapxy X Y | state | help | quit`

func cmdSim(ctx context.Context, args []string) error {
	fs := newFlags("sim")
	data := fs.String("data", "", "DroidTask-format directory")
	app := fs.String("app", "", "app name in the data set")
	state := fs.String("state", "", "start on this recorded state (default the app's start screen)")
	script := fs.String("script", "", "commands separated by ';' instead of reading standard input")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	d, err := loadData(*data)
	if err != nil {
		return err
	}
	if *app == "" {
		return usageError{"sim: --app NAME is required (one of " + strings.Join(d.AppNames(), ", ") + ")"}
	}
	p, err := sim.New(d, *app)
	if err != nil {
		return err
	}
	if *state != "" {
		if err := p.Reset(*state); err != nil {
			return err
		}
	}
	var in io.Reader = os.Stdin
	if *script != "" {
		in = strings.NewReader(strings.ReplaceAll(*script, ";", "\n"))
	}
	return simLoop(ctx, p, in, os.Stdout, *script == "")
}

func simLoop(ctx context.Context, p *sim.Phone, in io.Reader, out io.Writer, prompt bool) error {
	show := func() error {
		s, err := p.Snapshot(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "\n── %s  state %s  fingerprint %s\n", s.Activity, p.State()[:12], screen.Fingerprint(s)[:12])
		fmt.Fprint(out, screen.Render(screen.Elements(s)))
		return nil
	}
	if err := show(); err != nil {
		return err
	}
	fmt.Fprintln(out, simHelp)
	sc := bufio.NewScanner(in)
	for {
		if prompt {
			fmt.Fprint(out, "> ")
		}
		if !sc.Scan() {
			return sc.Err()
		}
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		f := strings.Fields(line)
		s, err := p.Snapshot(ctx)
		if err != nil {
			return err
		}
		elems := screen.Elements(s)
		elem := func(i int) (screen.Element, error) {
			if len(f) <= i {
				return screen.Element{}, fmt.Errorf("%s needs an element index", f[0])
			}
			n, err := strconv.Atoi(f[i])
			if err != nil || n < 0 || n >= len(elems) {
				return screen.Element{}, fmt.Errorf("no element %q (0..%d)", f[i], len(elems)-1)
			}
			return elems[n], nil
		}
		var a device.Action
		err = nil
		switch f[0] {
		case "quit", "q", "exit":
			return nil
		case "help":
			fmt.Fprintln(out, simHelp)
			continue
		case "state":
			fmt.Fprintln(out, p.State())
			continue
		case "tap", "long":
			var e screen.Element
			if e, err = elem(1); err == nil {
				a = device.Action{Type: device.Tap, Node: e.NodeID, Label: e.Label, Bounds: e.Bounds}
				if f[0] == "long" {
					a.Type = device.LongPress
				}
			}
		case "input":
			var e screen.Element
			if e, err = elem(1); err == nil {
				text := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(line, f[0]), " "+f[1]))
				a = device.Action{Type: device.Input, Node: e.NodeID, Label: e.Label, Text: text}
			}
		case "scroll":
			a = device.Action{Type: device.Scroll, Node: -1, Direction: device.Forward}
			for _, x := range f[1:] {
				if x == "back" || x == "backward" {
					a.Direction = device.Backward
				} else if n, e2 := strconv.Atoi(x); e2 == nil && n >= 0 && n < len(elems) {
					a.Node = elems[n].NodeID
				}
			}
		case "back", "home":
			a = device.Action{Type: f[0], Node: -1}
		case "launch":
			a = device.Action{Type: device.Launch, Node: -1, Package: p.App().MainPackage}
		case "tapxy":
			if len(f) != 3 {
				err = fmt.Errorf("tapxy X Y")
				break
			}
			x, e1 := strconv.Atoi(f[1])
			y, e2 := strconv.Atoi(f[2])
			if e1 != nil || e2 != nil {
				err = fmt.Errorf("tapxy: X and Y are pixels")
				break
			}
			a = device.Action{Type: device.Tap, Node: -1, X: x, Y: y}
		default:
			err = fmt.Errorf("unknown command %q; %s", f[0], simHelp)
		}
		if err != nil {
			fmt.Fprintln(out, "!", err)
			continue
		}
		res, err := p.Perform(ctx, a)
		if err != nil {
			return err
		}
		if !res.OK {
			fmt.Fprintf(out, "! %s: %s\n", a, res.Message)
			continue
		}
		fmt.Fprintf(out, "✓ %s\n", a)
		if err := show(); err != nil {
			return err
		}
	}
}
