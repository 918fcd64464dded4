package review

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"aji/analysis/board"
	"aji/analysis/eval"
	"aji/analysis/game"
	"aji/analysis/predict"
	_ "aji/analysis/predict/cfgbt"
	_ "aji/analysis/predict/fbt" // the search's default prior
	_ "aji/analysis/predict/mm"
	"aji/assets"
)

// sample parses an embedded sample game.
func sample(t testing.TB, name string) *game.Game {
	t.Helper()
	data, err := assets.Game(name)
	if err != nil {
		t.Fatal(err)
	}
	return parse(t, string(data))
}

func parse(t testing.TB, sgf string) *game.Game {
	t.Helper()
	gs, err := game.Parse([]byte(sgf))
	if err != nil {
		t.Fatal(err)
	}
	return gs[0]
}

// agonWithPasses is the first 30 moves of a professional game with two passes after move 10, written
// out so that `aji eval` can read the same record from a file.
func agonWithPasses(t testing.TB) string {
	t.Helper()
	g := sample(t, "Agon-01-8.sgf")
	var sb strings.Builder
	sb.WriteString("(;GM[1]FF[4]SZ[19]KM[5.5]")
	k := 0
	for _, n := range g.MainLine() {
		if n.Move == nil {
			continue
		}
		if k == 10 {
			sb.WriteString(";B[];W[]")
		}
		sb.WriteString(";" + n.Move.Color.String() + "[" + game.SGFPoint(n.Move.Point) + "]")
		if k++; k == 30 {
			break
		}
	}
	sb.WriteString(")")
	return sb.String()
}

// TestReviewMatchesEval: the review of a short game with two passes gives every move the probability
// and rank that `aji eval`'s scoring gives it — a predictor called on the same position, ranked by
// predict.Distribution.Rank — and its summary equals eval.Run's on the same file.
func TestReviewMatchesEval(t *testing.T) {
	text := agonWithPasses(t)
	g := parse(t, text)
	names := []string{"mm", "cfg", "uniform"}
	res, err := New(0).Review(context.Background(), g, g.MainLine(), Options{Predictors: names}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Moves) != 32 {
		t.Fatalf("%d moves reviewed, want 32", len(res.Moves))
	}
	preds := make([]predict.Predictor, len(names))
	for i, name := range names {
		if preds[i], err = predict.New(name, predict.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	k := 0
	var d predict.Distribution
	err = g.WalkMainLine(func(pos *game.Position, next game.Move) error {
		m := res.Moves[k]
		k++
		if m.Number != pos.MoveNumber+1 || m.Point != next.Point || m.Color != next.Color {
			t.Fatalf("move %d: reviewed %v %v as number %d", pos.MoveNumber+1, m.Color, m.Point, m.Number)
		}
		if next.Point == board.Pass {
			if m.Predictions != nil {
				t.Errorf("move %d is a pass and has predictions", m.Number)
			}
			return nil
		}
		for i, p := range preds {
			p.Predict(pos, &d)
			got := m.Predictions[i]
			rank, prob := d.Rank(pos, next.Point), d.P[next.Point]
			if got.Predictor != names[i] || !got.Legal || got.Rank != rank || got.Probability != prob {
				t.Errorf("move %d, %s: rank %d p %v, eval's scoring gives rank %d p %v", m.Number, names[i], got.Rank, got.Probability, rank, prob)
			}
			if top := d.Top(DefaultTop, nil); !reflect.DeepEqual(got.Top, top) {
				t.Errorf("move %d, %s: top %v, want %v", m.Number, names[i], got.Top, top)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	path := filepath.Join(t.TempDir(), "short.sgf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	results, err := eval.Run(context.Background(), names, path, eval.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range results {
		s := res.Score(i)
		cdf := s.RankCDF()
		if want.Positions != 30 || s.Positions != want.Positions || want.Skipped != 2 ||
			!reflect.DeepEqual(cdf, want.RankCDF) || math.Abs(s.MeanLogEvidence()-want.MeanLogEvidence) > 1e-12 {
			t.Errorf("%s: review scores %d positions, top-1 %v, mean log-evidence %v; eval: %d positions (%d skipped), top-1 %v, %v",
				want.Predictor, s.Positions, cdf[0], s.MeanLogEvidence(), want.Positions, want.Skipped, want.Top1, want.MeanLogEvidence)
		}
	}
}

// TestReviewDeliversProgressivelyAndCaches: each move is delivered once, as the result holds it; the
// territory values chain (a move's after is the next move's before); a second review of the same
// positions is served from the cache, with the same result.
func TestReviewDeliversProgressivelyAndCaches(t *testing.T) {
	g := sample(t, "pro-Minigo-020303.sgf") // 9x9, 21 moves
	r := New(0)
	o := Options{Predictors: []string{"mm"}, Territory: DefaultTerritory, Playouts: 32, SearchPlayouts: 40, Workers: 3}
	var mu sync.Mutex
	delivered := map[int]Move{}
	res, err := r.Review(context.Background(), g, g.MainLine(), o, func(m Move) {
		mu.Lock()
		defer mu.Unlock()
		if _, dup := delivered[m.Index]; dup {
			t.Errorf("move %d delivered twice", m.Number)
		}
		delivered[m.Index] = m
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Moves) != 21 || len(delivered) != 21 {
		t.Fatalf("%d moves, %d delivered; want 21", len(res.Moves), len(delivered))
	}
	for i, m := range res.Moves {
		if !reflect.DeepEqual(delivered[i], m) {
			t.Errorf("move %d delivered as %+v, result has %+v", m.Number, delivered[i], m)
		}
		if m.Before.Score == nil || m.After.Score == nil || m.Before.Search == nil || m.After.Search == nil {
			t.Fatalf("move %d lacks values: %+v", m.Number, m)
		}
		if p := m.After.Score.PBlackWins; !(p >= 0 && p <= 1) || math.IsNaN(m.After.Score.Mean) {
			t.Errorf("move %d: score %v, Black wins %v", m.Number, m.After.Score.Mean, p)
		}
		if i > 0 && res.Moves[i-1].After.Score != m.Before.Score {
			t.Errorf("move %d: the position before it was scored apart from the one after move %d", m.Number, m.Number-1)
		}
		if m.Before.Search.Visits == 0 || m.Before.Search.Playouts != 40 {
			t.Errorf("move %d: search %+v", m.Number, m.Before.Search)
		}
	}
	if res.Timing.Positions != 22 || res.Timing.Cached != 0 || res.Timing.Predict <= 0 || res.Timing.Territory <= 0 || res.Timing.Search <= 0 {
		t.Errorf("first review timing %+v", res.Timing)
	}
	again, err := r.Review(context.Background(), g, g.MainLine(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Timing.Cached != 22 || again.Timing.Predict != 0 || again.Timing.Territory != 0 || again.Timing.Search != 0 {
		t.Errorf("second review timing %+v: not served from the cache", again.Timing)
	}
	if !reflect.DeepEqual(again.Moves, res.Moves) {
		t.Error("the cached review differs from the first")
	}
	// Another Reviewer computes the same values: results do not depend on scheduling or pooling.
	o.Workers = 1
	fresh, err := New(0).Review(context.Background(), g, g.MainLine(), o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fresh.Moves, res.Moves) {
		t.Error("a review on one worker differs from one on three")
	}
}

// TestReviewFollowsAVariation reviews a Cursor's line through a variation: its moves, not the main
// line's.
func TestReviewFollowsAVariation(t *testing.T) {
	g := parse(t, "(;SZ[9];B[ee];W[cc](;B[gg];W[cg])(;B[gc]C[the variation];W[cg];B[eg]))")
	c, err := game.NewCursor(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.GoTo(g.Root.Children[0].Children[0].Children[1]); err != nil {
		t.Fatal(err)
	}
	res, err := New(0).Review(context.Background(), g, c.Line(), Options{Predictors: []string{"uniform"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Moves {
		got = append(got, m.Color.String()+" "+m.Point.GTP(9))
	}
	if want := []string{"B E5", "W C7", "B G7", "W C3", "B E3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("moves %v, want %v", got, want)
	}
	if res.Moves[2].Node.Comment != "the variation" {
		t.Error("the review's move 3 is not the variation's node")
	}
}

// TestReviewSetupAndHandicap: handicap stones set up at the root and a setup node in the middle are on
// the board the predictors see, and White moves first after a handicap.
func TestReviewSetupAndHandicap(t *testing.T) {
	g := parse(t, "(;SZ[9]HA[2]AB[cc][gg];W[ee];B[ce];AW[gc];W[eg])")
	res, err := New(0).Review(context.Background(), g, g.MainLine(), Options{Predictors: []string{"uniform"}, Territory: "boltzmann5"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Moves) != 3 || res.Moves[0].Color != board.White {
		t.Fatalf("moves %+v", res.Moves)
	}
	// Uniform gives each legal move 1/(legal points + pass): 81 − 2 handicap stones + 1 before W E5,
	// and 81 − 5 stones + 1 before W E3 (the setup stone G7 included).
	for i, legal := range map[int]int{0: 80, 2: 77} {
		if p := res.Moves[i].Predictions[0].Probability; math.Abs(p-1/float64(legal)) > 1e-12 {
			t.Errorf("move %d: uniform probability %v, want 1/%d", res.Moves[i].Number, p, legal)
		}
	}
	if res.Moves[1].After.Score == res.Moves[2].Before.Score {
		t.Error("the setup stone between moves 2 and 3 was ignored: one score for two positions")
	}
}

// TestReviewErrors: bad input gives an error, never a panic or a silent partial review.
func TestReviewErrors(t *testing.T) {
	g := sample(t, "pro-Minigo-020303.sgf")
	illegal := parse(t, "(;SZ[9];B[ee];W[ee])")
	other := sample(t, "castle-cg048.sgf")
	r := New(0)
	for _, c := range []struct {
		name string
		g    *game.Game
		line []*game.Node
		o    Options
		want string
	}{
		{"illegal move", illegal, illegal.MainLine(), Options{Predictors: []string{"uniform"}}, "illegal move"},
		{"unknown predictor", g, g.MainLine(), Options{Predictors: []string{"nosuch"}}, "nosuch"},
		{"unknown territory", g, g.MainLine(), Options{Territory: "nosuch"}, "nosuch"},
		{"negative playouts", g, g.MainLine(), Options{SearchPlayouts: -1}, "search playouts"},
		{"unknown search prior", g, g.MainLine(), Options{SearchPlayouts: 10, SearchPrior: "nosuch"}, "search prior"},
		{"empty line", g, nil, Options{}, "root"},
		{"another game's line", g, other.MainLine(), Options{}, "root"},
		{"a broken line", g, []*game.Node{g.Root, g.Root.Children[0].Children[0]}, Options{}, "not a child"},
	} {
		_, err := r.Review(context.Background(), c.g, c.line, c.o, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one mentioning %q", c.name, err, c.want)
		}
	}
	if _, err := r.Review(context.Background(), illegal, illegal.MainLine(), Options{Predictors: []string{"uniform"}}, nil); !errors.Is(err, game.ErrIllegalMove) {
		t.Errorf("illegal move: %v does not wrap game.ErrIllegalMove", err)
	}
	// A record with no moves is reviewed as no moves.
	empty := parse(t, "(;SZ[19]C[nothing played])")
	res, err := r.Review(context.Background(), empty, empty.MainLine(), Options{Territory: DefaultTerritory}, nil)
	if err != nil || len(res.Moves) != 0 {
		t.Errorf("empty record: %v, %v", res, err)
	}
}

// TestReviewCancels: when ctx ends mid-review, Review returns its error soon, delivers nothing after
// returning, and caches nothing partial.
func TestReviewCancels(t *testing.T) {
	g := sample(t, "Agon-01-8.sgf")
	ctx, cancel := context.WithCancel(context.Background())
	var delivered atomic.Int32
	r := New(0)
	o := Options{Territory: DefaultTerritory, Playouts: 64, Workers: 2}
	_, err := r.Review(ctx, g, g.MainLine(), o, func(Move) {
		if delivered.Add(1) == 2 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	after := delivered.Load()
	if after < 2 || after > 10 {
		t.Errorf("%d moves delivered of 261 after cancelling at the second", after)
	}
	// Rerun the first moves: what was finished is cached, and the review completes.
	line := g.MainLine()[:4]
	res, err := r.Review(context.Background(), g, line, o, nil)
	if err != nil || len(res.Moves) != 3 {
		t.Fatalf("review after a cancelled one: %v, %v", res, err)
	}
	if res.Timing.Cached == 0 {
		t.Error("nothing from the cancelled review was cached")
	}
	if delivered.Load() != after {
		t.Error("moves were delivered after Review returned")
	}
}
