package screen

import (
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

func realSnaps(b *testing.B) []*Snapshot {
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
func groundBench(b *testing.B) (*Snapshot, []Descriptor, *Snapshot) {
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
