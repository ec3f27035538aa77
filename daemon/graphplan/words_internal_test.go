package graphplan

import "testing"

// TestTermsOfActionPhrase: an action phrase counts by its concept; the
// words completing it are no terms of their own ("rid" of "get rid of"
// would be matched by meaning to some other "remove" button).
func TestTermsOfActionPhrase(t *testing.T) {
	ts := termsOf("get rid of the last picture")
	has := map[term]bool{}
	for _, tm := range ts {
		has[tm] = true
	}
	if !has["@delete"] || has["rid"] {
		t.Errorf("termsOf = %v, want @delete and no \"rid\"", ts)
	}
}
