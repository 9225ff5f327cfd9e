package procstat

import (
	"math"
	"os"
	"testing"
	"time"
)

func TestSlope(t *testing.T) {
	xs := []float64{0, 1, 2, 3, 4}
	if s := Slope(xs, []float64{3, 5, 7, 9, 11}); math.Abs(s-2) > 1e-9 {
		t.Fatalf("slope of a line of slope 2: %v", s)
	}
	if s := Slope(xs, []float64{5, 4, 6, 5, 5}); math.Abs(s) > 0.2 {
		t.Fatalf("slope of noise around 5: %v", s)
	}
	if s := Slope([]float64{1}, []float64{1}); s != 0 {
		t.Fatalf("slope of one point: %v", s)
	}
}

func TestFitPerMinute(t *testing.T) {
	var samples []Sample
	for i := range 7 {
		// 10 s apart; RSS grows 1 MiB per sample = 6 MiB/min.
		samples = append(samples, Sample{At: time.Duration(i) * 10 * time.Second, RSSKiB: int64(100+i) * 1024, OpenFDs: 20, Threads: 5})
	}
	tr := Fit(samples)
	if math.Abs(tr.RSSMiBPerMin-6) > 1e-9 || tr.FDsPerMin != 0 || tr.ThreadsPerMin != 0 {
		t.Fatalf("trend %+v", tr)
	}
	if tr.RSSMiBMin != 100 || tr.RSSMiBMax != 106 || tr.FDsMax != 20 {
		t.Fatalf("ranges %+v", tr)
	}
}

func TestReadSelf(t *testing.T) {
	s, err := Read(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if s.RSSKiB <= 0 || s.Threads <= 0 || s.OpenFDs < 3 {
		t.Fatalf("implausible sample of this test process: %+v", s)
	}
}
