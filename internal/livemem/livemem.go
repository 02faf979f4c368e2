// Package livemem measures the live heap, for the tests that check memory
// comes back after a long run.
package livemem

import (
	"runtime"
	"slices"
	"time"
)

// Heap returns the live heap after full collections: the median of five
// readings, because goroutines and connections that are just ending keep a
// few kilobytes alive for a moment.
func Heap() uint64 {
	readings := make([]uint64, 5)
	for i := range readings {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		readings[i] = m.HeapAlloc
		time.Sleep(20 * time.Millisecond)
	}
	slices.Sort(readings)
	return readings[2]
}
