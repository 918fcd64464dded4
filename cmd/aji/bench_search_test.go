package main

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestBenchSearch runs the measurement for real, with the test binary as `aji gtp` (TestMain serves
// it): each size's and thread count's figure comes from two processes' times, the longer run costing
// more. Wall times are recorded but not compared: a loaded machine can make them cross.
func TestBenchSearch(t *testing.T) {
	for _, bad := range []string{"0", "1,x", "", "2,1", "1,2000"} {
		if _, err := run(t, "bench", "search", "--threads", bad); !errors.Is(err, errUsage) {
			t.Errorf("--threads %q: %v", bad, err)
		}
	}
	if _, err := run(t, "bench", "search", "--playouts9", "400"); !errors.Is(err, errUsage) {
		t.Errorf("400 playouts, under the baseline: %v", err)
	}
	skipUnderRace(t)
	out, err := run(t, "bench", "search", "--playouts9", "1500", "--playouts19", "700", "--threads", "1,2", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Search []searchSpeedFigure }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Search) != 4 || v.Search[0].Size != 9 || v.Search[2].Size != 19 || v.Search[0].Threads != 1 || v.Search[1].Threads != 2 {
		t.Fatalf("figures %+v", v.Search)
	}
	for _, f := range v.Search {
		if f.BaselineCPUSeconds <= 0 || f.CPUSeconds <= f.BaselineCPUSeconds || f.PlayoutsPerCPUSecond <= 0 ||
			f.BaselineWallSeconds <= 0 || f.WallSeconds <= 0 || (f.Threads == 1 && f.Scaling != 0) {
			t.Errorf("%dx%d: %+v", f.Size, f.Size, f)
		}
	}
}
