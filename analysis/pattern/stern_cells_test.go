package pattern

import (
	"slices"
	"testing"

	"aji/analysis/board"
)

// TestSternCells: each template's points as an explanation draws them, the centre left out as Cells
// leaves it out; T3..T12 are Cells' sizes, T13 adds 16 points, and T14 is the whole board and its rim.
func TestSternCells(t *testing.T) {
	b := mustBoard(t, 9)
	// Black at D5, White at E4; White to play at E5 (x 4, y 4 from the top).
	if err := b.Play(board.At(3, 4), board.Black); err != nil {
		t.Fatal(err)
	}
	if err := b.Play(board.At(4, 5), board.White); err != nil {
		t.Fatal(err)
	}
	p := board.At(4, 4)
	want := map[int]int{1: 0, 2: 4, 3: 8, 4: 12, 12: 104, 13: 120, 14: 11*11 - 1}
	for template := 1; template <= NumStern; template++ {
		cells := SternCells(b, board.White, p, template)
		if cells == nil {
			t.Fatalf("T%d: nil", template)
		}
		if n, ok := want[template]; ok && len(cells) != n {
			t.Errorf("T%d has %d points, want %d", template, len(cells), n)
		}
		if template >= MinSize && template <= MaxSize && !slices.Equal(cells, Cells(b, board.White, p, template)) {
			t.Errorf("T%d is not Cells of size %d", template, template)
		}
		// (T14 of a 9x9 board and its rim, 120 points, is as large as T13.)
		if smaller := len(SternCells(b, board.White, p, template-1)); template > 1 && (len(cells) < smaller || len(cells) == smaller && template < NumStern) {
			t.Errorf("T%d is not larger than T%d", template, template-1)
		}
		for _, c := range cells {
			if c.DX == 0 && c.DY == 0 {
				t.Errorf("T%d holds the centre", template)
			}
		}
	}
	// T2: the neighbours, relative to White: Black's D5 is the opponent's, White's E4 own.
	got := map[[2]int]State{}
	for _, c := range SternCells(b, board.White, p, 2) {
		got[[2]int{c.DX, c.DY}] = c.State
	}
	if got[[2]int{-1, 0}] != Opp || got[[2]int{0, 1}] != Own || got[[2]int{1, 0}] != Empty || got[[2]int{0, -1}] != Empty {
		t.Errorf("T2 around E5: %v", got)
	}
	// T13 beyond T12: the 16 points at Coulom distance 13.
	t13 := SternCells(b, board.White, p, 13)
	for _, c := range t13[104:] {
		if Distance(c.DX, c.DY) != 13 {
			t.Errorf("T13 extra point (%d, %d) at distance %d", c.DX, c.DY, Distance(c.DX, c.DY))
		}
	}
	// T14 from a corner: every point of the board once, with its state, and Off just beyond it.
	corner := board.At(0, 0)
	on := map[board.Point]bool{}
	for _, c := range SternCells(b, board.White, corner, 14) {
		x, y := c.DX, c.DY
		if x < 0 || y < 0 || x >= 9 || y >= 9 {
			if c.State != Off || x < -1 || y < -1 || x > 9 || y > 9 {
				t.Errorf("T14 rim point (%d, %d) is %v", x, y, c.State)
			}
			continue
		}
		q := board.At(x, y)
		if on[q] {
			t.Errorf("T14 holds %v twice", q)
		}
		on[q] = true
		if want := relative[1][b.At(q)&3]; c.State != want {
			t.Errorf("T14 point (%d, %d) is %v, want %v", x, y, c.State, want)
		}
	}
	if len(on) != 9*9-1 || on[corner] {
		t.Errorf("T14 covers %d points of 81 (the move's own: %v)", len(on), on[corner])
	}
	if SternCells(b, board.White, p, 0) != nil || SternCells(b, board.White, p, 15) != nil {
		t.Error("a template number out of range gives points")
	}
}
