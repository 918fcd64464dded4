package gtp_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
)

// The reference games in testdata/referee are GNU Go 3.8 self-play games on 9x9 (Chinese rules, komi
// 7, three random opening moves each for variety, then GNU Go at level 1 for both sides to two passes),
// each with GNU Go's final_score as RE and its final_status_list dead and seki in the root comment.
// They are made by
//
//	AJI_GTP_REGEN=1 go test -run TestRegenerateReferee ./analysis/gtp
//
// which plays 243 games and keeps every one with a seki (3) and the first 30 others.
const refereeGames = 40

func TestRegenerateReferee(t *testing.T) {
	if os.Getenv("AJI_GTP_REGEN") == "" {
		t.Skip("set AJI_GTP_REGEN=1 to regenerate testdata/referee with GNU Go")
	}
	prog, err := gtp.LookPath("gnugo")
	if err != nil {
		t.Skipf("gnugo not installed: %v", err)
	}
	ctx := t.Context()
	e, err := gtp.Start(ctx, prog+" --mode gtp --chinese-rules --level 1")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	dir := filepath.Join("testdata", "referee")
	old, _ := filepath.Glob(filepath.Join(dir, "*.sgf"))
	for _, f := range old {
		os.Remove(f)
	}
	rng := rand.New(rand.NewPCG(2026, 7))
	kept, plain := 0, 0
	for i := 0; kept < refereeGames && i < 243; i++ {
		g, seki, err := selfPlay(ctx, e, rng)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if !seki && plain >= refereeGames*3/4 {
			continue
		}
		if !seki {
			plain++
		}
		path := filepath.Join(dir, fmt.Sprintf("game%03d.sgf", i))
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Save(f); err != nil {
			t.Fatal(err)
		}
		f.Close()
		kept++
	}
	t.Logf("kept %d games, %d with a seki", kept, kept-plain)
}

// selfPlay plays one game and reports whether GNU Go found a seki at its end.
func selfPlay(ctx context.Context, e *gtp.Engine, rng *rand.Rand) (*game.Game, bool, error) {
	const size = 9
	if err := e.BoardSize(ctx, size); err != nil {
		return nil, false, err
	}
	if err := e.Komi(ctx, 7); err != nil {
		return nil, false, err
	}
	g, _ := game.New(size)
	g.Info.Komi = 7
	g.Info.Rules = "Chinese"
	g.Info.Black, g.Info.White = "GNU Go 3.8 level 1", "GNU Go 3.8 level 1"
	b, _ := board.New(size)
	node := g.Root
	c := board.Black
	passes := 0
	for n := 0; passes < 2 && n < 3*size*size; n++ {
		var p board.Point
		var err error
		if n < 3 {
			pts := b.Points()
			for p = pts[rng.IntN(len(pts))]; !b.Legal(p, c); p = pts[rng.IntN(len(pts))] {
			}
			err = e.Play(ctx, c, p)
		} else {
			p, err = e.GenMove(ctx, c)
		}
		if errors.Is(err, gtp.ErrResigned) {
			return selfPlay(ctx, e, rng) // a resigned game has no count: play another
		}
		if err != nil {
			return nil, false, err
		}
		if p == board.Pass {
			passes++
		} else {
			passes = 0
			if err := b.Play(p, c); err != nil {
				return nil, false, err
			}
		}
		node = node.AddChild(&game.Node{Move: &game.Move{Color: c, Point: p}})
		c = c.Opponent()
	}
	score, err := e.FinalScore(ctx)
	if err != nil {
		return nil, false, err
	}
	var lists []string
	seki := false
	for _, status := range []string{"dead", "seki"} {
		pts, err := e.FinalStatusList(ctx, status)
		if err != nil {
			return nil, false, err
		}
		seki = seki || status == "seki" && len(pts) > 0
		lists = append(lists, status+":"+vertexList(pts, size))
	}
	g.Info.Result = score
	g.Root.Comment = strings.Join(lists, "\n")
	return g, seki, nil
}

// sameResult compares results as numbers: GNU Go writes "W+3.0" where Aji writes "W+3".
func sameResult(a, b string) bool {
	margin := func(r string) float64 {
		var v float64
		fmt.Sscanf(r[min(2, len(r)):], "%g", &v)
		if strings.HasPrefix(r, "W") {
			v = -v
		}
		return v
	}
	return margin(a) == margin(b)
}

func vertexList(pts []board.Point, size int) string {
	var s []string
	for _, p := range pts {
		s = append(s, p.GTP(size))
	}
	slices.Sort(s)
	return strings.Join(s, " ")
}

// TestScorerAgainstGNUGo compares the Scorer with GNU Go's own reading of the reference games: the
// score and the dead and seki stones. GNU Go is not needed: its answers are stored with the games.
func TestScorerAgainstGNUGo(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "referee", "*.sgf"))
	if len(files) == 0 {
		t.Fatal("no reference games in testdata/referee")
	}
	var sameScore, sameDead, sameSeki, sekiGames int
	start := time.Now()
	for _, f := range files {
		gs, err := game.LoadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g := gs[0]
		pos, err := g.PositionAfter(-1)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{}
		for _, l := range strings.Split(g.Root.Comment, "\n") {
			k, v, _ := strings.Cut(l, ":")
			want[k] = v
		}
		s := gtp.Scorer{Seed: 1}
		est, err := s.Estimate(t.Context(), pos)
		if err != nil {
			t.Fatal(err)
		}
		dead, seki := vertexList(est.Dead, 9), vertexList(est.Seki, 9)
		ok := true
		if sameResult(est.Result(), g.Info.Result) {
			sameScore++
		} else {
			ok = false
		}
		if dead == want["dead"] {
			sameDead++
		} else {
			ok = false
		}
		if want["seki"] != "" {
			sekiGames++
		}
		if seki == want["seki"] {
			sameSeki++
		} else {
			ok = false
		}
		if !ok {
			t.Logf("%s: Aji %s dead [%s] seki [%s]; GNU Go %s dead [%s] seki [%s]\n%s", filepath.Base(f),
				est.Result(), dead, seki, g.Info.Result, want["dead"], want["seki"], pos.Board.String())
		}
	}
	n := len(files)
	t.Logf("%d games (%d with a seki) in %v: same score %d, same dead stones %d, same seki stones %d",
		n, sekiGames, time.Since(start).Round(time.Millisecond), sameScore, sameDead, sameSeki)
	// Thresholds a little under what the Scorer measured when they were set (see the log above).
	if sameScore < n*8/10 || sameDead < n*8/10 {
		t.Errorf("the Scorer agrees with GNU Go on too few games")
	}
}
