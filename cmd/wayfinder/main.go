// Command wayfinder drives Wayfinder on a workstation: a simulated phone
// built from recorded apps (or the built-in demo phone), the knowledge
// store, the agent engine, the evaluation and the debugging inspector.
//
//	wayfinder demo
//	wayfinder sim     --data DIR --app NAME [--script "tap 3; back"]
//	wayfinder import  --data DIR --db FILE [--apps a,b]
//	wayfinder graph export --db FILE [--app PKG] --format dot|json
//	wayfinder run     --data DIR --app NAME | --adb [SERIAL] [--db FILE] [--planner graph|llm|auto] [--steps FILE|-] "command"
//	wayfinder context list|set|delete|export|import [--db FILE] ...
//	wayfinder flows   list|show|check|history|rollback|export|import|rm --db FILE ...
//	wayfinder eval    --data DIR [--apps a,b] --planner oracle|graph|llm [--db FILE] [--commands FILE] [--tutorials FILE [--steps-only]] [--adb [SERIAL]] --report FILE
//	wayfinder bench   [--data DIR]
//	wayfinder serve   [--data DIR --app NAME | --adb [SERIAL]] [--addr 127.0.0.1:PORT] [--db FILE] [--step-delay D] [--reset-each-run]
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

const usage = `wayfinder — an assistant that operates apps through the accessibility tree

usage:
  wayfinder demo                                   the main job on the built-in demo phone, then offline replay
  wayfinder sim    --data DIR --app NAME           step through a recorded app by hand
  wayfinder import --data DIR --db FILE            load recorded exploration transitions as knowledge
  wayfinder graph  export --db FILE --format dot|json [--app PKG]
  wayfinder run    --data DIR --app NAME [--db FILE] [--planner graph|llm|auto] [--steps FILE|-] "command"
  wayfinder run    --adb [SERIAL] [--db FILE] [--steps FILE|-] "command"      a phone over adb
  wayfinder context list|set|delete|export|import [--db FILE] ...            the owner's people, places, accounts
  wayfinder flows  list|show|check|history|rollback|export|import|rm --db FILE ...
  wayfinder store  check|recover --db FILE         integrity check; move a damaged store aside, keep its flows
  wayfinder eval   --data DIR --planner oracle|graph|llm [--apps a,b] [--db FILE] [--commands FILE] [--tutorials FILE] [--adb [SERIAL]] --report FILE
  wayfinder drift  --data DIR --out DIR [--kinds k,...] [--strength low|moderate|high|N] --seed N
                                                   an "updated app" copy of DroidTask data (daemon/drift)
  wayfinder bench  [--data DIR]                    planning, lookup and memory benchmarks
  wayfinder serve  [--data DIR --app NAME | --adb [SERIAL]] [--addr 127.0.0.1:7777] [--step-delay 400ms] [--reset-each-run]
                                                   the inspector on the simulated phone (default: the demo phone)

LLM endpoint (any OpenAI-compatible server): --base-url/OPENAI_BASE_URL, --model/WAYFINDER_MODEL,
--api-key/OPENAI_API_KEY. Without one, Wayfinder plans over its knowledge graph with no model.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintln(os.Stderr, "wayfinder:", err)
			fmt.Fprint(os.Stderr, usage)
			os.Exit(2)
		}
		fmt.Fprintln(os.Stderr, "wayfinder:", err)
		os.Exit(1)
	}
}

type usageError struct{ msg string }

func (u usageError) Error() string { return u.msg }

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Print(usage)
		return nil
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "demo":
		return cmdDemo(ctx, rest)
	case "sim":
		return cmdSim(ctx, rest)
	case "import":
		return cmdImport(ctx, rest)
	case "graph":
		return cmdGraph(ctx, rest)
	case "run":
		return cmdRun(ctx, rest)
	case "flows":
		return cmdFlows(ctx, rest)
	case "eval":
		return cmdEval(ctx, rest)
	case "context":
		return cmdContext(ctx, rest, os.Stdout)
	case "drift":
		return cmdDrift(ctx, rest)
	case "bench":
		return cmdBench(ctx, rest)
	case "serve":
		return cmdServe(ctx, rest)
	case "store":
		return cmdStore(ctx, rest)
	case "help", "-h", "--help":
		fmt.Print(usage)
		return nil
	}
	return usageError{fmt.Sprintf("unknown command %q", cmd)}
}
