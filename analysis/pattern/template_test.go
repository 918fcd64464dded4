package pattern

import (
	"testing"
)

func TestTemplateSizes(t *testing.T) {
	// Points of each size, counted by hand from Coulom's distance (the centre excluded).
	want := map[int]int{3: 8, 4: 12, 5: 20, 6: 28, 7: 36, 8: 48, 9: 60, 10: 72, 11: 88, 12: 104}
	for s := MinSize; s <= MaxSize; s++ {
		if got := TemplateLen(s); got != want[s] {
			t.Errorf("TemplateLen(%d) = %d, want %d", s, got, want[s])
		}
	}
	if TemplateLen(2) != 0 || TemplateLen(MaxSize+1) != 0 {
		t.Error("TemplateLen outside MinSize..MaxSize should be 0")
	}
	// Size 3 is the 3x3 neighbourhood.
	for _, o := range offsets[:TemplateLen(3)] {
		if abs(int(o.dx)) > 1 || abs(int(o.dy)) > 1 {
			t.Errorf("size 3 holds %v", o)
		}
	}
}

func TestTemplatesNestedAndSymmetric(t *testing.T) {
	for s := MinSize; s <= MaxSize; s++ {
		in := map[offset]bool{}
		for _, o := range offsets[:TemplateLen(s)] {
			if d := Distance(int(o.dx), int(o.dy)); d > s || d == 0 {
				t.Fatalf("size %d holds %v at distance %d", s, o, d)
			}
			in[o] = true
		}
		for dy := -reach - 1; dy <= reach+1; dy++ {
			for dx := -reach - 1; dx <= reach+1; dx++ {
				if d := Distance(dx, dy); d > 0 && d <= s && !in[offset{int8(dx), int8(dy)}] {
					t.Fatalf("size %d misses (%d,%d)", s, dx, dy)
				}
			}
		}
		for o := range in {
			for sym := range numSyms {
				dx, dy := transform(sym, int(o.dx), int(o.dy))
				if !in[offset{int8(dx), int8(dy)}] {
					t.Fatalf("size %d is not closed under symmetry %d", s, sym)
				}
			}
		}
	}
}

func TestSymmetryGroup(t *testing.T) {
	seen := map[[2]int]bool{}
	for s := range numSyms {
		x, y := transform(s, 1, 2)
		seen[[2]int{x, y}] = true
		if x, y = transform(inverse(s), x, y); x != 1 || y != 2 {
			t.Errorf("inverse(%d) does not undo %d", inverse(s), s)
		}
	}
	if len(seen) != numSyms {
		t.Errorf("%d distinct images, want 8", len(seen))
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct{ dx, dy, d int }{{0, 0, 0}, {1, 0, 2}, {1, 1, 3}, {-2, 0, 4}, {2, -1, 5}, {3, 3, 9}, {0, -6, 12}} {
		if got := Distance(c.dx, c.dy); got != c.d {
			t.Errorf("Distance(%d,%d) = %d, want %d", c.dx, c.dy, got, c.d)
		}
	}
}
