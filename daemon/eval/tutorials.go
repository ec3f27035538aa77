package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var t Tutorial
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if t.TaskID == "" || strings.TrimSpace(t.Steps) == "" {
			return nil, fmt.Errorf("%s:%d: task_id and steps are required", path, n)
		}
		if _, dup := out[t.TaskID]; dup {
			return nil, fmt.Errorf("%s:%d: task %s given twice", path, n, t.TaskID)
		}
		out[t.TaskID] = t.Steps
	}
	return out, sc.Err()
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
