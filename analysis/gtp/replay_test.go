package gtp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/game"
	"aji/analysis/gtp"
)

// replayOutcome is what one game of the comparison came to.
type replayOutcome struct {
	name string
	// kind is one of
	//   agree           same stones, captures and side to move
	//   disagree        a difference (detail holds both boards)
	//   gnugo-failed    GNU Go could not load the record
	//   illegal         Aji stops at an illegal move and GNU Go's is_legal
	//                   agrees that the move is illegal there
	//   aji-only-illegal Aji stops at a move GNU Go finds legal
	//   aji-unreadable  Aji could not read or replay the record otherwise
	kind   string
	detail string
}

// TestGNUGoReplayAgreement checks Aji's final position of the main line —
// stones, captures and side to move — against GNU Go's (loadsgf, then
// list_stones and captures) on every 9th game of the validation archive
// (216 games). Set AJI_FULL=1 to compare all 1,940 games; the counts and
// the names of the exceptions are logged either way (go test -v).
//
// GNU Go's loadsgf does not check the moves it replays (it retakes a ko
// without complaint), so a record Aji rejects is instead checked move by
// move: GNU Go loads it up to the move Aji rejects and is asked is_legal.
func TestGNUGoReplayAgreement(t *testing.T) {
	prog, err := gtp.LookPath("gnugo")
	if err != nil {
		t.Skipf("gnugo not installed (%v); install Debian's gnugo package to run this test", err)
	}
	archive := filepath.Join("..", "..", "..", "shared", "data", "games-validation.tar.xz")
	if _, err := os.Stat(archive); err != nil {
		t.Skipf("validation archive not available (%v); it lives in ../shared/data beside the repository", err)
	}
	step := 9
	if os.Getenv("AJI_FULL") != "" {
		step = 1
	}

	// Two engines at most: the machines running the tests are small.
	const workers = 2
	dir := t.TempDir()
	engines := make([]*gtp.Engine, workers)
	start := func(w int) error {
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
		defer cancel()
		e, err := gtp.Start(ctx, strconv.Quote(prog)+" --mode gtp")
		engines[w] = e
		return err
	}
	for w := range engines {
		if err := start(w); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		for _, e := range engines {
			if e != nil {
				e.Close()
			}
		}
	}()

	var (
		mu       sync.Mutex
		outcomes []replayOutcome
	)
	_, err = dataset.Parallel(t.Context(), archive, dataset.Filter{}, workers, func(w int, rec dataset.Record) error {
		if rec.Index%step != 0 {
			return nil
		}
		out, lost := compareWithGNUGo(t.Context(), engines[w], filepath.Join(dir, fmt.Sprintf("w%d.sgf", w)), rec)
		if lost {
			// A crashed or hung engine answers nothing more: replace it.
			engines[w].Close()
			if err := start(w); err != nil {
				return err
			}
		}
		mu.Lock()
		outcomes = append(outcomes, out)
		mu.Unlock()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	slices.SortFunc(outcomes, func(a, b replayOutcome) int { return strings.Compare(a.name, b.name) })
	byKind := map[string][]replayOutcome{}
	for _, o := range outcomes {
		byKind[o.kind] = append(byKind[o.kind], o)
	}
	t.Logf("GNU Go replay agreement on %d games of %s (every %d): agree %d, disagree %d, gnugo-failed %d, "+
		"illegal (both agree) %d, aji-only-illegal %d, aji-unreadable %d",
		len(outcomes), filepath.Base(archive), step, len(byKind["agree"]), len(byKind["disagree"]),
		len(byKind["gnugo-failed"]), len(byKind["illegal"]), len(byKind["aji-only-illegal"]), len(byKind["aji-unreadable"]))
	for _, kind := range []string{"gnugo-failed", "illegal"} {
		for _, o := range byKind[kind] {
			t.Logf("%s: %s: %s", kind, o.name, o.detail)
		}
	}
	if want := (1940 + step - 1) / step; len(outcomes) != want {
		t.Errorf("compared %d games, want %d", len(outcomes), want)
	}
	for _, kind := range []string{"aji-only-illegal", "aji-unreadable"} {
		for _, o := range byKind[kind] {
			t.Errorf("%s: %s: %s", kind, o.name, o.detail)
		}
	}
	for i, o := range byKind["disagree"] {
		if i == 10 {
			t.Errorf("... and %d more disagreements", len(byKind["disagree"])-10)
			break
		}
		t.Errorf("%s: Aji and GNU Go disagree on the final position:\n%s", o.name, o.detail)
	}
}

// compareWithGNUGo loads one record into GNU Go and compares its final
// position with Aji's. lost reports that the engine itself failed (crashed
// or hung), as opposed to GNU Go refusing the file.
func compareWithGNUGo(ctx context.Context, e *gtp.Engine, sgfPath string, rec dataset.Record) (out replayOutcome, lost bool) {
	res := func(kind, detail string) (replayOutcome, bool) {
		return replayOutcome{rec.Name, kind, detail}, false
	}
	if rec.Err != nil {
		return res("aji-unreadable", rec.Err.Error())
	}
	if len(rec.Games) != 1 {
		return res("aji-unreadable", fmt.Sprintf("%d games in the file, want 1", len(rec.Games)))
	}
	if err := os.WriteFile(sgfPath, rec.Data, 0o644); err != nil {
		return res("gnugo-failed", err.Error())
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	failed := func(err error) (replayOutcome, bool) {
		var gerr *gtp.Error
		return replayOutcome{rec.Name, "gnugo-failed", err.Error()}, !errors.As(err, &gerr)
	}

	g := rec.Games[0]
	pos, ajiErr := g.PositionAfter(-1)
	if errors.Is(ajiErr, game.ErrIllegalMove) {
		// Find the move Aji rejects and ask GNU Go about that very move.
		var (
			num  int
			move game.Move
		)
		g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			num, move = pos.MoveNumber+1, next
			return nil
		})
		if _, err := e.LoadSGF(ctx, sgfPath, num); err != nil {
			return failed(err)
		}
		col := map[board.Color]string{board.Black: "black", board.White: "white"}[move.Color]
		legal, err := e.Send(ctx, "is_legal "+col+" "+move.Point.GTP(e.Size()))
		if err != nil {
			return failed(err)
		}
		detail := fmt.Sprintf("Aji: %v; GNU Go: is_legal %s %s = %s", ajiErr, col, move.Point.GTP(e.Size()), legal)
		if legal == "0" {
			return res("illegal", detail)
		}
		return res("aji-only-illegal", detail)
	}
	if ajiErr != nil {
		return res("aji-unreadable", ajiErr.Error())
	}

	toPlay, err := e.LoadSGF(ctx, sgfPath, 0)
	if err != nil {
		return failed(err)
	}
	size := e.Size()
	if size != pos.Board.Size() {
		return res("disagree", fmt.Sprintf("board size: aji %d, gnugo %d", pos.Board.Size(), size))
	}
	gnu := make(map[board.Point]board.Color)
	for _, c := range []board.Color{board.Black, board.White} {
		pts, err := e.ListStones(ctx, c)
		if err != nil {
			return failed(err)
		}
		for _, p := range pts {
			gnu[p] = c
		}
	}
	var captures [3]int
	for _, c := range []board.Color{board.Black, board.White} {
		text, err := e.Send(ctx, "captures "+map[board.Color]string{board.Black: "black", board.White: "white"}[c])
		if err != nil {
			return failed(err)
		}
		if captures[c], err = strconv.Atoi(text); err != nil {
			return failed(fmt.Errorf("captures: %q: %w", text, err))
		}
	}

	var diffs []string
	for _, p := range pos.Board.Points() {
		if a, g := pos.Board.At(p), gnu[p]; a != g {
			diffs = append(diffs, fmt.Sprintf("%s: aji %c, gnugo %c", p.GTP(size), stoneChar(a), stoneChar(g)))
		}
	}
	for _, c := range []board.Color{board.Black, board.White} {
		if a, g := pos.Board.Captures(c), captures[c]; a != g {
			diffs = append(diffs, fmt.Sprintf("stones captured by %v: aji %d, gnugo %d", c, a, g))
		}
	}
	if pos.ToPlay != toPlay {
		diffs = append(diffs, fmt.Sprintf("to play: aji %v, gnugo %v", pos.ToPlay, toPlay))
	}
	if len(diffs) == 0 {
		return res("agree", "")
	}
	return res("disagree", asciiDiff(&pos.Board, gnu)+strings.Join(diffs, "\n"))
}

func stoneChar(c board.Color) byte {
	switch c {
	case board.Black:
		return 'X'
	case board.White:
		return 'O'
	}
	return '.'
}

// asciiDiff draws Aji's board and GNU Go's side by side, rows numbered as in
// GTP, with a '<' after each row that differs.
func asciiDiff(b *board.Board, gnu map[board.Point]board.Color) string {
	size := b.Size()
	cols := "ABCDEFGHJKLMNOPQRSTUVWXYZ"[:size]
	var sb strings.Builder
	fmt.Fprintf(&sb, "   %-*s   %s\n", size, "aji", "gnugo")
	fmt.Fprintf(&sb, "   %s   %s\n", cols, cols)
	for y := range size {
		var ra, rg []byte
		for x := range size {
			p := board.At(x, y)
			ra = append(ra, stoneChar(b.At(p)))
			rg = append(rg, stoneChar(gnu[p]))
		}
		mark := ""
		if string(ra) != string(rg) {
			mark = " <"
		}
		fmt.Fprintf(&sb, "%2d %s   %s%s\n", size-y, ra, rg, mark)
	}
	return sb.String()
}

// TestGNUGoReplayDetectsDifference makes sure the comparison can fail: GNU
// Go is handed the record without its last move, Aji the whole record.
func TestGNUGoReplayDetectsDifference(t *testing.T) {
	prog, err := gtp.LookPath("gnugo")
	if err != nil {
		t.Skipf("gnugo not installed (%v); install Debian's gnugo package to run this test", err)
	}
	const whole = "(;SZ[9]KM[7];B[cc];W[gg];B[cg];W[gc])"
	games, err := game.Parse([]byte(whole))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	e, err := gtp.Start(ctx, strconv.Quote(prog)+" --mode gtp")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()

	path := filepath.Join(t.TempDir(), "g.sgf")
	rec := dataset.Record{Name: "whole.sgf", Data: []byte(whole), Games: games}
	if out, lost := compareWithGNUGo(ctx, e, path, rec); out.kind != "agree" || lost {
		t.Fatalf("same record: %+v (engine lost: %v), want agree", out, lost)
	}
	rec.Data = []byte(strings.Replace(whole, ";W[gc]", "", 1))
	out, lost := compareWithGNUGo(ctx, e, path, rec)
	if out.kind != "disagree" || lost {
		t.Fatalf("shortened record: %+v (engine lost: %v), want disagree", out, lost)
	}
	for _, want := range []string{"G7: aji O, gnugo .", "to play: aji B, gnugo W", " 7 ..X...O..   ..X...... <"} {
		if !strings.Contains(out.detail, want) {
			t.Errorf("diff lacks %q:\n%s", want, out.detail)
		}
	}
}
