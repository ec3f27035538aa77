package screen

import (
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestDbgCPU(t *testing.T) {
	_, ds, target := groundBench(t)
	for _, mode := range []string{"cold", "warm", "ref", "analysis"} {
		const n = 300
		c0 := cpuNow()
		for i := 0; i < n; i++ {
			switch mode {
			case "cold":
				target.Changed()
				Ground(target, ds[i%len(ds)])
			case "warm":
				Ground(target, ds[i%len(ds)])
			case "ref":
				groundRef(target, ds[i%len(ds)])
			case "analysis":
				target.Changed()
				Keep(target)
			}
		}
		t.Logf("%s: %v CPU per call", mode, (cpuNow()-c0)/n)
	}
}
