package game

import (
	"errors"
	"testing"

	"aji/analysis/board"
)

func TestSGFPointRoundTrip(t *testing.T) {
	for size := 2; size <= board.MaxSize; size++ {
		for _, p := range board.PointsOf(size) {
			s := SGFPoint(p)
			q, err := ParseSGFPoint(s, size)
			if err != nil || q != p {
				t.Fatalf("size %d: %v -> %q -> %v, %v", size, p, s, q, err)
			}
		}
	}
}

func TestParseSGFPoint(t *testing.T) {
	tests := []struct {
		s    string
		size int
		want board.Point
		err  bool
	}{
		{"aa", 19, board.At(0, 0), false},
		{"pd", 19, board.At(15, 3), false}, // Q16
		{"sa", 19, board.At(18, 0), false},
		{"", 19, board.Pass, false},
		{"tt", 19, board.Pass, false},
		{"tt", 9, board.Pass, false},
		{"tt", 20, board.At(19, 19), false},
		{"yy", 25, board.At(24, 24), false},
		{"ii", 9, board.At(8, 8), false},
		{"jj", 9, 0, true},
		{"ta", 19, 0, true},
		{"a", 19, 0, true},
		{"aaa", 19, 0, true},
		{"AA", 19, 0, true},
		{"a[", 19, 0, true},
	}
	for _, tc := range tests {
		p, err := ParseSGFPoint(tc.s, tc.size)
		if tc.err {
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("ParseSGFPoint(%q, %d) = %v, %v; want ErrInvalid", tc.s, tc.size, p, err)
			}
			continue
		}
		if err != nil || p != tc.want {
			t.Errorf("ParseSGFPoint(%q, %d) = %v, %v; want %v", tc.s, tc.size, p, err, tc.want)
		}
	}
	if got := board.At(15, 3).GTP(19); got != "Q16" {
		t.Errorf("pd is %s, want Q16", got)
	}
	if SGFPoint(board.Pass) != "" {
		t.Errorf("SGFPoint(Pass) = %q", SGFPoint(board.Pass))
	}
}
