package llm_test

import (
	"encoding/json"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
)

var fuzzSeeds = []string{
	validTap,
	"```json\n" + validTap + "\n```",
	"<think>hmm</think>" + validTap,
	llmtest.NotJSONContent,
	llmtest.BadElementContent,
	`{"reason":"r","action":"scroll","element":-1,"direction":"forward","text":"","done":false}`,
	`{"reason":"r","action":"tapp","element":2.5,"done":"no","x":[1,{"y":null}]}`,
	`{"reason":"r"} trailing`,
	"```\n[1,2,3]\n```",
	"```json",
	"<think>",
	`{"element":99999999999999999999999,"reason":"\ud800"}`,
	"\uFEFF{}",
	"",
}

// FuzzExtractJSON: ExtractJSON never panics, and whatever it returns is a
// trimmed text that starts like a JSON object or array.
func FuzzExtractJSON(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out, err := llm.ExtractJSON(in)
		if err != nil {
			if out != nil {
				t.Errorf("output %q with error %v", out, err)
			}
			return
		}
		if len(out) == 0 || (out[0] != '{' && out[0] != '[') {
			t.Errorf("ExtractJSON(%q) = %q", in, out)
		}
	})
}

// FuzzValidate: Validate against the NextAction and Check schemas never
// panics, and what it accepts decodes into the Go type (the validator is
// never more lenient than encoding/json).
func FuzzValidate(f *testing.F) {
	na, err := llm.SchemaFor(llm.NextAction{})
	if err != nil {
		f.Fatal(err)
	}
	ck, err := llm.SchemaFor(llm.Check{})
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"reason":"r","completed":true,"correct":true,"penalty":9}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		if na.Validate(in) == nil {
			var a llm.NextAction
			if err := json.Unmarshal(in, &a); err != nil {
				t.Errorf("NextAction schema accepted %q but decoding fails: %v", in, err)
			}
		}
		if ck.Validate(in) == nil {
			var c llm.Check
			if err := json.Unmarshal(in, &c); err != nil {
				t.Errorf("Check schema accepted %q but decoding fails: %v", in, err)
			}
			if c.Penalty < 0 || c.Penalty > 9 {
				t.Errorf("Check schema accepted penalty %d", c.Penalty)
			}
		}
	})
}

// FuzzParseReply: the whole reply path (extract, validate, decode, check)
// never panics on model output.
func FuzzParseReply(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		a, err := llm.ParseReply(in, screenHas)
		if err == nil && screenHas(&a) != nil {
			t.Errorf("accepted %+v that fails the check", a)
		}
	})
}
