package llm_test

import (
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/llm"
)

// BenchmarkParseReply measures the local cost of one model reply: fence
// stripping, schema validation, decoding and the element check.
func BenchmarkParseReply(b *testing.B) {
	in := "```json\n" + validTap + "\n```"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := llm.ParseReply(in, screenHas); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderNextAction measures rendering the next-action prompt.
func BenchmarkRenderNextAction(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := llm.NextActionMessages(sampleNext); err != nil {
			b.Fatal(err)
		}
	}
}
