package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/bert"
	"github.com/wayfinder-agent/wayfinder/daemon/graphplan"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

func cmdFlows(ctx context.Context, args []string) error {
	if len(args) == 0 {
		return usageError{"flows: want list | show ID | check [ID [COMMAND]] | history ID | rollback ID VERSION | export [-o FILE] | import FILE | rm ID | rename ID NAME"}
	}
	sub := args[0]
	fs := newFlags("flows " + sub)
	db := fs.String("db", "", "knowledge store file (default "+defaultDB()+")")
	out := fs.String("o", "", "export: output file (default stdout)")
	pkg := fs.String("app", "", "list/export: only this package")
	embed := fs.String("embed-model", "", `check: "local" to compare meanings with the on-device model, as flow matching does (default: words only)`)
	pos, err := parse(fs, args[1:])
	if err != nil {
		return err
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	id := func() (int64, error) {
		if len(pos) == 0 {
			return 0, usageError{"flows " + sub + ": the flow ID is missing"}
		}
		n, err := strconv.ParseInt(pos[0], 10, 64)
		if err != nil {
			return 0, usageError{fmt.Sprintf("flows %s: %q is not a flow ID", sub, pos[0])}
		}
		return n, nil
	}
	switch sub {
	case "list", "ls":
		flows, err := st.Flows(ctx, knowledge.FlowFilter{Package: *pkg})
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tAPP\tNAME\tINTENT\tSTEPS\tSLOTS\tUSES\tSAFETY\tVERSION\tHEALTH")
		for _, f := range flows {
			var slots []string
			for _, s := range f.Slots {
				slots = append(slots, s.Name)
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\t%s\t%d\t%s\tv%d\t%s\n", f.ID, f.Package, trunc(f.Name, 40), trunc(f.Intent, 50), len(f.Steps),
				strings.Join(slots, ","), f.Uses, safetyMark(f), f.Version, health(&f))
		}
		return tw.Flush()
	case "show":
		n, err := id()
		if err != nil {
			return err
		}
		f, err := st.Flow(ctx, n)
		if err != nil {
			return err
		}
		fmt.Printf("flow #%d %q (%s)\nintent:   %s\ncommands: %s\nversion:  %d, %s\n", f.ID, f.Name, f.Package, f.Intent,
			strings.Join(f.Commands, " | "), f.Version, health(f))
		for _, s := range f.Slots {
			fmt.Printf("slot:     {%s} e.g. %q\n", s.Name, s.Example)
		}
		if m := safetyMark(*f); m != "" {
			fmt.Printf("safety:   %s\n", m)
		}
		for _, s := range f.Steps {
			mark := ""
			if s.Sensitive {
				mark = "  [sensitive]"
			}
			fmt.Printf("  %2d. %-6s %-40s on %s → %s%s\n", s.Index+1, s.Action, trunc(describeFlowStep(s), 40), short8(s.Screen), short8(s.Expect), mark)
		}
		return nil
	case "check":
		cfg := daemon.Config{RouteCheck: graphplan.New(st)}
		if *embed == LocalEmbedModel {
			m, err := bert.LoadDefault()
			if err != nil {
				return fmt.Errorf("--embed-model %s: %w", LocalEmbedModel, err)
			}
			cfg.Embedder = m
		} else if *embed != "" {
			return usageError{fmt.Sprintf("flows check: --embed-model %q: only %q is supported here", *embed, LocalEmbedModel)}
		}
		return checkRoutes(ctx, os.Stdout, daemon.New(nil, st, nil, nil, cfg), st, pos)
	case "history":
		n, err := id()
		if err != nil {
			return err
		}
		hist, err := st.FlowHistory(ctx, n)
		if err != nil {
			return err
		}
		for _, v := range hist {
			mark := " "
			if v.Current {
				mark = "*"
			}
			fmt.Printf("%s v%-3d %s  %-40s %d steps\n", mark, v.Version, v.Created.Local().Format("2006-01-02 15:04:05"), trunc(v.Reason, 40), len(v.Steps))
			for _, s := range v.Steps {
				fmt.Printf("        %2d. %s\n", s.Index+1, trunc(describeFlowStep(s), 60))
			}
		}
		return nil
	case "rollback":
		n, err := id()
		if err != nil {
			return err
		}
		if len(pos) < 2 {
			return usageError{"flows rollback ID VERSION"}
		}
		v, err := strconv.Atoi(strings.TrimPrefix(pos[1], "v"))
		if err != nil {
			return usageError{fmt.Sprintf("flows rollback: %q is not a version number", pos[1])}
		}
		f, err := st.RollbackFlow(ctx, n, v)
		if err != nil {
			return err
		}
		fmt.Printf("flow #%d: version %d's steps are current again, as version %d\n", f.ID, v, f.Version)
		return nil
	case "export":
		flows, err := st.Flows(ctx, knowledge.FlowFilter{Package: *pkg})
		if err != nil {
			return err
		}
		b, err := knowledge.MarshalFlows(flows)
		if err != nil {
			return err
		}
		if *out == "" {
			_, err = os.Stdout.Write(append(b, '\n'))
			return err
		}
		return os.WriteFile(*out, b, 0o644)
	case "import":
		if len(pos) == 0 {
			return usageError{"flows import FILE"}
		}
		b, err := os.ReadFile(pos[0])
		if err != nil {
			return err
		}
		flows, err := knowledge.ParseFlows(b)
		if err != nil {
			return err
		}
		for i := range flows {
			app, err := st.UpsertApp(ctx, flows[i].Package, "")
			if err != nil {
				return err
			}
			flows[i].ID, flows[i].AppID = 0, app.ID
			if err := st.SaveFlow(ctx, &flows[i]); err != nil {
				return fmt.Errorf("flow %d (%q): %w", i, flows[i].Name, err)
			}
		}
		fmt.Printf("imported %d flows\n", len(flows))
		return nil
	case "rm", "delete":
		n, err := id()
		if err != nil {
			return err
		}
		if err := st.DeleteFlow(ctx, n); err != nil {
			return err
		}
		fmt.Printf("deleted flow #%d\n", n)
		return nil
	case "rename":
		n, err := id()
		if err != nil {
			return err
		}
		if len(pos) < 2 {
			return usageError{"flows rename ID NAME"}
		}
		return st.RenameFlow(ctx, n, strings.Join(pos[1:], " "))
	}
	return usageError{fmt.Sprintf("flows: unknown subcommand %q", sub)}
}

// checkRoutes walks the route checker (daemon.Engine.CheckRoute of eng)
// over the flows' kept screens and prints, per flow, whether its
// route does what a command asks, or why not: pos is empty (every flow,
// for the command that learned it), an ID (that flow), or an ID and a
// command.
func checkRoutes(ctx context.Context, w io.Writer, eng *daemon.Engine, st *knowledge.Store, pos []string) error {
	var flows []knowledge.Flow
	if len(pos) == 0 {
		all, err := st.Flows(ctx, knowledge.FlowFilter{})
		if err != nil {
			return err
		}
		flows = all
	} else {
		n, err := strconv.ParseInt(pos[0], 10, 64)
		if err != nil {
			return usageError{fmt.Sprintf("flows check: %q is not a flow ID", pos[0])}
		}
		f, err := st.Flow(ctx, n)
		if err != nil {
			return err
		}
		flows = []knowledge.Flow{*f}
	}
	confirmed, given := 0, strings.Join(pos[min(1, len(pos)):], " ")
	for _, f := range flows {
		command := cmp.Or(given, ownCommand(f), f.Name)
		slots, why, err := eng.CheckRoute(ctx, command, f.ID)
		if err != nil {
			return err
		}
		if why == "" {
			confirmed++
			fmt.Fprintf(w, "flow #%d %q: confirmed for %q %v\n", f.ID, f.Name, command, slots)
			continue
		}
		fmt.Fprintf(w, "flow #%d %q: not confirmed for %q: %s\n", f.ID, f.Name, command, why)
	}
	if len(flows) > 1 {
		fmt.Fprintf(w, "%d of %d flows confirmed\n", confirmed, len(flows))
	}
	return nil
}

// ownCommand is the command that learned flow f (its first past
// command), else its name.
func ownCommand(f knowledge.Flow) string {
	if len(f.Commands) > 0 {
		return f.Commands[0]
	}
	return f.Name
}

// health says whether a flow may act on its own, for listings.
func health(f *knowledge.Flow) string {
	if f.Healthy() {
		return "ok"
	}
	return fmt.Sprintf("UNHEALTHY (%d failures in a row; replays only when named)", f.FailStreak)
}

func describeFlowStep(s knowledge.Step) string {
	if s.Comment != "" {
		return s.Comment
	}
	b, _ := json.Marshal(s.Target.Label())
	return s.Action + " " + string(b)
}

func short8(s string) string {
	if len(s) > 8 {
		return s[:8]
	}
	if s == "" {
		return "-"
	}
	return s
}

// safetyMark says whether a flow has sensitive steps (delete, send, pay,
// call, account) and whether the owner allowed them without asking.
func safetyMark(f knowledge.Flow) string {
	switch {
	case f.Sensitive && f.AllowSensitive:
		return "sensitive, allowed without asking"
	case f.Sensitive:
		return "sensitive, asks first"
	}
	return ""
}
