package intent

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

var (
	benchVerbs = []string{"open", "create", "delete", "edit", "share", "search", "turn on", "turn off", "play", "pause",
		"add", "remove", "rename", "sort", "select", "send", "call", "archive", "pin", "star", "download", "mute",
		"lock", "enable", "disable", "show", "hide", "set", "save", "move"}
	benchSyll  = []string{"ka", "lo", "mir", "vet", "sa", "no", "tre", "pul", "di", "an", "gor", "ie", "bel", "sto", "ru", "fen", "qua", "zim", "ol", "ex"}
	benchSlots = []struct{ tail, name, ex string }{
		{"called {name}", "name", "Kestrel"}, {"to {contact}", "contact", "Alice"}, {"for {time}", "time", "7:30 am"},
		{"with {text}", "text", "weekly report"}, {"at {number}", "number", "42"},
	}
)

func benchWord(r *rand.Rand) string {
	n := 2 + r.IntN(2)
	w := ""
	for range n {
		w += benchSyll[r.IntN(len(benchSyll))]
	}
	return w
}

// benchFlows makes n synthetic flows over 50 apps: "<verb> the <noun>
// <noun> [<slot tail>]", each with two past commands.
func benchFlows(n int, r *rand.Rand) []knowledge.Flow {
	nouns := make([]string, 800)
	for i := range nouns {
		nouns[i] = benchWord(r)
	}
	flows := make([]knowledge.Flow, 0, n)
	for i := range n {
		verb := benchVerbs[r.IntN(len(benchVerbs))]
		obj := nouns[r.IntN(len(nouns))] + " " + nouns[r.IntN(len(nouns))]
		intent := verb + " the " + obj
		cmd1, cmd2 := intent, "please "+verb+" my "+obj
		var slots []knowledge.Slot
		if r.IntN(2) == 0 {
			s := benchSlots[r.IntN(len(benchSlots))]
			intent += " " + s.tail
			v := s.ex
			if s.name == "text" {
				v = "'" + v + "'"
			}
			cmd1 += " " + s.tail[:len(s.tail)-len(s.name)-2] + v
			cmd2 += " " + s.tail[:len(s.tail)-len(s.name)-2] + v
			slots = []knowledge.Slot{{Name: s.name, Example: s.ex}}
		}
		flows = append(flows, knowledge.Flow{ID: int64(i + 1), Package: fmt.Sprintf("org.example.app%02d", i%50),
			Intent: intent, Slots: slots, Commands: []string{cmd1, cmd2}, Steps: []knowledge.Step{{Action: "tap"}}})
	}
	return flows
}

// BenchmarkRank10k ranks one command against 10,000 flows (all apps) and
// reports the latency percentiles; the goal is p99 <= 10 ms.
func BenchmarkRank10k(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	flows := benchFlows(10_000, r)
	t0 := time.Now()
	m := NewMatcher(flows)
	build := time.Since(t0)
	var queries []string
	for i := range 512 {
		f := flows[r.IntN(len(flows))]
		switch i % 4 {
		case 0: // the same task with other values
			q := f.Commands[0]
			if len(f.Slots) > 0 {
				q = f.Intent
				for _, s := range f.Slots {
					q = replaceSlot(q, s.Name, "Zed")
				}
			}
			queries = append(queries, q)
		case 1: // reworded
			queries = append(queries, "could you "+f.Commands[1]+" now")
		case 2: // opposite or other verb on the same object
			queries = append(queries, benchVerbs[r.IntN(len(benchVerbs))]+" the "+benchWord(r)+" "+benchWord(r))
		default: // unrelated
			queries = append(queries, "what is the weather like in "+benchWord(r))
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	lat := make([]time.Duration, 0, 1<<16)
	cpu := make([]time.Duration, 0, 1<<16)
	i := 0
	b.ResetTimer()
	for b.Loop() {
		q := queries[i%len(queries)]
		i++
		s, c := time.Now(), threadCPU()
		m.Rank(q, "", 5)
		lat = append(lat, time.Since(s))
		cpu = append(cpu, threadCPU()-c)
	}
	b.StopTimer()
	// wall-clock latency includes waiting for a core on a busy machine;
	// thread CPU time is the work of one Rank call
	reportPercentiles(b, lat, "")
	if len(cpu) > 0 && cpu[0] >= 0 {
		reportPercentiles(b, cpu, "cpu-")
	}
	b.ReportMetric(float64(build.Milliseconds()), "build-ms")
}

func reportPercentiles(b *testing.B, d []time.Duration, prefix string) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
	b.ReportMetric(ms(d[len(d)/2]), prefix+"p50-ms")
	b.ReportMetric(ms(d[len(d)*99/100]), prefix+"p99-ms")
	b.ReportMetric(ms(d[len(d)-1]), prefix+"max-ms")
}

func replaceSlot(s, name, v string) string {
	ph := "{" + name + "}"
	for i := 0; i+len(ph) <= len(s); i++ {
		if s[i:i+len(ph)] == ph {
			return s[:i] + v + s[i+len(ph):]
		}
	}
	return s
}

// TestBenchFlowsRank checks that the benchmark's synthetic index answers
// correctly too: a flow's own past command ranks it first and replayable.
func TestBenchFlowsRank(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 10,000-flow index")
	}
	r := rand.New(rand.NewPCG(3, 4))
	flows := benchFlows(10_000, r)
	m := NewMatcher(flows)
	for k := range 50 {
		f := flows[r.IntN(len(flows))]
		cs := m.Rank(f.Commands[0], "", 3)
		if len(cs) == 0 || cs[0].Score < DefaultThreshold {
			t.Fatalf("%d: %q: %+v", k, f.Commands[0], cs)
		}
		// synthetic names may repeat: the top flow must at least have the same intent
		if cs[0].FlowID != f.ID && flows[cs[0].FlowID-1].Intent != f.Intent {
			t.Errorf("%q: top %d %q, want %d %q", f.Commands[0], cs[0].FlowID, flows[cs[0].FlowID-1].Intent, f.ID, f.Intent)
		}
	}
}
