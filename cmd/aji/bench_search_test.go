package main

import (
	"encoding/json"
	"errors"
	"testing"
)

// TestBenchSearch runs the measurement for real, with the test binary as `aji gtp` (TestMain serves
// it): each size's figure comes from two processes' CPU times, the longer run costing more.
func TestBenchSearch(t *testing.T) {
	out, err := run(t, "bench", "search", "--playouts9", "1500", "--playouts19", "700", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ Search []searchSpeedFigure }
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Search) != 2 || v.Search[0].Size != 9 || v.Search[1].Size != 19 {
		t.Fatalf("figures %+v", v.Search)
	}
	for _, f := range v.Search {
		if f.BaselineCPUSeconds <= 0 || f.CPUSeconds <= f.BaselineCPUSeconds || f.PlayoutsPerCPUSecond <= 0 {
			t.Errorf("%dx%d: %+v", f.Size, f.Size, f)
		}
	}
	if _, err := run(t, "bench", "search", "--playouts9", "400"); !errors.Is(err, errUsage) {
		t.Errorf("400 playouts, under the baseline: %v", err)
	}
}
