// Package procstat samples a process's resident memory, open files and
// threads from /proc, and fits a line through the samples to tell a
// steady process from a leaking one.
package procstat

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Sample is one reading of a process.
type Sample struct {
	At      time.Duration // since the sampling began
	RSSKiB  int64         // VmRSS
	Threads int64         // Threads
	OpenFDs int64         // entries of /proc/PID/fd
}

// Read takes one sample of process pid.
func Read(pid int) (Sample, error) {
	var s Sample
	status, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	defer status.Close()
	scanner := bufio.NewScanner(status)
	for scanner.Scan() {
		name, value, ok := strings.Cut(scanner.Text(), ":")
		if !ok {
			continue
		}
		fields := strings.Fields(value)
		if len(fields) == 0 {
			continue
		}
		switch name {
		case "VmRSS":
			s.RSSKiB, err = strconv.ParseInt(fields[0], 10, 64)
		case "Threads":
			s.Threads, err = strconv.ParseInt(fields[0], 10, 64)
		}
		if err != nil {
			return s, fmt.Errorf("/proc/%d/status %s: %w", pid, name, err)
		}
	}
	if err := scanner.Err(); err != nil {
		return s, err
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return s, err
	}
	s.OpenFDs = int64(len(fds))
	return s, nil
}

// Slope is the least-squares slope of ys over xs (units of y per unit of
// x), or 0 with fewer than two distinct xs.
func Slope(xs, ys []float64) float64 {
	n := float64(len(xs))
	if len(xs) < 2 || len(xs) != len(ys) {
		return 0
	}
	var sx, sy float64
	for i := range xs {
		sx += xs[i]
		sy += ys[i]
	}
	mx, my := sx/n, sy/n
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx == 0 {
		return 0
	}
	return sxy / sxx
}

// Trend is each quantity's slope per minute over samples, and its range.
type Trend struct {
	RSSMiBPerMin, FDsPerMin, ThreadsPerMin float64
	RSSMiBMin, RSSMiBMax                   float64
	FDsMin, FDsMax, ThreadsMin, ThreadsMax int64
}

// Fit computes the trend of samples (at least two).
func Fit(samples []Sample) Trend {
	var minutes, rss, fds, threads []float64
	t := Trend{RSSMiBMin: 1e18, FDsMin: 1 << 62, ThreadsMin: 1 << 62}
	for _, s := range samples {
		minutes = append(minutes, s.At.Minutes())
		mib := float64(s.RSSKiB) / 1024
		rss = append(rss, mib)
		fds = append(fds, float64(s.OpenFDs))
		threads = append(threads, float64(s.Threads))
		t.RSSMiBMin, t.RSSMiBMax = min(t.RSSMiBMin, mib), max(t.RSSMiBMax, mib)
		t.FDsMin, t.FDsMax = min(t.FDsMin, s.OpenFDs), max(t.FDsMax, s.OpenFDs)
		t.ThreadsMin, t.ThreadsMax = min(t.ThreadsMin, s.Threads), max(t.ThreadsMax, s.Threads)
	}
	t.RSSMiBPerMin = Slope(minutes, rss)
	t.FDsPerMin = Slope(minutes, fds)
	t.ThreadsPerMin = Slope(minutes, threads)
	return t
}
