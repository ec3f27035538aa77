package graphplan

import (
	"strconv"
	"strings"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon"
	"github.com/wayfinder-agent/wayfinder/daemon/intent"
)

// Durations as a timer shows them. A command says a length of time in
// words ("a 4 minute countdown", "nap for 90 seconds"); a timer, a
// countdown or a duration picker shows it as a clock ("04:00", "1:30",
// "0:04:00"). The planner reads such a label as the same duration, so
// a dialog showing it has the command's value set already (a new
// countdown's dialog showing "04:00" for "a 4 minute countdown": what is
// left is to accept it). A path toward such a dialog earns nothing: the
// recorded dialog shows what it showed then (measured: credit for it only
// drew runs about something else toward a timer).
// Only a label that is nothing but a clock reading counts ("04:00 AM"
// is a time of day), only on a dialog, and only for a number followed by
// a unit of time or a clock value of the command ("a timer of 4:00" in a
// field showing "04:00": the same reading either way).

// timeUnits maps the words (lower case) that name a unit of time after a
// number to its length: the units of the clock, in English, no app's
// words.
var timeUnits = map[string]time.Duration{
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
}

// commandDuration returns the clock reading value v of command u gives:
// a length of time in words (spokenDuration) or a clock value
// (clockDuration: "4:00", the same reading as a label's, so that "4:00"
// is found in a field showing "04:00"); the text that gives it, and
// true; false for any other value.
func commandDuration(u intent.Command, v intent.Value) (time.Duration, string, bool) {
	if d, said, ok := spokenDuration(u, v); ok {
		return d, said, true
	}
	if v.Kind != intent.KindTime {
		return 0, "", false
	}
	d, ok := clockDuration(v.Text)
	return d, v.Text, ok
}

// spokenDuration returns the length of time value v of command u says
// with the unit word right after it ("4 minutes" → 4m, "1.5 hours" →
// 1h30m), the text of the number and unit, and true; false when the word
// after the number is no unit of time or the number is not a plain
// positive decimal.
func spokenDuration(u intent.Command, v intent.Value) (time.Duration, string, bool) {
	if v.Kind != intent.KindNumber {
		return 0, "", false
	}
	for _, t := range u.Tokens {
		if t.Start < v.End {
			continue
		}
		unit, ok := timeUnits[strings.ToLower(t.Text)]
		if !ok || t.Kind != intent.KindWord {
			return 0, "", false
		}
		n, err := strconv.ParseFloat(v.Text, 64)
		if err != nil || n <= 0 || n > 1e6 {
			return 0, "", false
		}
		return time.Duration(n * float64(unit)), v.Text + " " + t.Text, true
	}
	return 0, "", false
}

// clockDuration reads label as a duration in clock form: "m:ss" or
// "mm:ss" (minutes and seconds, "04:00" is 4 minutes) or "h:mm:ss"; the
// label is nothing else (spaces around aside). False for anything else,
// a time of day with AM/PM included, and for fields out of range
// (seconds, and minutes under hours, below 60).
func clockDuration(label string) (time.Duration, bool) {
	parts := strings.Split(strings.TrimSpace(label), ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	var n [3]int
	for i, p := range parts {
		if p == "" || len(p) > 2 && i > 0 || len(p) > 3 {
			return 0, false
		}
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || p[0] == '+' || p[0] == '-' {
			return 0, false
		}
		if i > 0 && (len(p) != 2 || v >= 60) {
			return 0, false
		}
		n[i] = v
	}
	if len(parts) == 2 {
		return time.Duration(n[0])*time.Minute + time.Duration(n[1])*time.Second, true
	}
	return time.Duration(n[0])*time.Hour + time.Duration(n[1])*time.Minute + time.Duration(n[2])*time.Second, true
}

// durationShown reports whether the current screen, a dialog, shows
// value v's length of time (value.dur) as a clock in one of its labels:
// the form holds the value already.
func durationShown(st *daemon.PlanState, v value) bool {
	if v.dur <= 0 || !daemon.IsDialog(st.Screen) {
		return false
	}
	for _, e := range st.Elements {
		if d, ok := clockDuration(e.Label); ok && d == v.dur {
			return true
		}
	}
	return false
}
