package intent

import "slices"

// Particles and the words around them: "on", "off", "up", "down" after a
// particle verb ("turn the wifi off", "turn it up"), "off" and "out of" as
// the removal they are after "take" ("take Dora off my favourites"), "off"
// as the preposition it is before a noun phrase ("wipe everything off my
// calendar"), and "like" framing a request ("i'd like …").

// wouldWords before "like" make it ask for something ("i'd like", "would
// like").
var wouldWords = setOf("i'd", "we'd", "would")

// offObjects open the noun phrase after an "off" that is a preposition
// (what something is taken from): determiners and possessives.
var offObjects = setOf("the", "my", "this", "that", "these", "those", "your", "our", "his", "her", "their", "a", "an", "all", "every")

// verbBefore reports whether one of verbs comes up to within words
// before the word at i: "take" or "get" three before an "off" is to
// remove ("take it off the list"), "take" five before an "out of" too,
// a sentence's object between them ("take the last sketch out of my
// favourites").
func verbBefore(pts []ptok, i, within int, verbs ...string) bool {
	for k := i - 1; k >= 0 && k >= i-within; k-- {
		if slices.Contains(verbs, pts[k].text) {
			return true
		}
	}
	return false
}

// particle returns the concept of the particle on/off/up/down at i, or "".
func particle(pts []ptok, i int) string {
	t := pts[i].text
	verb := false
	for k := i - 1; k >= 0 && k >= i-3; k-- {
		if pts[k].slot != "" {
			break
		}
		if particleVerbs[pts[k].text] {
			verb = true
			break
		}
		if pts[k].text == "on" || pts[k].text == "off" {
			break
		}
	}
	switch t {
	case "off":
		if !verb && !verbBefore(pts, i, 3, "take", "get") && i+1 < len(pts) && pts[i+1].slot == "" && offObjects[pts[i+1].text] {
			// a preposition: what something is wiped or cleared from
			// ("wipe everything off my calendar"); "take" or "get" with
			// it is to remove ("take Dora off my favourites")
			return ""
		}
		return "off"
	case "on":
		if verb {
			return "on"
		}
		for k := i + 1; k < len(pts); k++ {
			if pts[k].slot != "" || pts[k].kind != KindWord || !onTail[pts[k].text] {
				return ""
			}
		}
		return "on"
	case "up":
		if verb {
			return "increase"
		}
	case "down":
		if verb {
			return "decrease"
		}
	}
	return ""
}
