// Package embedtest has a fake sentence-embedding model for tests.
package embedtest

import (
	"context"
	"sync/atomic"

	"github.com/wayfinder-agent/wayfinder/daemon/llm/llmtest"
	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
)

// Bag is a fake model named "fake-bag" embedding each text with
// llmtest.BagOfStems (texts sharing most word stems are close, texts
// sharing none near orthogonal), each word first replaced by its entry in
// same (so {"night": "dark"} makes "night" mean "dark"). calls, when not
// nil, counts the texts embedded.
func Bag(same map[string]string, calls *atomic.Int64) semantic.Embedder {
	return semantic.Func{Model: "fake-bag", Fn: func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, t := range texts {
			if calls != nil {
				calls.Add(1)
			}
			out[i] = llmtest.BagOfStems(t, same)
		}
		return out, nil
	}}
}
