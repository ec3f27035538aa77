// Flows as clients see them: flows.list summaries, flows.get details and
// flows.history versions.

package api

import (
	"context"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// FlowSummary is a flow as flows.list shows it.
type FlowSummary struct {
	ID      int64    `json:"id"`
	Name    string   `json:"name"`
	Intent  string   `json:"intent"`
	Package string   `json:"package"`
	Steps   int      `json:"steps"`
	Slots   []string `json:"slots"`
	Uses    int      `json:"uses"`
	Pinned  bool     `json:"pinned"`
	// Token replays the flow from outside the app's UI (a pinned
	// shortcut): {"method":"replay","params":{"token":...}}.
	Token string `json:"token"`
	// Sensitive: a step deletes, sends, pays, calls or changes an
	// account; AllowSensitive: the owner said "don't ask again".
	Sensitive      bool `json:"sensitive"`
	AllowSensitive bool `json:"allow_sensitive"`
	// Version is the number of the flow's current version (flows.history).
	Version int `json:"version"`
	// Healthy is false after knowledge.UnhealthyAfter failures in a row:
	// the flow is then never replayed because a command matched it, only
	// by an explicit replay; FailStreak is that count.
	Healthy    bool `json:"healthy"`
	FailStreak int  `json:"fail_streak"`
}

// FlowVersion is one version of a flow as flows.history shows it.
type FlowVersion struct {
	Version   int      `json:"version"`
	Reason    string   `json:"reason"`
	CreatedMS int64    `json:"created_ms"`
	Current   bool     `json:"current"`
	Actions   []string `json:"actions"`
}

func summarize(f knowledge.Flow) FlowSummary {
	s := FlowSummary{ID: f.ID, Name: f.Name, Intent: f.Intent, Package: f.Package, Steps: len(f.Steps), Uses: f.Uses, Pinned: f.Pinned, Slots: []string{},
		Token: f.Token, Sensitive: f.Sensitive, AllowSensitive: f.AllowSensitive,
		Version: f.Version, Healthy: f.Healthy(), FailStreak: f.FailStreak}
	for _, sl := range f.Slots {
		s.Slots = append(s.Slots, sl.Name)
	}
	return s
}

// FlowDetail is a flow as flows.get shows it: the summary, its steps as
// readable strings, and times in Unix ms.
type FlowDetail struct {
	FlowSummary
	Actions    []string `json:"actions"`
	Commands   []string `json:"commands"`
	CreatedMS  int64    `json:"created_ms"`
	LastUsedMS int64    `json:"last_used_ms"`
}

func detail(f knowledge.Flow) FlowDetail {
	d := FlowDetail{FlowSummary: summarize(f), Actions: []string{}, Commands: f.Commands, CreatedMS: f.Created.UnixMilli(), LastUsedMS: f.Updated.UnixMilli()}
	for _, st := range f.Steps {
		d.Actions = append(d.Actions, daemon.DescribeStep(st))
	}
	return d
}

func (a *API) flowSummary(ctx context.Context, id int64) (any, error) {
	f, err := a.store.Flow(ctx, id)
	if err != nil {
		return nil, wrap(err)
	}
	return map[string]FlowSummary{"flow": summarize(*f)}, nil
}
