package progress

import (
	"strings"
	"sync"
	"testing"
)

func TestMeterCountsConcurrentAdds(t *testing.T) {
	var sb strings.Builder
	m := New(&sb, "eval", "games", 400)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				m.Add(1)
			}
		})
	}
	wg.Wait()
	m.Done()
	if !strings.Contains(sb.String(), "eval: 400/400 games (100%)") {
		t.Fatalf("final line missing: %q", sb.String())
	}
}

// TestMeterTotalLater: a meter started without a total shows done units alone, and done/total with
// an ETA once the total is set.
func TestMeterTotalLater(t *testing.T) {
	var sb strings.Builder
	m := New(&sb, "find", "files", 0)
	m.interval = 0
	m.Add(5)
	m.SetTotal(20)
	m.Add(5)
	lines := strings.Split(strings.TrimSpace(sb.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "find: 5 files,") ||
		!strings.HasPrefix(lines[1], "find: 10/20 files (50%), ETA ") {
		t.Fatalf("lines %q", lines)
	}
}
