package main

import (
	"context"
	"fmt"
	"os"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/daemon/sim"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// demoScript is what `wayfinder demo` says to the demo phone: each command
// once (Wayfinder plans it and learns the flow), then again in the same or
// other words and values (Wayfinder replays the flow offline), and a
// command whose flow must not be reused (the opposite toggle).
var demoScript = []struct{ say, why, steps string }{
	{"turn on dark mode", "first time: no saved flow, so Wayfinder plans over the UI graph it explored", ""},
	{"turn on dark mode", "same words again: the saved flow replays offline, no model, no planning", ""},
	{"turn off dark mode", "the opposite: must NOT replay the 'turn on' flow", ""},
	{`create a note called "Groceries"`, "first time: plan, type the value, commit the form; the value becomes a slot", ""},
	{`add a new note named "Call mom"`, "other words, other value: the saved flow replays with the new slot value", ""},
	{"make the text large", "pasted steps from a web tutorial, partly outdated (this phone says Settings and Font size): followed step by step, then learned as a flow named by the goal",
		"How to get bigger text:\n1. Open the Notebook app\n2. Tap More options\n3. Tap Preferences\n4. Tap Text size\n5. Pick Large"},
	{"font small please", "another option of the same list, said loosely: the command names one option of the flow's list and nothing else of the app, so the flow replays offline and picks Small", ""},
	{"add a new note named mom", `"mom" is in the owner's context library (Mary Smith): resolved on the phone, then the saved note flow replays with her name`, ""},
}

// demoContext is the owner's context library of the demo.
var demoContext = []knowledge.ContextEntry{
	{Kind: knowledge.KindPerson, Name: "Mary Smith", Aliases: []string{"mom"},
		Values: []knowledge.ContextValue{{Field: "phone", Value: "+1 555 0100", Private: true}}},
}

func cmdDemo(ctx context.Context, args []string) error {
	fs := newFlags("demo")
	db := fs.String("db", "", "knowledge store file (default a fresh temporary file)")
	lf := llmFlags(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	st, path, closeStore, err := storeOrTemp(ctx, *db, "wayfinder-demo-")
	if err != nil {
		return err
	}
	defer closeStore()
	data, err := demo.Load()
	if err != nil {
		return err
	}
	stats, _, err := importApp(ctx, data, st, demo.App)
	if err != nil {
		return err
	}
	fmt.Printf("Built-in demo phone: the %q app (%s). Explored UI graph imported: %d screens, %d elements, %d transitions.\n",
		demo.App, demo.Package, stats.Screens, stats.Elements, stats.Transitions)
	planner, err := lf.planner(st)
	if err != nil {
		return err
	}
	fmt.Printf("Planner: %s (no LLM endpoint configured: nothing leaves this machine).\n", planner.Name())
	phone, err := sim.New(data, demo.App)
	if err != nil {
		return err
	}
	ecfg, err := lf.engineConfig()
	if err != nil {
		return err
	}
	ecfg.RouteCheck = graphplan.New(st)
	eng := daemon.New(phone, st, planner, nil, ecfg)
	for _, e := range demoContext {
		if _, err := st.PutContext(ctx, e); err != nil {
			return err
		}
	}
	sub := eng.Bus().Subscribe(4096)
	done := printer(os.Stdout, sub)
	failed := 0
	for i, line := range demoScript {
		if err := phone.Reset(phone.App().StartState()); err != nil {
			return err
		}
		fmt.Printf("\n%d. %s\n", i+1, line.why)
		if line.steps != "" {
			fmt.Printf("  pasted   %q\n", line.steps)
		}
		command, opt, err := prepareRun(ctx, st, eng, nil, stepsClient(lf), line.say, line.steps, os.Stdout)
		if err != nil {
			return err
		}
		res, err := eng.Run(ctx, command, opt)
		if err != nil {
			return err
		}
		<-done.Finished
		if res.Outcome != "success" {
			failed++
		}
	}
	eng.Bus().Unsubscribe(sub)
	done.Wait()
	flows, err := st.Flows(ctx, knowledge.FlowFilter{})
	if err != nil {
		return err
	}
	fmt.Printf("\nSaved flows (%s):\n", path)
	for _, f := range flows {
		fmt.Printf("  #%d %-34q intent %-32q %d steps, used %d×\n", f.ID, f.Name, f.Intent, len(f.Steps), f.Uses)
	}
	if failed > 0 {
		return fmt.Errorf("%d of %d demo commands failed", failed, len(demoScript))
	}
	return nil
}
