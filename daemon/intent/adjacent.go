package intent

import (
	"regexp"
	"strings"
)

// reAdjacentSlots finds runs of two or more slot references separated only
// by spaces in an intent template: "{first_name} {surname}".
var reAdjacentSlots = regexp.MustCompile(`\{[A-Za-z][A-Za-z0-9_]*\}(?:\s+\{[A-Za-z][A-Za-z0-9_]*\})+`)

var reSlotName = regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9_]*)\}`)

// SplitAdjacent fills the slots of a run of adjacent references
// ("{first_name} {surname}") when alignment gave the whole run's words to
// one of them ("John Smith") and none to the others: the words are shared
// out in order, each slot taking as many words as its example had (or one
// each when the counts do not add up to the words, and not at all when
// that fails too). Other slots are returned unchanged. It returns a new
// map; slots is not modified.
func SplitAdjacent(template string, slots, examples map[string]string) map[string]string {
	out := make(map[string]string, len(slots))
	for k, v := range slots {
		out[k] = v
	}
	for _, run := range reAdjacentSlots.FindAllString(template, -1) {
		var names []string
		for _, m := range reSlotName.FindAllStringSubmatch(run, -1) {
			names = append(names, m[1])
		}
		filled, missing := -1, 0
		for i, n := range names {
			switch {
			case strings.TrimSpace(out[n]) == "":
				missing++
			case filled >= 0:
				filled = -2 // two filled: nothing to split
			default:
				filled = i
			}
		}
		if filled < 0 || missing != len(names)-1 {
			continue
		}
		words := strings.Fields(out[names[filled]])
		want := make([]int, len(names))
		total := 0
		for i, n := range names {
			want[i] = max(1, len(strings.Fields(examples[n])))
			total += want[i]
		}
		if total != len(words) {
			if len(words) != len(names) {
				continue
			}
			for i := range want {
				want[i] = 1
			}
		}
		at := 0
		for i, n := range names {
			out[n] = strings.Join(words[at:at+want[i]], " ")
			at += want[i]
		}
	}
	return out
}
