//go:build !linux

package intent

import "time"

// threadCPU is unknown off Linux.
func threadCPU() time.Duration { return -1 }
