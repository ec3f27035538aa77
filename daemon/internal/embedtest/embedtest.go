// Package embedtest has a fake sentence-embedding model for tests.
package embedtest

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"sync/atomic"
	"unicode"

	"github.com/wayfinder-agent/wayfinder/daemon/semantic"
)

// Bag is a fake model named "fake-bag": a text's vector is the
// L2-normalised bag of its lower-cased words, each first replaced by its
// entry in same (so {"night": "dark"} makes "night" mean "dark"), hashed
// (FNV-1a) into 1024 dimensions. calls, when not nil, counts the texts
// embedded.
func Bag(same map[string]string, calls *atomic.Int64) semantic.Embedder {
	return semantic.Func{Model: "fake-bag", Fn: func(_ context.Context, texts []string) ([][]float32, error) {
		out := make([][]float32, len(texts))
		for i, t := range texts {
			if calls != nil {
				calls.Add(1)
			}
			v := make([]float32, 1024)
			for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) }) {
				if s, ok := same[w]; ok {
					w = s
				}
				h := fnv.New32a()
				h.Write([]byte(w))
				v[h.Sum32()%1024]++
			}
			n := 0.0
			for _, x := range v {
				n += float64(x * x)
			}
			if n > 0 {
				for j := range v {
					v[j] /= float32(math.Sqrt(n))
				}
			}
			out[i] = v
		}
		return out, nil
	}}
}
