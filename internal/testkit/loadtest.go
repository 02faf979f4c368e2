// RunLoad, Heap and CheckHeapReturned are the pieces of the long concurrency tests: running a
// numbered workload from many goroutines, and checking that the live heap
// comes back to where it was.

package testkit

import (
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

// RunLoad calls do(i) for every i in [from, to), from workers goroutines.
func RunLoad(workers, from, to int, do func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				do(i)
			}
		}()
	}
	for i := from; i < to; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}

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

// CheckHeapReturned logs the heap before and after ops operations of what,
// and fails t when the heap kept more than 4 bytes an operation or 10% of
// where it started, whichever is larger. A leak keeps at least a pointer an
// operation (8 bytes); a fixed 10% alone failed now and then on a 270 KB
// heap, from some 27 KB of runtime caches that a busy machine fills later
// than an idle one.
func CheckHeapReturned(t testing.TB, before, after uint64, ops int, what string) {
	t.Helper()
	t.Logf("heap in use: %d bytes before, %d after %s (%+.1f%%)", before, after, what, 100*(float64(after)/float64(before)-1))
	allowed := max(before/10, 4*uint64(ops))
	if after > before+allowed {
		t.Errorf("the heap grew from %d to %d bytes, more than %d (4 bytes for each of %d operations, or 10%%)", before, after, allowed, ops)
	}
}
