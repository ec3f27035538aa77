package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/steps"
)

// Tutorial is one line of a --tutorials file: a task and the steps text
// pasted for it. Outdated, when set, says what is wrong in the text (for
// people reading the file; the evaluation does not look at it).
type Tutorial struct {
	TaskID   string `json:"task_id"`
	Steps    string `json:"steps"`
	Outdated string `json:"outdated,omitempty"`
}

// ReadTutorials reads a JSON-lines tutorials file into task id -> steps
// text. Blank lines and lines starting with # are skipped; errors name the
// file and line (unknown fields, a missing field, a task given twice).
func ReadTutorials(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseTutorials(b, path)
}

// ParseTutorials parses the JSON lines of a tutorials file.
func ParseTutorials(b []byte, path string) (map[string]string, error) {
	seen := map[string]bool{}
	ts, err := parseLines(b, path, func(t Tutorial) error {
		if t.TaskID == "" || strings.TrimSpace(t.Steps) == "" {
			return errors.New("task_id and steps are required")
		}
		if seen[t.TaskID] {
			return fmt.Errorf("task %s given twice", t.TaskID)
		}
		seen[t.TaskID] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(ts))
	for _, t := range ts {
		out[t.TaskID] = t.Steps
	}
	return out, nil
}

// tutorialPlanner parses a tutorial and returns the steps planner for it,
// with inner (the task's planner) unless cfg.StepsOnly, and the LLM calls
// the parse cost.
func tutorialPlanner(ctx context.Context, cfg Config, inner daemon.Planner, goal, text string) (*steps.Planner, int, error) {
	ins, calls := steps.Parse(text), 0
	if cfg.ParseSteps != nil {
		var err error
		if ins, calls, err = cfg.ParseSteps(ctx, goal, text); err != nil {
			return nil, calls, err
		}
	}
	if cfg.StepsOnly {
		inner = nil
	}
	return steps.New(inner, goal, ins), calls, nil
}
