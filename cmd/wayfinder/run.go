package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/device"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
)

func cmdRun(ctx context.Context, args []string) error {
	fs := newFlags("run")
	data := fs.String("data", "", "DroidTask-format directory")
	app := fs.String("app", "", "app name in the data set")
	db := fs.String("db", "", "knowledge store file (default "+defaultDB()+")")
	state := fs.String("state", "", "start on this recorded state")
	noImport := fs.Bool("no-import", false, "do not import the app's exploration graph first")
	noConfirm := noConfirmFlag(fs)
	stepsPath := fs.String("steps", "", "follow steps pasted from a tutorial, from this file (- for standard input); the command is the goal")
	lf := llmFlags(fs)
	ac, args := takeADB(args, true)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	command := strings.TrimSpace(strings.Join(pos, " "))
	if command == "" {
		return usageError{`run: the command is missing, e.g. wayfinder run --data DIR --app notes "create a note 'milk'"`}
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	var phone device.Device
	if ac.On {
		if phone, err = connectADB(ctx, ac); err != nil {
			return err
		}
	} else {
		d, err := loadData(*data)
		if err != nil {
			return err
		}
		if *app == "" {
			return usageError{"run: --app NAME is required (one of " + strings.Join(d.AppNames(), ", ") + "), or --adb [SERIAL] for a phone"}
		}
		if !*noImport {
			if _, _, err := importApp(ctx, d, st, *app); err != nil {
				return err
			}
		}
		sp, err := sim.New(d, *app)
		if err != nil {
			return err
		}
		if *state != "" {
			if err := sp.Reset(*state); err != nil {
				return err
			}
		}
		phone = sp
	}
	planner, err := lf.planner(st)
	if err != nil {
		return err
	}
	ecfg, err := lf.engineConfig()
	if err != nil {
		return err
	}
	ecfg.Unattended, ecfg.RouteCheck = *noConfirm, graphplan.New(st)
	eng := daemon.New(phone, st, planner, nil, ecfg)
	eng.SetAsker(terminalAsker{})
	text := ""
	if *stepsPath != "" {
		if text, err = readSteps(*stepsPath); err != nil {
			return err
		}
	}
	command, opt, err := prepareRun(ctx, st, eng, terminalAsker{}, stepsClient(lf), command, text, os.Stdout)
	if err != nil {
		return err
	}
	sub := eng.Bus().Subscribe(1024)
	done := printer(os.Stdout, sub)
	res, err := eng.Run(ctx, command, opt)
	eng.Bus().Unsubscribe(sub)
	done.Wait()
	if err != nil {
		return err
	}
	return res.Err()
}

// terminalAsker asks questions on the terminal; without a terminal it
// answers nothing, which stops sensitive steps.
type terminalAsker struct{}

func (terminalAsker) Ask(ctx context.Context, q string, options []string) (string, error) {
	if fi, err := os.Stdin.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return "", fmt.Errorf("no terminal to ask %q", q)
	}
	fmt.Print(askPrompt(q, options))
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	return pickOption(strings.TrimSpace(line), options), err
}

// askPrompt renders a question and its options, numbered ("1) yes  2) no").
func askPrompt(q string, options []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "? %s\n", q)
	for i, o := range options {
		fmt.Fprintf(&b, "  %d) %s\n", i+1, o)
	}
	b.WriteString("> ")
	return b.String()
}

// pickOption turns an answer that is an option's number into the option;
// any other answer is returned as typed.
func pickOption(ans string, options []string) string {
	if n, err := strconv.Atoi(ans); err == nil && n >= 1 && n <= len(options) {
		return options[n-1]
	}
	return ans
}

// noConfirmFlag is the explicit opt-out of sensitive-action confirmation
// for scripted runs.
func noConfirmFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("no-confirm", false, "scripted run: act on sensitive actions the command asks for (delete, send, pay, call) without asking; those it does not ask for are refused anyway")
}
