package workload

import (
	"slices"
	"time"
)

// Latencies keeps the latencies of acknowledged operations in fixed-width
// windows counted from its creation.
type Latencies struct {
	start   time.Time
	width   time.Duration
	windows [][]time.Duration
}

// NewLatencies starts the first window now.
func NewLatencies(width time.Duration) *Latencies {
	return &Latencies{start: time.Now(), width: width}
}

func (l *Latencies) add(d time.Duration) {
	i := int(time.Since(l.start) / l.width)
	for len(l.windows) <= i {
		l.windows = append(l.windows, nil)
	}
	l.windows[i] = append(l.windows[i], d)
}

// Window is one window's summary.
type Window struct {
	Start    time.Duration // from the start
	Count    int
	P50, P99 time.Duration
}

// Windows summarises every window (callers hold no lock: use after the run).
func (l *Latencies) Windows() []Window {
	out := make([]Window, len(l.windows))
	for i, w := range l.windows {
		out[i] = Window{Start: time.Duration(i) * l.width, Count: len(w), P50: Percentile(w, 50), P99: Percentile(w, 99)}
	}
	return out
}

// Percentile is the nearest-rank percentile p (0 < p <= 100) of ds, or 0
// for none.
func Percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	sorted := slices.Clone(ds)
	slices.Sort(sorted)
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	return sorted[max(rank, 1)-1]
}
