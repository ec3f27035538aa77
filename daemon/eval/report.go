package eval

// The evaluation report: what Run measured, per task, per app and for
// the command sets, and its table for a terminal.

import (
	"fmt"
	"io"

	"github.com/wayfinder-agent/wayfinder/daemon/steps"
)

// Report is the evaluation report (JSON).
type Report struct {
	Planner      string         `json:"planner"`
	Tasks        int            `json:"tasks"`
	Succeeded    int            `json:"succeeded"`
	SuccessRate  float64        `json:"success_rate"`
	StepAccuracy float64        `json:"step_accuracy"`
	LLMCalls     int            `json:"llm_calls"`
	Tokens       int            `json:"tokens"`
	Replay       ReplayReport   `json:"replay"`
	Drift        *DriftReport   `json:"drift,omitempty"`
	Commands     CommandsReport `json:"commands"`
	PerApp       []AppReport    `json:"per_app"`
	PerTask      []TaskRow      `json:"per_task"`
	PerCommand   []CommandRow   `json:"per_command,omitempty"`
	Passed       int            `json:"passed"`
	Failed       int            `json:"failed"`
	Seconds      float64        `json:"seconds"`
	// ConfirmedYes and ConfirmedNo count the owner's answers to an unsure
	// "done" in the learn phase (Config.Owner).
	ConfirmedYes int `json:"confirmed_yes,omitempty"`
	ConfirmedNo  int `json:"confirmed_no,omitempty"`
	// FailedSensitive counts the learn runs that failed after performing a
	// sensitive action (TaskRow.Sensitive): a deletion, a send, a call on
	// the way to a wrong end — the wrong taps that cost most.
	FailedSensitive int `json:"failed_sensitive"`
	// SucceededStray counts the learn runs judged successful (their final
	// screen is the task's) that typed a value the task's recording never
	// typed (TaskRow.StrayValues): a success the final screen alone cannot
	// tell from a wrong value.
	SucceededStray int `json:"succeeded_stray"`
	// SucceededElsewhere counts the learn runs judged successful that never
	// acted on the screen the recording's last action was taken on
	// (TaskRow.EndedElsewhere): another route to the same final screen, or
	// a final screen reached without the command's last action (a camera
	// left in video mode without filming). To check by hand; the final
	// screen alone cannot tell them apart.
	SucceededElsewhere int `json:"succeeded_elsewhere"`
	// SucceededOtherRow counts the learn runs judged successful that
	// tapped, on a recorded screen where the recording tapped a list row
	// the command names, another row of a list whose name the command does
	// not say (TaskRow.OtherRows): "remove contact Omar" done on Dora's
	// contact ends on the same screen as on Omar's.
	SucceededOtherRow int `json:"succeeded_other_row"`
	// StraySwitch counts the learn runs, successful or not, that tapped a
	// switch or checkbox the task's recording never tapped
	// (TaskRow.StraySwitches): a setting of the owner's changed unasked,
	// which a final screen may not show. To check by hand.
	StraySwitch int `json:"stray_switch"`
}

// ReplayReport is the replay phase.
type ReplayReport struct {
	Tasks     int `json:"tasks"`
	Succeeded int `json:"succeeded"`
	LLMCalls  int `json:"llm_calls"`
}

// AppReport aggregates one app.
type AppReport struct {
	App          string  `json:"app"`
	Tasks        int     `json:"tasks"`
	Succeeded    int     `json:"succeeded"`
	SuccessRate  float64 `json:"success_rate"`
	StepAccuracy float64 `json:"step_accuracy"`
	Replayed     int     `json:"replayed"`
}

// TaskRow is one task of the learn and replay phases.
type TaskRow struct {
	TaskID       string   `json:"task_id"`
	App          string   `json:"app"`
	Command      string   `json:"command"`
	Succeeded    bool     `json:"succeeded"`
	Steps        int      `json:"steps"`
	GroundTruth  int      `json:"ground_truth_steps"`
	MatchedSteps int      `json:"matched_steps"`
	FinalScreen  string   `json:"final_screen"`
	WantScreen   string   `json:"want_screen"`
	FlowID       int64    `json:"flow_id,omitempty"`
	Intent       string   `json:"intent,omitempty"`
	LLMCalls     int      `json:"llm_calls"`
	Error        string   `json:"error,omitempty"`
	Replayed     bool     `json:"replayed"`
	ReplayFlow   int64    `json:"replay_flow,omitempty"`
	ReplayScreen string   `json:"replay_final_screen,omitempty"`
	ReplayLLM    int      `json:"replay_llm_calls"`
	ReplayError  string   `json:"replay_error,omitempty"`
	ReplayTyped  []string `json:"replay_typed,omitempty"`
	Trace        []string `json:"trace,omitempty"`
	LearnMS      int64    `json:"learn_ms"`
	ReplayMS     int64    `json:"replay_ms"`
	// Confirmed: with Config.Owner, the owner's answer to an unsure "done"
	// ("yes", "no"), "" when not asked.
	Confirmed string `json:"confirmed,omitempty"`
	// Sensitive: the learn run's performed steps the sensitive-action
	// policy judged sensitive (deleting, sending, calling, paying, an
	// account, typing over the owner's writing), as traced.
	Sensitive []string `json:"sensitive,omitempty"`
	// Instructions: what became of each pasted step (tutorial runs only).
	Instructions []steps.Outcome `json:"instructions,omitempty"`
	// StrayValues: the values the learn run typed (steps that took effect
	// and were not undone) that no input step of the task's recording
	// typed (compared without case or surrounding space).
	StrayValues []string `json:"stray_values,omitempty"`
	// EndedElsewhere: the learn run never acted on the screen the
	// recording's last action was taken on (Report.SucceededElsewhere).
	EndedElsewhere bool `json:"ended_elsewhere,omitempty"`
	// OtherRows: the labels of those other rows (Report.SucceededOtherRow).
	OtherRows []string `json:"other_rows,omitempty"`
	// StraySwitches: the labels of those switches (Report.StraySwitch).
	StraySwitches []string `json:"stray_switches,omitempty"`
}

// WriteTable prints the per-app summary and the closing line.
func (r *Report) WriteTable(w io.Writer) {
	fmt.Fprintf(w, "\n%-14s %6s %6s %8s %9s %8s\n", "app", "tasks", "ok", "success", "step acc", "replayed")
	for _, a := range r.PerApp {
		fmt.Fprintf(w, "%-14s %6d %6d %7.1f%% %8.1f%% %8d\n", a.App, a.Tasks, a.Succeeded, 100*a.SuccessRate, 100*a.StepAccuracy, a.Replayed)
	}
	fmt.Fprintf(w, "%-14s %6d %6d %7.1f%% %8.1f%% %8d\n", "total", r.Tasks, r.Succeeded, 100*r.SuccessRate, 100*r.StepAccuracy, r.Replay.Succeeded)
	fmt.Fprintf(w, "LLM calls: learn %d, replay %d, commands %d\n", r.LLMCalls, r.Replay.LLMCalls, r.Commands.LLMCalls)
	if r.Tasks > 0 {
		fmt.Fprintf(w, "failed runs that performed a sensitive action on the way: %d\n", r.FailedSensitive)
		fmt.Fprintf(w, "successful runs that typed a value the recording never typed (to check: another route may type what the recording tapped): %d\n", r.SucceededStray)
		fmt.Fprintf(w, "successful runs that never acted on the screen of the recording's last action (to check: another route, or the last action not done): %d\n", r.SucceededElsewhere)
		fmt.Fprintf(w, "successful runs that tapped another list row than the one the command names (the same final screen, another item): %d\n", r.SucceededOtherRow)
		fmt.Fprintf(w, "runs that tapped a switch or checkbox the recording never tapped (a setting changed unasked; to check): %d\n", r.StraySwitch)
	}
	if r.ConfirmedYes+r.ConfirmedNo > 0 {
		fmt.Fprintf(w, "unsure \"done\": the owner said done %d times, not done %d times (only confirmed runs are learned)\n", r.ConfirmedYes, r.ConfirmedNo)
	}
	if r.Commands.Total > 0 {
		fmt.Fprintf(w, "commands: %d total, %d correct, %d wrong flow, %d missed, %d wrong slot, %d right flow learned wrong; replay precision %.3f, matching precision %.3f\n",
			r.Commands.Total, r.Commands.Correct, r.Commands.WrongFlow, r.Commands.Missed, r.Commands.WrongSlot, r.Commands.BadFlow, r.Commands.Precision, r.Commands.MatchPrecision)
		if r.Commands.Unverified > 0 {
			fmt.Fprintf(w, "commands unverified: %d right as far as the recording goes (a new option picked, or a new value typed whose row it never recorded)\n", r.Commands.Unverified)
		}
		if r.Commands.Offered > 0 {
			fmt.Fprintf(w, "did you mean: %d commands offered flows, %d of them their own; the owner gave the values for %d\n", r.Commands.Offered, r.Commands.OfferedRight, r.Commands.GaveValues)
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", r.Passed, r.Failed)
}
