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
