package pattern

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
)

var validationPath = filepath.Join("..", "..", "..", "shared", "data", "games-validation.tar.xz")

func needValidation(tb testing.TB) {
	tb.Helper()
	if _, err := os.Stat(validationPath); err != nil {
		tb.Skipf("validation archive not available (%v); it lives in ../shared/data beside the repository", err)
	}
}

// realGame is one game as the positions before its moves.
type realGame struct {
	boards []board.Board
	moves  []game.Move
}

var (
	realOnce  sync.Once
	realGames []realGame
	realErr   error
)

// loadRealGames returns the first 20 games of the validation split, or skips without the data.
func loadRealGames(tb testing.TB) []realGame {
	tb.Helper()
	needValidation(tb)
	realOnce.Do(func() {
		done := errors.New("done")
		_, err := dataset.Walk(context.Background(), validationPath, dataset.Filter{Size: 19}, func(rec dataset.Record) error {
			for _, g := range rec.Games {
				var rg realGame
				err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
					if next.Point != board.Pass {
						rg.boards = append(rg.boards, pos.Board)
						rg.moves = append(rg.moves, next)
					}
					return nil
				})
				if err != nil || len(rg.moves) < 50 {
					continue
				}
				if realGames = append(realGames, rg); len(realGames) == 20 {
					return done
				}
			}
			return nil
		})
		if !errors.Is(err, done) {
			realErr = err
		}
	})
	if realErr != nil {
		tb.Fatal(realErr)
	}
	return realGames
}

// benchMoves runs fn on consecutive positions of real games, one position per iteration, and reports
// the time per move. start is called untimed at the first position of each game.
func benchMoves(b *testing.B, start func(*board.Board), fn func(*board.Board, game.Move)) {
	games := loadRealGames(b)
	g, i := 0, 0
	start(&games[0].boards[0])
	b.ResetTimer()
	for range b.N {
		if i++; i == len(games[g].boards) {
			b.StopTimer()
			g, i = (g+1)%len(games), 0
			start(&games[g].boards[0])
			b.StartTimer()
		}
		fn(&games[g].boards[i], games[g].moves[i])
	}
}

var sink uint64

// BenchmarkTrackerSync: the incremental update per move (usually one stone added, sometimes captures).
func BenchmarkTrackerSync(b *testing.B) {
	tr := new(Tracker)
	benchMoves(b, tr.Sync, func(bd *board.Board, _ game.Move) { tr.Sync(bd) })
}

// BenchmarkTrackerRebuild: recomputing every point's 8 variants of every size, both players.
func BenchmarkTrackerRebuild(b *testing.B) {
	tr := new(Tracker)
	benchMoves(b, tr.Sync, func(bd *board.Board, _ game.Move) {
		tr.g.load(bd)
		tr.Rebuild()
	})
}

// BenchmarkTrackerAllPoints: what a predictor pays per position with a Tracker: the update, then the
// keys of every empty point for the player to move.
func BenchmarkTrackerAllPoints(b *testing.B) {
	tr := new(Tracker)
	benchMoves(b, tr.Sync, func(bd *board.Board, m game.Move) {
		tr.Sync(bd)
		for _, p := range bd.EmptyPoints() {
			k := tr.Keys(p, m.Color)
			sink ^= k[NumSizes-1]
		}
	})
}

// BenchmarkScratchAllPoints: the same from scratch with a Scanner.
func BenchmarkScratchAllPoints(b *testing.B) {
	var s Scanner
	benchMoves(b, s.Sync, func(bd *board.Board, m game.Move) {
		s.Sync(bd)
		for _, p := range bd.EmptyPoints() {
			k := s.Keys(p, m.Color)
			sink ^= k[NumSizes-1]
		}
	})
}

// BenchmarkScratchMovePoint: what harvesting pays per move: the keys at the move played, from scratch.
func BenchmarkScratchMovePoint(b *testing.B) {
	var s Scanner
	benchMoves(b, s.Sync, func(bd *board.Board, m game.Move) {
		s.Sync(bd)
		k := s.Keys(m.Point, m.Color)
		sink ^= k[NumSizes-1]
	})
}

// BenchmarkTrackerMovePoint: the same with a Tracker.
func BenchmarkTrackerMovePoint(b *testing.B) {
	tr := new(Tracker)
	benchMoves(b, tr.Sync, func(bd *board.Board, m game.Move) {
		tr.Sync(bd)
		k := tr.Keys(m.Point, m.Color)
		sink ^= k[NumSizes-1]
	})
}

// BenchmarkCode3AllPoints: the 3x3 codes and classes of every empty point.
func BenchmarkCode3AllPoints(b *testing.B) {
	Class3(0) // build the tables outside the timing
	benchMoves(b, func(*board.Board) {}, func(bd *board.Board, m game.Move) {
		for _, p := range bd.EmptyPoints() {
			sink ^= uint64(Class3(Code3At(bd, p, m.Color)))
		}
	})
}

// BenchmarkHarvestValidation harvests the validation split (1,940 games) at N = 3 and reports games per
// second over both passes, with the patterns kept by size in the log.
func BenchmarkHarvestValidation(b *testing.B) {
	needValidation(b)
	for b.Loop() {
		start := time.Now()
		d, st, err := Harvest(context.Background(), validationPath, Options{Threshold: 3, FilterBytes: 1 << 26})
		if err != nil {
			b.Fatal(err)
		}
		secs := time.Since(start).Seconds()
		b.ReportMetric(float64(st.Games)/secs, "games/s")
		b.ReportMetric(float64(d.Len()), "patterns")
		b.Logf("%d games, %d moves in %.1fs (pass 1 %v, pass 2 %v); filter load %.3f; %d candidates, %d kept by size %v",
			st.Games, st.Moves, secs, st.Pass1.Round(time.Millisecond), st.Pass2.Round(time.Millisecond), st.FilterLoad,
			st.Candidates, d.Len(), st.Kept)
	}
}

// TestHarvestReport harvests a collection named by the environment, for the figures in the package
// report: AJI_HARVEST=path [AJI_HARVEST_MAX=files] [AJI_HARVEST_N=3] [AJI_HARVEST_OUT=file]
// [AJI_HARVEST_FILTER_MB=256]. It is skipped otherwise.
func TestHarvestReport(t *testing.T) {
	path := os.Getenv("AJI_HARVEST")
	if path == "" {
		t.Skip("set AJI_HARVEST=collection to run a harvest and report its figures")
	}
	atoi := func(name string, def int) int {
		if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
			return v
		}
		return def
	}
	opt := Options{
		Threshold:   atoi("AJI_HARVEST_N", 3),
		MaxFiles:    atoi("AJI_HARVEST_MAX", 0),
		FilterBytes: atoi("AJI_HARVEST_FILTER_MB", 256) << 20,
		Filter:      dataset.Filter{Size: 19},
	}
	last := time.Now()
	var mu sync.Mutex
	opt.Progress = func(pass, games int) {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(last) > 10*time.Second {
			last = time.Now()
			t.Logf("pass %d: %d games", pass, games)
		}
	}
	start := time.Now()
	d, st, err := Harvest(context.Background(), path, opt)
	if err != nil {
		t.Fatal(err)
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("%s: %d files, %d games, %d moves, %d errors in %v (pass 1 %v, pass 2 %v)", path, st.Files, st.Games,
		st.Moves, st.Errors, time.Since(start).Round(time.Second), st.Pass1.Round(time.Second), st.Pass2.Round(time.Second))
	t.Logf("filter %d MB, load %.3f; %d candidates, %d kept at N=%d; heap high-water %d MB (Sys)",
		opt.FilterBytes>>20, st.FilterLoad, st.Candidates, d.Len(), opt.Threshold, ms.Sys>>20)
	for s, n := range st.Kept {
		t.Logf("size %2d: %8d patterns", MinSize+s, n)
	}
	if out := os.Getenv("AJI_HARVEST_OUT"); out != "" {
		if err := d.Save(out); err != nil {
			t.Fatal(err)
		}
		fi, _ := os.Stat(out)
		t.Logf("saved %s (%d bytes)", out, fi.Size())
	}
}

// BenchmarkReadValidation is the floor under BenchmarkHarvestValidation: reading, parsing and replaying
// the validation games with nothing else to do.
func BenchmarkReadValidation(b *testing.B) {
	needValidation(b)
	for b.Loop() {
		st, err := dataset.Parallel(context.Background(), validationPath, dataset.Filter{}, 0, func(_ int, rec dataset.Record) error {
			for _, g := range rec.Games {
				_ = g.WalkMainLine(func(*game.Position, game.Move) error { return nil })
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Games)/b.Elapsed().Seconds(), "games/s")
	}
}

// midGame returns a 19x19 middle-game position and the player to move: move 120 of a validation game
// when the archive is there, else 120 random moves.
func midGame(b *testing.B) (*board.Board, board.Color) {
	if _, err := os.Stat(validationPath); err == nil {
		g := loadRealGames(b)[0]
		i := min(120, len(g.boards)-1)
		return &g.boards[i], g.moves[i].Color
	}
	bd, _ := board.New(19)
	return bd, randomPlay(bd, rand.NewPCG(1, 2), board.Black, 120, nil)
}

// BenchmarkSternKeysAllPoints: the Stern keys (T1..T14, features included) of every legal point of a
// middle-game position after Sync, what a predictor ranking the moves pays besides the update.
func BenchmarkSternKeysAllPoints(b *testing.B) {
	bd, c := midGame(b)
	var legal []board.Point
	for _, p := range bd.EmptyPoints() {
		if bd.Legal(p, c) {
			legal = append(legal, p)
		}
	}
	m := new(SternMatcher)
	m.Sync(bd)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range legal {
			k := m.Keys(bd, p, c)
			sink ^= k[NumStern-1]
		}
	}
	b.ReportMetric(float64(len(legal)), "points")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(legal)), "ns/point")
}

// BenchmarkSternFeaturesAllPoints: the local features alone, at the same points.
func BenchmarkSternFeaturesAllPoints(b *testing.B) {
	bd, c := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range bd.EmptyPoints() {
			sink ^= uint64(SternFeatures(bd, p, c))
		}
	}
}

// BenchmarkSternSync: the incremental update per move of real games (Tracker.Sync and T13's and T14's
// part).
func BenchmarkSternSync(b *testing.B) {
	m := new(SternMatcher)
	b.ReportAllocs()
	benchMoves(b, m.Sync, func(bd *board.Board, _ game.Move) { m.Sync(bd) })
}

// BenchmarkSternAllPoints: the update and the keys of every empty point per move of real games.
func BenchmarkSternAllPoints(b *testing.B) {
	m := new(SternMatcher)
	b.ReportAllocs()
	benchMoves(b, m.Sync, func(bd *board.Board, mv game.Move) {
		m.Sync(bd)
		for _, p := range bd.EmptyPoints() {
			k := m.Keys(bd, p, mv.Color)
			sink ^= k[NumStern-1]
		}
	})
}

// BenchmarkSternKeysAtMovePoint: the keys at the move played from scratch (SternKeysAt).
func BenchmarkSternKeysAtMovePoint(b *testing.B) {
	benchMoves(b, func(*board.Board) {}, func(bd *board.Board, m game.Move) {
		k := SternKeysAt(bd, m.Point, m.Color)
		sink ^= k[NumStern-1]
	})
}
