package bench

import (
	"bufio"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// heapMetric is the bytes of live and not-yet-swept heap objects: what
// HeapAlloc reports, readable without stopping the world.
const heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// settledHeap collects garbage and returns the live heap. Two cycles:
// sync.Pool keeps objects through one collection (its victim cache).
func settledHeap() uint64 {
	runtime.GC()
	runtime.GC()
	return heapBytes()
}

// heapSampler records the largest heap seen while it runs. Sampling every
// few milliseconds misses short spikes between samples; the figure is a
// lower bound of the true peak, close enough for phases that take tens of
// milliseconds or more.
type heapSampler struct {
	stop chan struct{}
	done sync.WaitGroup
	peak uint64
}

func startHeapSampler(every time.Duration) *heapSampler {
	s := &heapSampler{stop: make(chan struct{}), peak: heapBytes()}
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				s.peak = max(s.peak, heapBytes())
			}
		}
	}()
	return s
}

// Stop ends sampling and returns the peak.
func (s *heapSampler) Stop() uint64 {
	close(s.stop)
	s.done.Wait()
	return max(s.peak, heapBytes())
}

// resetPeakRSS returns memory to the OS and, on Linux, resets the
// process's resident-set high-water mark (VmHWM) to its current RSS, so
// that the next peakRSS reading covers only what follows. It reports
// whether the reset worked; where it does not, peakRSS is the peak of the
// whole process so far.
func resetPeakRSS() bool {
	debug.FreeOSMemory()
	// "5" resets the peak RSS; see proc(5), /proc/pid/clear_refs.
	return os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
}

// peakRSS returns VmHWM, the resident-set high-water mark, in bytes, or 0
// where /proc/self/status does not exist.
func peakRSS() uint64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:")
		if !ok {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
		if err != nil {
			return 0
		}
		return kb << 10
	}
	return 0
}
