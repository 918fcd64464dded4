package guess

import (
	"bytes"
	"reflect"
	"slices"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
)

// quiz is a 9x9 record: Black E5, White C3, Black G7, White pass, Black G3, then a node that both sets
// up a stone and plays White C7, then Black D6; a side line at move 2.
const quiz = `(;SZ[9]KM[7];B[ee](;W[cg];B[gc];W[];B[gg];AB[aa]W[cc];B[dd])(;W[gg]))`

func load(t *testing.T, sgf string) *game.Game {
	t.Helper()
	gs, err := game.Parse([]byte(sgf))
	if err != nil {
		t.Fatal(err)
	}
	return gs[0]
}

func pt(t *testing.T, s string) board.Point {
	t.Helper()
	p, err := board.ParseGTP(s, 9)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func saved(t *testing.T, g *game.Game) string {
	t.Helper()
	var b bytes.Buffer
	if err := g.Save(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSessionScoresAScriptedRun(t *testing.T) {
	g := load(t, quiz)
	before := saved(t, g)
	line := g.MainLine()
	s, err := New(g, line, line[0], Both)
	if err != nil {
		t.Fatal(err)
	}
	// The pass (move 4) and the move beside setup stones (6) are not guessed.
	var got []int
	for _, m := range s.Moves() {
		got = append(got, m.Number)
	}
	if want := []int{1, 2, 3, 5, 7}; !slices.Equal(got, want) {
		t.Fatalf("moves to guess %v, want %v", got, want)
	}

	// Move 1, E5: right at the first try.
	if o := s.Guess(pt(t, "E5")); o.Verdict != Right || !o.Result.FirstTry() || o.Result.Hints != 0 {
		t.Fatalf("E5 at move 1: %+v", o)
	}
	// Move 2, White C3: E5 is a stone (ignored), G7 wrong (the lower left quarter), G7 again ignored,
	// A9 wrong (the sixteenth), J1 wrong (no hint left), then C3.
	m, _ := s.Current()
	if m.Number != 2 || m.Color != board.White || s.Position().ToPlay != board.White || s.Position().MoveNumber != 1 {
		t.Fatalf("move 2: %+v, position to play %v after %d moves", m, s.Position().ToPlay, s.Position().MoveNumber)
	}
	steps := []struct {
		at       string
		verdict  Verdict
		narrowed bool
		region   Region
	}{
		{"E5", Ignored, false, Whole(9)},
		{"G7", Wrong, true, Region{0, 4, 5, 9}},
		{"G7", Ignored, false, Region{0, 4, 5, 9}},
		{"A9", Wrong, true, Region{0, 4, 3, 7}},
		{"J1", Wrong, false, Region{0, 4, 3, 7}},
	}
	for _, st := range steps {
		o := s.Guess(pt(t, st.at))
		if o.Verdict != st.verdict || o.Narrowed != st.narrowed || o.Region != st.region {
			t.Fatalf("%s at move 2: %+v, want %v narrowed %v in %+v", st.at, o, st.verdict, st.narrowed, st.region)
		}
	}
	if !s.Region().Contains(pt(t, "C3")) || s.Hints() != 2 || len(s.Wrong()) != 3 {
		t.Fatalf("before the right guess: region %+v, %d hints, wrong %v", s.Region(), s.Hints(), s.Wrong())
	}
	if o := s.Guess(pt(t, "C3")); o.Verdict != Right || o.Result.FirstTry() || o.Result.Wrong != 3 || o.Result.Hints != 2 {
		t.Fatalf("C3 at move 2: %+v", o.Result)
	}
	// Move 3: peeked at the predictors, then revealed.
	s.Peek()
	if r := s.Reveal(); r == nil || r.Right || !r.Peeked || r.Move.Point != pt(t, "G7") {
		t.Fatalf("revealing move 3: %+v", r)
	}
	// Move 5 (after the pass): one wrong guess, then right.
	if m, _ := s.Current(); m.Number != 5 || s.Position().Last != board.Pass {
		t.Fatalf("after move 3 comes move %d, last %v", m.Number, s.Position().Last)
	}
	s.Guess(pt(t, "A1"))
	s.Guess(pt(t, "G3"))
	// Move 7, D6: revealed at once; then the session is done and ignores guesses.
	if m, _ := s.Current(); m.Number != 7 || s.Position().Board.At(pt(t, "A9")) != board.Black {
		t.Fatalf("move 7: %+v, the setup stone not on the board", m)
	}
	s.Reveal()
	if !s.Done() || s.Position() != nil || s.Reveal() != nil || s.Guess(pt(t, "D6")).Verdict != Ignored || s.Stopped() != "" {
		t.Fatal("the session goes on past the end of the line")
	}

	// Predictions arrive for three of the moves: mm had moves 1 and 5, cfg move 1 only; a failed
	// predictor counts nowhere.
	moves := s.Moves()
	s.SetPredictions(0, []PredictorGuess{{Name: "mm", Rank: 1}, {Name: "cfg", Rank: 1}, {Name: "broken", Err: "no model"}})
	s.SetPredictions(1, []PredictorGuess{{Name: "mm", Rank: 2}, {Name: "cfg", Rank: 5}})
	s.SetPredictions(3, []PredictorGuess{{Name: "mm", Rank: 1}, {Name: "cfg", Rank: 3}})
	tally := s.Tally()
	want := Tally{Moves: 5, FirstTry: 1, Right: 3, Revealed: 2, Wrong: 4, Hints: 3, Peeked: 1,
		Predictors: []PredictorTally{{"mm", 3, 2}, {"cfg", 3, 1}}}
	if !reflect.DeepEqual(tally, want) {
		t.Errorf("tally %+v, want %+v", tally, want)
	}
	if len(moves) != 5 || s.Results()[1].Move.Point != pt(t, "C3") {
		t.Errorf("results %+v", s.Results())
	}
	if saved(t, g) != before {
		t.Error("guessing changed the record")
	}
}

func TestSessionGuessesOneColourFromTheMiddleOfASideLine(t *testing.T) {
	g := load(t, quiz)
	side := []*game.Node{g.Root, g.Root.Children[0], g.Root.Children[0].Children[1]}
	s, err := New(g, side, side[1], White)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := s.Current(); !ok || len(s.Moves()) != 1 || m.Point != pt(t, "G3") || m.Parent != side[1] {
		t.Fatalf("the side line's White move: %+v", s.Moves())
	}
	s, _ = New(g, g.MainLine(), g.MainLine()[1], Black)
	var got []int
	for _, m := range s.Moves() {
		got = append(got, m.Number)
	}
	if !slices.Equal(got, []int{3, 5, 7}) {
		t.Errorf("Black's moves after move 1: %v", got)
	}
	if _, err := New(g, side, g.MainLine()[3], Both); err == nil {
		t.Error("a start off the line accepted")
	}
}

func TestSessionStopsAtAnIllegalMove(t *testing.T) {
	// Move 3 plays on move 1's stone.
	g := load(t, "(;SZ[9];B[ee];W[cc];B[ee];W[gg])")
	s, err := New(g, g.MainLine(), g.Root, Both)
	if err != nil {
		t.Fatal(err)
	}
	s.Reveal()
	s.Reveal()
	if !s.Done() || len(s.Moves()) != 2 || s.Stopped() == "" {
		t.Errorf("after two moves: done %v, %d moves, stopped %q", s.Done(), len(s.Moves()), s.Stopped())
	}
}
