package droidtask

import (
	"sort"
)

// Session is one DroidBot recording session of an app: the events from one
// kill_app to the next, in time order. In DroidTask the sessions are the
// people recording the tasks (one or more attempts per task) plus some
// free exploration, so a task's own demonstration is, edge for edge, in
// the transition graph unless its sessions are left out.
type Session struct {
	Tags  []string // event tags (timestamps), ascending
	Edges []int    // index into AppTransitions(app) of each event, in order
}

// Sessions splits an app's DroidBot events (the event_tags of its
// droidbot_event transitions) into recording sessions. A kill_app event
// starts a new session.
func (d *Dataset) Sessions(app string) []Session {
	type ev struct {
		tag  string
		edge int
	}
	var evs []ev
	trs := d.AppTransitions(app)
	for i, t := range trs {
		if !t.Exploration() {
			continue
		}
		for _, tag := range t.EventTags {
			evs = append(evs, ev{tag, i})
		}
	}
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].tag < evs[j].tag })
	var out []Session
	for _, e := range evs {
		if len(out) == 0 || trs[e.edge].Action.Type == "kill_app" {
			out = append(out, Session{})
		}
		s := &out[len(out)-1]
		s.Tags = append(s.Tags, e.tag)
		s.Edges = append(s.Edges, e.edge)
	}
	return out
}

// RecordingMatch is the least sequence similarity between a session and a
// task's demonstration for the session to count as a recording of the
// task: |LCS| / (|task| + |session| − |LCS|) over (state → next state)
// pairs, launch and kill events left out. Chosen on the development set,
// where a task's own session scores 1.0 and unrelated sessions below 0.4.
const RecordingMatch = 0.5

// Recordings returns the sessions (indices into Sessions(task.App)) that
// recorded the task: every session whose (state → next state) sequence
// matches the task's steps by at least RecordingMatch, or the best one
// when none does. The rule errs towards leaving out too much.
func (d *Dataset) Recordings(task *Task, sessions []Session) []int {
	trs := d.AppTransitions(task.App)
	var want []string
	for _, s := range task.Actions() {
		want = append(want, s.State+">"+s.NextState)
	}
	best, bestScore := -1, -1.0
	var out []int
	for si, s := range sessions {
		var got []string
		for _, e := range s.Edges {
			if t := trs[e]; t.Action.Type != "kill_app" && t.Action.Type != "intent" {
				got = append(got, t.From+">"+t.To)
			}
		}
		if len(got) == 0 {
			continue
		}
		l := lcs(want, got)
		score := float64(l) / float64(len(want)+len(got)-l)
		if score >= RecordingMatch {
			out = append(out, si)
		}
		if score > bestScore {
			best, bestScore = si, score
		}
	}
	if len(out) == 0 && best >= 0 && bestScore > 0 {
		out = append(out, best)
	}
	return out
}

// OwnTransitions returns the app transitions a task's evaluation must not
// use as knowledge: the task_demo edges, and the DroidBot edges recorded
// only in the task's own recording sessions (Recordings). Edges that other
// sessions also recorded stay: they are knowledge from other recordings.
func (d *Dataset) OwnTransitions(task *Task) []Transition {
	sessions := d.Sessions(task.App)
	own := map[string]bool{}
	for _, si := range d.Recordings(task, sessions) {
		for _, tag := range sessions[si].Tags {
			own[tag] = true
		}
	}
	var out []Transition
	for _, t := range d.AppTransitions(task.App) {
		if !t.Exploration() {
			out = append(out, t)
			continue
		}
		mine := len(t.EventTags) > 0
		for _, tag := range t.EventTags {
			if !own[tag] {
				mine = false
				break
			}
		}
		if mine {
			out = append(out, t)
		}
	}
	return out
}

// lcs is the length of the longest common subsequence of a and b.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
