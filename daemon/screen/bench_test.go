package screen

import (
	"strings"
	"testing"
)

// Benchmarks over the real data (skipped when ../shared is absent):
//
//	go test -run='^$' -bench=. -benchtime=2s ./daemon/screen/
//
// Parser benchmarks parse the whole corpus per op and report bytes/s
// (SetBytes) and nodes/s. Screen-understanding benchmarks take one screen
// per op, cycling through the corpus, with the snapshot's derived-data
// cache dropped first (cold), as for a freshly captured screen.

func corpusNodes(snaps []*Snapshot) int {
	n := 0
	for _, s := range snaps {
		n += len(s.Nodes)
	}
	return n
}

func benchParse(b *testing.B, inputs [][]byte, parse func([]byte) (*Snapshot, error)) {
	size, nodes := 0, 0
	for _, in := range inputs {
		size += len(in)
		s, err := parse(in)
		if err != nil {
			b.Fatal(err)
		}
		nodes += len(s.Nodes)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, in := range inputs {
			if _, err := parse(in); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(len(inputs)), "files/op")
}

func BenchmarkParseDroidBot(b *testing.B) {
	var in [][]byte
	for _, st := range loadDroidTask(b) {
		in = append(in, st.Raw)
	}
	benchParse(b, in, ParseDroidBot)
}

func BenchmarkParseUIAutomator(b *testing.B) {
	var in [][]byte
	for _, fx := range loadUIAutomator(b) {
		in = append(in, fx.Raw)
	}
	benchParse(b, in, ParseUIAutomator)
}

// BenchmarkParseJSON parses the snapshot JSON of every DroidTask state.
func BenchmarkParseJSON(b *testing.B) {
	var in [][]byte
	for _, st := range loadDroidTask(b) {
		j, err := st.Snap.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		in = append(in, j)
	}
	benchParse(b, in, ParseJSON)
}

func BenchmarkMarshalJSON(b *testing.B) {
	states := loadDroidTask(b)
	b.ReportAllocs()
	for i := range b.N {
		if _, err := states[i%len(states)].Snap.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

func realSnaps(b testing.TB) []*Snapshot {
	var out []*Snapshot
	for _, st := range loadDroidTask(b) {
		out = append(out, st.Snap.Clone())
	}
	return out
}

// BenchmarkFingerprint: Fingerprint of a freshly parsed screen (pruning,
// list detection, elements and tokens are computed on first use).
func BenchmarkFingerprint(b *testing.B) {
	snaps := realSnaps(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		s := snaps[i%len(snaps)]
		s.Changed()
		_ = Fingerprint(s)
	}
	b.ReportMetric(float64(corpusNodes(snaps))/float64(len(snaps))*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkElements: Elements and Render of a freshly parsed screen.
func BenchmarkElements(b *testing.B) {
	snaps := realSnaps(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		s := snaps[i%len(snaps)]
		s.Changed()
		_ = Render(Elements(s))
	}
	b.ReportMetric(float64(corpusNodes(snaps))/float64(len(snaps))*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkSimilarity: Similarity of two screens whose tokens are cached.
func BenchmarkSimilarity(b *testing.B) {
	snaps := realSnaps(b)
	for _, s := range snaps {
		Fingerprint(s)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		_ = Similarity(snaps[i%len(snaps)], snaps[(i*7+1)%len(snaps)])
	}
}

// groundBench is the largest DroidTask screen, the descriptors of its kept
// nodes, and a moved capture of it to ground them on.
func groundBench(b testing.TB) (*Snapshot, []Descriptor, *Snapshot) {
	states := loadDroidTask(b)
	big := states[0].Snap
	for _, st := range states {
		if len(st.Snap.Nodes) > len(big.Nodes) {
			big = st.Snap
		}
	}
	var ds []Descriptor
	keep := Keep(big)
	for i := range big.Nodes {
		if keep[i] && big.Nodes[i].Class != "" {
			ds = append(ds, Describe(big, i))
		}
	}
	return big, ds, shifted(big, 0, 100)
}

// BenchmarkGround grounds one descriptor on the largest DroidTask screen
// (256 nodes): cold = first Ground on a fresh capture (pruning and all
// descriptors computed), warm = later Grounds on the same capture,
// reference = the uncached O(n²) computation Ground replaced.
func BenchmarkGround(b *testing.B) {
	big, ds, target := groundBench(b)
	b.Logf("screen of %d nodes, %d descriptors", len(big.Nodes), len(ds))
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			target.Changed()
			if _, ok := Ground(target, ds[i%len(ds)]); !ok {
				b.Fatal("not found")
			}
		}
	})
	b.Run("warm", func(b *testing.B) {
		target.Changed()
		Ground(target, ds[0])
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if _, ok := Ground(target, ds[i%len(ds)]); !ok {
				b.Fatal("not found")
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		Keep(target)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if _, ok := groundRef(target, ds[i%len(ds)]); !ok {
				b.Fatal("not found")
			}
		}
	})
}

// BenchmarkDescribe: Describe of one node on a fresh capture of the
// largest screen (describes all nodes once), and from the cache.
func BenchmarkDescribe(b *testing.B) {
	big, _, target := groundBench(b)
	n := len(big.Nodes)
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			target.Changed()
			_ = Describe(target, i%n)
		}
	})
	b.Run("warm", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			_ = Describe(target, i%n)
		}
	})
	b.Run("reference", func(b *testing.B) {
		Keep(target)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			_ = describeRef(target, i%n)
		}
	})
}

// pathological builds uiautomator XML for a chain of n nested nodes (wide
// false) or a root with n equal-labelled children (wide true).
func pathological(n int, wide bool) []byte {
	var b strings.Builder
	b.WriteString(`<hierarchy><node class="V" bounds="[0,0][100,100]">`)
	for i := 0; i < n; i++ {
		if wide {
			b.WriteString(`<node class="T" text="Item 1" clickable="true" bounds="[0,0][100,100]"/>`)
		} else {
			b.WriteString(`<node class="V" bounds="[0,0][100,100]">`)
		}
	}
	if !wide {
		b.WriteString(`<node class="T" text="leaf" clickable="true" bounds="[0,0][100,100]"/>`)
		b.WriteString(strings.Repeat(`</node>`, n))
	}
	b.WriteString(`</node></hierarchy>`)
	return []byte(b.String())
}

// BenchmarkPathological: parse, fingerprint, describe and ground on a
// 5,000-deep chain and a 5,000-wide fan of look-alikes (every step is
// linear in the nodes; these took seconds when they were quadratic).
func BenchmarkPathological(b *testing.B) {
	for _, wide := range []bool{false, true} {
		name := map[bool]string{false: "chain5000", true: "fan5000"}[wide]
		in := pathological(5000, wide)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				s, err := ParseUIAutomator(in)
				if err != nil {
					b.Fatal(err)
				}
				_ = Fingerprint(s)
				last := len(s.Nodes) - 1
				if m, ok := Ground(s, Describe(s, last)); !ok || m.NodeID != last {
					b.Fatalf("grounded %+v %v", m, ok)
				}
			}
		})
	}
}
