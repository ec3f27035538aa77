package main

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"sort"
	"strconv"

	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"

	"github.com/wayfinder-agent/wayfinder/daemon/eval"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
)

// evalLive is `wayfinder eval --adb`: the --commands cases (app = the
// package on the phone, or "" to let the engine choose) and the
// --tutorials cases (goal and package from the --data task) run on the
// phone, each learned then replayed offline.
func evalLive(ctx context.Context, ac adbChoice, lf *llmOpts, db, data, commands, tutorials, report string, quiet bool) error {
	var cases []eval.LiveCase
	if commands != "" {
		cs, err := eval.ReadCommands(commands)
		if err != nil {
			return err
		}
		for i, c := range cs {
			if c.ExpectNoMatch {
				continue // a must-not-match command needs flows learned from the data set
			}
			id := c.TaskID
			if id == "" {
				id = "command" + strconv.Itoa(i+1)
			}
			cases = append(cases, eval.LiveCase{ID: id, Package: c.App, Command: c.Command})
		}
	}
	if tutorials != "" {
		tut, err := eval.ReadTutorials(tutorials)
		if err != nil {
			return err
		}
		d, err := loadData(data)
		if err != nil {
			return usageError{"eval --adb --tutorials: --data DIR is needed for each task's goal and package: " + err.Error()}
		}
		ids := make([]string, 0, len(tut))
		for id := range tut {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			i := slices.IndexFunc(d.Tasks, func(t droidtask.Task) bool { return t.ID == id })
			if i < 0 {
				return usageError{"eval --adb: no task " + id + " in " + data}
			}
			task := d.Tasks[i]
			cases = append(cases, eval.LiveCase{ID: id, Package: d.Apps[task.App].MainPackage, Command: task.Instruction, Steps: tut[id]})
		}
	}
	if len(cases) == 0 {
		return usageError{"eval --adb: give --commands FILE and/or --tutorials FILE (with --data DIR)"}
	}
	phone, err := connectADB(ctx, ac)
	if err != nil {
		return err
	}
	st, _, closeStore, err := storeOrTemp(ctx, db, "wayfinder-eval-")
	if err != nil {
		return err
	}
	defer closeStore()
	planner, err := lf.planner(st)
	if err != nil {
		return err
	}
	cfg := eval.LiveConfig{Device: phone, Store: st, Planner: planner, Cases: cases}
	if !quiet {
		cfg.Progress = os.Stdout
	}
	if client := stepsClient(lf); client != nil {
		cfg.ParseSteps = func(ctx context.Context, goal, text string) ([]steps.Instruction, int, error) {
			ins, reply, err := steps.ParseLLM(ctx, client, goal, text, nil)
			return ins, reply.Calls, err
		}
	}
	rep, err := eval.RunLive(ctx, cfg)
	if err != nil {
		return err
	}
	if report != "" {
		b, err := json.MarshalIndent(rep, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(report, b, 0o644); err != nil {
			return err
		}
	}
	rep.WriteTable(os.Stdout)
	return nil
}
