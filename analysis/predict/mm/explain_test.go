package mm

import (
	"reflect"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/assets"
)

// samplePositions returns the positions after each of the given main-line moves of a sample game.
func samplePositions(t testing.TB, moves ...int) []*game.Position {
	t.Helper()
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := game.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var out []*game.Position
	for _, n := range moves {
		pos, err := gs[0].PositionAfter(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, pos)
	}
	return out
}

func defaultModel(t testing.TB) *Model {
	t.Helper()
	m, err := Shared("")
	if err != nil {
		t.Skip("no default mm model embedded:", err)
	}
	return m
}

func TestExplainComputesEachPositionOnce(t *testing.T) {
	m := defaultModel(t)
	ps := samplePositions(t, 60, 61)
	a, b := ps[0], ps[1]
	// With the Monte Carlo owner when the model has it: the expensive case this is for.
	p := NewPredictor("mm", m, true)
	var d predict.Distribution
	p.Predict(a, &d)
	best := d.Top(1, nil)[0].Point

	first := p.Explain(a, best)
	again := p.Explain(a, best)
	if !reflect.DeepEqual(first, again) {
		t.Fatalf("two explanations of one move differ:\n%+v\n%+v", first, again)
	}
	all := predict.ExplainAll(p, a)
	if p.runs != 1 {
		t.Fatalf("explaining every point of the predicted position computed features %d times, want 1", p.runs)
	}
	legal := 0
	for _, q := range a.Board.Points() {
		if a.Board.Legal(q, a.ToPlay) {
			legal++
		}
	}
	if len(all) != legal {
		t.Errorf("ExplainAll gave %d explanations for %d legal points", len(all), legal)
	}
	// The remembered ranks are Distribution.Rank's, illegal points and pass included.
	for _, q := range append(a.Board.Points(), board.Pass) {
		ex := p.Explain(a, q)
		if ex.Probability != d.P[q] || ex.Rank != d.Rank(a, q) {
			t.Fatalf("%s: probability %v rank %d, want %v and %d", q.GTP(19), ex.Probability, ex.Rank, d.P[q], d.Rank(a, q))
		}
	}

	// Another position is computed afresh, and explained as a new predictor would.
	exB := p.Explain(b, best)
	if p.runs != 2 {
		t.Fatalf("a new position computed features %d times in all, want 2", p.runs)
	}
	if fresh := NewPredictor("mm", m, true).Explain(b, best); !reflect.DeepEqual(exB, fresh) {
		t.Errorf("explanation after a change of position differs from a fresh predictor's:\n%+v\n%+v", exB, fresh)
	}
	// The position is known by its contents, not its address: a move played in place is noticed.
	c := samplePositions(t, 30)[0]
	p.Explain(c, best)
	var q board.Point
	for _, q = range c.Board.Points() {
		if c.Board.Legal(q, c.ToPlay) {
			break
		}
	}
	if err := c.Board.Play(q, c.ToPlay); err != nil {
		t.Fatal(err)
	}
	c.ToPlay, c.Prev, c.Last = c.ToPlay.Opponent(), c.Last, q
	p.Explain(c, best)
	if p.runs != 4 {
		t.Errorf("a position changed in place was not recomputed (%d runs in all, want 4)", p.runs)
	}
}

// BenchmarkExplainAll19 is the inspector's task: explain every legal point of a position. It alternates
// between two positions so that every iteration computes features once.
func BenchmarkExplainAll19(b *testing.B) {
	m := defaultModel(b)
	ps := samplePositions(b, 60, 61)
	for _, owner := range []bool{false, true} {
		name := "plain"
		if owner {
			if !m.Owner {
				continue
			}
			name = "owner"
		}
		b.Run(name, func(b *testing.B) {
			p := NewPredictor("mm", m, owner)
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				predict.ExplainAll(p, ps[i%2])
				i++
			}
		})
	}
}

// TestExplainedShapeMatchesTheBoard checks the cells of every explained shape against the board, in
// predict's words for the states.
func TestExplainedShapeMatchesTheBoard(t *testing.T) {
	m := defaultModel(t)
	pos := samplePositions(t, 106)[0]
	p := NewPredictor("mm", m, false)
	shapes := 0
	for _, ex := range predict.ExplainAll(p, pos) {
		if len(ex.Pattern) > 0 {
			shapes++
		}
		x, y := ex.Point.XY()
		for _, c := range ex.Pattern {
			qx, qy := x+c.DX, y+c.DY
			want := predict.CellEdge
			if n := pos.Board.Size(); qx >= 0 && qy >= 0 && qx < n && qy < n {
				switch pos.Board.At(board.At(qx, qy)) {
				case pos.ToPlay:
					want = predict.CellOwn
				case pos.ToPlay.Opponent():
					want = predict.CellOpponent
				default:
					want = predict.CellEmpty
				}
			}
			if c.State != want {
				t.Fatalf("%s: cell (%+d,%+d) is %q, want %q", ex.Point.GTP(19), c.DX, c.DY, c.State, want)
			}
		}
	}
	if shapes == 0 {
		t.Fatal("no point has a shape: nothing was checked")
	}
}
