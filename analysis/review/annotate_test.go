package review

import (
	"bytes"
	"context"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/predict"
	"aji/analysis/territory"
)

// userGame is a 9x9 professional game with a user's work on it: a comment on the root and on move 3
// (with a trailing line break), a label and a triangle on move 5, a user's own BM on move 7 and HO on
// move 8.
const userGame = `(;GM[1]FF[4]SZ[9]KM[6.5]C[Game notes]
;B[ed];W[dg];B[ef]C[user's note: why not D4?
]
;W[ec];B[fc]LB[aa:A]TR[ba]
;W[dd];B[dc]BM[1];W[eb]HO[2];B[fd];W[cd]
;B[eg];W[eh];B[fh];W[dh];B[df];W[cf];B[cg];W[bg];B[ch];W[bh]
;B[db])`

// judgy makes every move notable, so that every kind of annotation is written.
var judgy = AnnotateOptions{Labels: 3, SurpriseRank: 1, SurpriseProbability: 1, Swing: 1e-9}

func reviewGame(t *testing.T, g *game.Game) *Result {
	t.Helper()
	res, err := New(0).Review(context.Background(), g, g.MainLine(),
		Options{Predictors: []string{"mm", "uniform"}, Territory: "mc", Playouts: 64}, nil) // mc: cheap values
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func save(t *testing.T, g *game.Game) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := g.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// snapshot is what a user sees of a node: its move, comment, markup and properties.
type snapshot struct {
	Move    *game.Move
	Comment string
	Markup  []game.Mark
	Props   []game.Property
}

func snapshots(g *game.Game) []snapshot {
	var out []snapshot
	for _, n := range g.MainLine() {
		out = append(out, snapshot{n.Move, n.Comment, slices.Clone(n.Markup), slices.Clone(n.Props)})
	}
	return out
}

// TestAnnotateKeepsTheUsersWork: annotation adds Aji's lines, labels and flags, keeps every comment,
// mark and judgement of the user's, reads back through the loader as written, and a second
// annotation (of the saved file, as a user would redo it) replaces the first instead of piling up.
// Clearing gives back the user's record.
func TestAnnotateKeepsTheUsersWork(t *testing.T) {
	g := parse(t, userGame)
	original := snapshots(g)
	// The user also marked move 9's node at the first predictor's favourite there: Aji must not label it.
	res := reviewGame(t, g)
	m9 := &res.Moves[8]
	fav := m9.Predictions[0].Top[0].Point
	m9.Node.Markup = append(m9.Node.Markup, game.Mark{Kind: game.Circle, Point: fav})
	original[9].Markup = slices.Clone(m9.Node.Markup)

	Annotate(res, judgy)
	line := g.MainLine()
	if c := line[3].Comment; !strings.HasPrefix(c, "user's note: why not D4?\n\n\n"+Marker+"mm: rank ") {
		t.Errorf("move 3's comment:\n%s", c)
	}
	if c := line[0].Comment; !strings.HasPrefix(c, "Game notes\n\n"+Marker+"review: mm: first choice ") {
		t.Errorf("root comment:\n%s", c)
	}
	surprises, swings := 0, 0
	for i, m := range res.Moves {
		n := m.Node
		if !strings.Contains(n.Comment, Marker+Line(&m, 9)) {
			t.Errorf("move %d: comment %q lacks its line", m.Number, n.Comment)
		}
		labels := 0
		for _, mk := range n.Markup {
			if mk.Kind == game.Label && mk.Text != "A" {
				labels++
			}
		}
		wantLabels := 3
		if i == 8 {
			wantLabels = 2 // not on the user's circle
		}
		if labels != wantLabels {
			t.Errorf("move %d: %d labels of Aji's, want %d: %v", m.Number, labels, wantLabels, n.Markup)
		}
		var flags []string
		for _, p := range n.Props {
			if p.ID == "BM" || p.ID == "TE" {
				flags = append(flags, p.ID+p.Values[0])
			}
		}
		j := res.Judge(i, judgy)
		var wantFlags []string
		switch {
		case i == 6:
			wantFlags = []string{"BM1"} // the user's
		case j.Bad && j.Relative <= -2*judgy.Swing:
			wantFlags, swings = []string{"BM2"}, swings+1
		case j.Good:
			wantFlags, swings = []string{"TE1"}, swings+1
		}
		if !reflect.DeepEqual(flags, wantFlags) {
			t.Errorf("move %d: move annotations %v, want %v (%+v)", m.Number, flags, wantFlags, j)
		}
		var wantHO []string
		switch {
		case i == 7:
			wantHO = []string{"2"} // the user's
		case j.Surprising:
			wantHO, surprises = []string{"1"}, surprises+1
		}
		if ho := n.Property("HO"); !reflect.DeepEqual(ho, wantHO) {
			t.Errorf("move %d: HO %v, want %v", m.Number, ho, wantHO)
		}
	}
	if surprises == 0 || swings < 10 {
		t.Errorf("%d surprises and %d swings: HO, BM and TE untested", surprises, swings)
	}
	// The user's label and triangle on move 5 are there, once.
	if mk := line[5].Markup; !slices.Contains(mk, game.Mark{Kind: game.Label, Point: mustPoint(t, "aa"), Text: "A"}) ||
		!slices.Contains(mk, game.Mark{Kind: game.Triangle, Point: mustPoint(t, "ba")}) {
		t.Errorf("move 5's markup lost the user's: %v", mk)
	}

	first := save(t, g)
	loaded := parse(t, string(first))
	if got, want := snapshots(loaded), snapshots(g); !reflect.DeepEqual(got, want) {
		t.Fatalf("the annotated record reads back differently:\n got %+v\nwant %+v", got, want)
	}
	// Annotating the saved file again (a new review of the same game) writes the same file.
	Annotate(reviewGame(t, loaded), judgy)
	if second := save(t, loaded); !bytes.Equal(second, first) {
		t.Errorf("a second annotation changed the file:\n%s\n---\n%s", first, second)
	}
	for _, n := range loaded.MainLine() {
		Clear(n)
	}
	if got := snapshots(loaded); !reflect.DeepEqual(got, original) {
		t.Errorf("clearing the annotation does not give back the user's record:\n got %+v\nwant %+v", got, original)
	}
}

func mustPoint(t *testing.T, s string) board.Point {
	t.Helper()
	p, err := game.ParseSGFPoint(s, 9)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestClearKeepsAChangedLabel: a label of Aji's that the user edited is the user's.
func TestClearKeepsAChangedLabel(t *testing.T) {
	g := parse(t, "(;SZ[9];B[ee]LB[cc:1][gg:2]C[mine\n\n[Aji\\] mm: rank 1, 30%]"+MarksProperty+"[LB:cc:1][LB:gg:2][BM:1]BM[2])")
	n := g.Root.Children[0]
	n.Markup[1].Text = "X" // the user renamed Aji's label 2 on gg
	Clear(n)
	want := []game.Mark{{Kind: game.Label, Point: mustPoint(t, "gg"), Text: "X"}}
	if !reflect.DeepEqual(n.Markup, want) || n.Comment != "mine" {
		t.Errorf("after Clear: markup %v, comment %q", n.Markup, n.Comment)
	}
	// BM[2] is not the BM[1] Aji wrote: the user changed it, and it stays.
	if !reflect.DeepEqual(n.Props, []game.Property{{ID: "BM", Values: []string{"2"}}}) {
		t.Errorf("after Clear: props %v", n.Props)
	}
}

func TestStripComment(t *testing.T) {
	for _, c := range []struct{ user, aji string }{
		{"", Marker + "a"},
		{"note", Marker + "a\n" + Marker + "b"},
		{"note\n", Marker + "a"},
		{"two\n\nparagraphs\n\n", Marker + "a"},
		{"[Aji]without the space is the user's", Marker + "a"},
	} {
		n := &game.Node{Comment: c.user}
		appendLines(n, strings.Split(strings.TrimPrefix(strings.ReplaceAll(c.aji, Marker, ""), ""), "\n"))
		if got := stripComment(n.Comment); got != c.user {
			t.Errorf("strip(%q) = %q, want %q", n.Comment, got, c.user)
		}
	}
	// Text the user added after Aji's lines in another tool survives too.
	if got := stripComment("note\n\n" + Marker + "a\nlater"); got != "note\nlater" {
		t.Errorf("got %q", got)
	}
}

func TestJudge(t *testing.T) {
	score := func(p float64) *territory.ScoreEstimate { return &territory.ScoreEstimate{PBlackWins: p} }
	pred := func(rank int, p float64) []Prediction {
		return []Prediction{{Predictor: "mm", Rank: rank, Probability: p, Legal: true}}
	}
	// Gains of +0.05 (Black, a usual move), −0.35 (White), +0.25 (Black), +0.1 (Black), NaN, −0.3: the
	// median of the five gains, the tempo, is +0.05.
	r := &Result{Moves: []Move{
		{Color: board.Black, Predictions: pred(2, 0.3), Before: Value{Score: score(0.45)}, After: Value{Score: score(0.5)}},
		{Color: board.White, Predictions: pred(3, 0.2), Before: Value{Score: score(0.4)}, After: Value{Score: score(0.75)}},
		{Color: board.Black, Predictions: pred(1, 0.5), Before: Value{Score: score(0.4)}, After: Value{Score: score(0.65)}},
		{Color: board.Black, Predictions: pred(40, 0.002), Before: Value{Score: score(0.45)}, After: Value{Score: score(0.55)}},
		{Color: board.Black, Predictions: pred(40, 0.02)},
		{Color: board.Black, Before: Value{Search: &SearchValue{Visits: 10, PBlackWins: 0.5}}, After: Value{Search: &SearchValue{Visits: 10, PBlackWins: 0.2}}},
	}}
	r.Tempo = tempo(r.Moves)
	if math.Abs(r.Tempo-0.05) > 1e-12 {
		t.Fatalf("tempo %v, want 0.05", r.Tempo)
	}
	for i, want := range []struct {
		surprising bool
		gain       float64
		bad, good  bool
	}{
		{false, 0.05, false, false},
		{false, -0.35, true, false},       // White's blunder: 0.4 beyond the tempo
		{false, 0.25, false, true},        // 0.2 beyond it
		{true, 0.1, false, false},         // a quiet surprise: rank 40 at 0.2%
		{false, math.NaN(), false, false}, // rank 40 at 2% is not surprising, and no values
		{false, -0.3, true, false},        // the search's value without a territory
	} {
		j := r.Judge(i, AnnotateOptions{})
		sameGain := math.IsNaN(want.gain) && math.IsNaN(j.Gain) && math.IsNaN(j.Relative) ||
			math.Abs(j.Gain-want.gain) < 1e-12 && math.Abs(j.Relative-(want.gain-0.05)) < 1e-12
		if j.Surprising != want.surprising || !sameGain || j.Bad != want.bad || j.Good != want.good {
			t.Errorf("move %d: %+v, want %+v", i, j, want)
		}
	}
	if j := (&Result{Moves: r.Moves[4:5], Tempo: tempo(r.Moves[4:5])}).Judge(0, AnnotateOptions{}); !math.IsNaN(j.Relative) || j.Bad || j.Good {
		t.Errorf("no values: %+v", j)
	}
}

func TestLineAndScores(t *testing.T) {
	m := Move{Color: board.Black, Point: mustPoint(t, "cc"),
		Predictions: []Prediction{{Predictor: "mm", Rank: 12, Probability: 0.014, Legal: true,
			Top: []predict.Candidate{{Point: mustPoint(t, "gc"), Probability: 0.38}}}},
		Before: Value{Score: &territory.ScoreEstimate{Mean: 3.14, PBlackWins: 0.55}},
		After:  Value{Score: &territory.ScoreEstimate{Mean: -0.44, PBlackWins: 0.48}},
	}
	if got, want := Line(&m, 9), "mm: rank 12, 1.4%; top: G7 38%; score B+3.1 → W+0.4, Black 55% → 48%"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	for s, want := range map[float64]string{0: "0", 0.04: "0", 7.5: "B+7.5", -12.25: "W+12.3"} {
		if got := FormatScore(s); got != want {
			t.Errorf("FormatScore(%v) = %q, want %q", s, got, want)
		}
	}
	for p, want := range map[float64]string{0.38: "38%", 0.014: "1.4%", 0.0005: "0.05%", 0.00001: "0.001%"} {
		if got := percent(p); got != want {
			t.Errorf("percent(%v) = %q, want %q", p, got, want)
		}
	}
}
