package label

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/assets"
)

func TestParseResult(t *testing.T) {
	for _, c := range []struct {
		re   string
		want float64
	}{{"B+3.5", 3.5}, {"W+12", -12}, {"b+0.5", 0.5}, {" W+1 ", -1}, {"0", 0}, {"Jigo", 0}, {"Draw", 0}} {
		if got, err := ParseResult(c.re); err != nil || got != c.want {
			t.Errorf("ParseResult(%q) = %v, %v; want %v", c.re, got, err, c.want)
		}
	}
	for _, re := range []string{"", "B+R", "W+Resign", "B+T", "W+F", "Void", "?", "B+", "B+-3", "X+3", "B+NaN"} {
		if _, err := ParseResult(re); !errors.Is(err, ErrNoCount) {
			t.Errorf("ParseResult(%q): %v, want ErrNoCount", re, err)
		}
	}
}

func mustGame(t *testing.T, sgf string) *game.Game {
	t.Helper()
	gs, err := game.Parse([]byte(sgf))
	if err != nil {
		t.Fatal(err)
	}
	return gs[0]
}

// A 5x5 game whose final position is
//
//	. X O . .
//	X X O . .
//	. X O O O
//	X X O O .
//	. X O . X   <- the black stone at E1 is dead
func TestFromPosition(t *testing.T) {
	const moves = ";B[ba];W[ca];B[ab];W[cb];B[bb];W[cc];B[bc];W[dc];B[bd];W[ec];B[ad];W[cd];B[be];W[dd];B[ee];W[ce]"
	g := mustGame(t, "(;GM[1]SZ[5]KM[0.5]RE[W+5.5]"+moves+")")
	pos, err := g.PositionAfter(-1)
	if err != nil {
		t.Fatal(err)
	}
	st := &Status{}
	st.Dead.Add(board.At(4, 4))
	l, err := FromPosition("x.sgf", g, pos, st)
	if err != nil {
		t.Fatal(err)
	}
	want := []int8{
		1, 1, -1, -1, -1,
		1, 1, -1, -1, -1,
		1, 1, -1, -1, -1,
		1, 1, -1, -1, -1,
		1, 1, -1, -1, -1,
	}
	if !slices.Equal(l.Labels, want) {
		t.Errorf("labels %v, want %v", l.Labels, want)
	}
	if l.Move != 16 || l.AreaBlack != 10 || l.AreaWhite != 15 || l.AreaMargin != -5.5 || l.ResultMargin != -5.5 ||
		l.MarginDiff != 0 || !l.Consistent || l.KomiInferred != nil || l.UnclassifiedPoints != 9 {
		t.Errorf("label %+v", l)
	}
	// The engine's lists override the flood fill.
	st.Dame.Add(board.At(4, 0))
	st.BlackTerritory.Add(board.At(3, 0))
	l, _ = FromPosition("x.sgf", g, pos, st)
	if l.Labels[4] != 0 || l.Labels[3] != 1 || l.AreaWhite != 13 || l.AreaBlack != 11 || l.UnclassifiedPoints != 7 {
		t.Errorf("with the engine's lists: labels %v, area %d-%d, unclassified %d", l.Labels, l.AreaBlack, l.AreaWhite, l.UnclassifiedPoints)
	}
	st = &Status{Dead: st.Dead}

	// Without a komi, a count 6.5 points off the result is explained by the first usual komi that fits;
	// area_margin and margin_diff stay at the recorded komi, as in the reference file.
	g = mustGame(t, "(;GM[1]SZ[5]RE[W+11.5]"+moves+")")
	l, _ = FromPosition("x.sgf", g, pos, st)
	if l.AreaMargin != -5 || l.MarginDiff != 6.5 || !l.Consistent || l.KomiInferred == nil || *l.KomiInferred != 6.5 {
		t.Errorf("inferred komi: %+v (komi_inferred %v)", l, l.KomiInferred)
	}
	// A result no komi explains stays inconsistent.
	g = mustGame(t, "(;GM[1]SZ[5]RE[B+30]"+moves+")")
	if l, _ = FromPosition("x.sgf", g, pos, st); l.Consistent || l.KomiInferred != nil {
		t.Errorf("B+30 on a 10-15 count: %+v", l)
	}
	g = mustGame(t, "(;GM[1]SZ[5]RE[B+R]"+moves+")")
	if _, err := FromPosition("x.sgf", g, pos, st); !errors.Is(err, ErrNoCount) {
		t.Errorf("B+R: %v", err)
	}
}

func TestInferredKomi(t *testing.T) {
	// The reference file's cases: area margin at komi 0, result margin, komi inferred.
	for _, c := range []struct{ area, result, want float64 }{
		{8, 1.5, 6.5}, {6, -1.5, 6.5}, {1, -4.5, 6.5}, {4, -0.5, 5.5}, {3, -3.5, 6.5}, {5, -3, 7.5}, {11, 3, 7.5}, {4, -2.5, 6.5},
	} {
		if k, ok := inferredKomi(c.area, c.result); !ok || k != c.want {
			t.Errorf("inferredKomi(%v, %v) = %v, %v; want %v", c.area, c.result, k, ok, c.want)
		}
	}
	if k, ok := inferredKomi(10, 7.5); ok {
		t.Errorf("inferredKomi(10, 7.5) = %v, want none", k)
	}
}

func TestReadFile(t *testing.T) {
	l := Label{Game: "g.sgf", Size: 2, Move: 3, Labels: []int8{1, -1, 0, 1}, Result: "B+1", Consistent: true}
	line, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"game":"g.sgf","size":2,"move":3,"labels":[1,-1,0,1],"result":"B+1","komi":0,"handicap":0,` +
		`"area_black":0,"area_white":0,"area_margin":0,"result_margin":0,"margin_diff":0,"consistent":true,` +
		`"unclassified_points":0}`; string(line) != want {
		t.Errorf("JSON %s\nwant %s", line, want)
	}
	path := filepath.Join(t.TempDir(), "l.jsonl")
	os.WriteFile(path, append(append(line, "\n\n"...), line...), 0o644)
	got, err := ReadFile(path)
	if err != nil || len(got) != 2 || !slices.Equal(got[1].Labels, l.Labels) {
		t.Errorf("ReadFile: %v, %+v", err, got)
	}
	for _, bad := range []string{
		`{"size":3,"labels":[1]}`,
		`{"size":2,"labels":[1,2,0,-1]}`,
		`{"size":2,"move":-1,"labels":[1,1,0,-1]}`,
		`{"size":2,"labels":[1,1,0,-1]`,
	} {
		os.WriteFile(path, []byte(bad), 0o644)
		if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), path+":1:") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// FuzzRead checks that any input gives labels or an error, never a panic, and that what it accepts is
// within the format: Size² owners of −1, 0 or +1 on a board size Aji plays.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"game":"g.sgf","size":2,"move":3,"labels":[1,-1,0,1],"result":"B+1","consistent":true}`))
	f.Add([]byte("\n{\"size\":3,\"labels\":[1]}\n"))
	f.Add([]byte(`{"size":19,"labels":null,"komi_inferred":6.5}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ls, err := Read(bytes.NewReader(data), "fuzz")
		if err != nil {
			return
		}
		for _, l := range ls {
			if l.Size < 2 || l.Size > board.MaxSize || len(l.Labels) != l.Size*l.Size || l.Move < 0 {
				t.Fatalf("accepted size %d with %d labels at move %d", l.Size, len(l.Labels), l.Move)
			}
			for _, v := range l.Labels {
				if v < -1 || v > 1 {
					t.Fatalf("accepted owner %d", v)
				}
			}
		}
	})
}

// sampleFolder copies the embedded sample games (two counted results, one win on time) to a folder.
func sampleFolder(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "games")
	os.Mkdir(dir, 0o755)
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func needGNUGo(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: labelling runs GNU Go")
	}
	if _, err := gtp.LookPath("gnugo"); err != nil {
		t.Skipf("gnugo not installed (apt-get install gnugo): %v", err)
	}
}

func TestRun(t *testing.T) {
	needGNUGo(t)
	dir := sampleFolder(t)
	var got []*Label
	progress := 0
	st, err := Run(t.Context(), dir, Options{Progress: func(n int) { progress += n }}, func(l *Label) error {
		got = append(got, l)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if st != (Stats{Games: 3, Labelled: 2, NoCount: 1}) || progress != 3 {
		t.Errorf("stats %+v, progress %d", st, progress)
	}
	// In collection order, and the Agon game as in the reference file.
	if len(got) != 2 || got[0].Game != "games/Agon-01-8.sgf" || got[1].Game != "games/castle-cg048.sgf" {
		t.Fatalf("labels for %v", got)
	}
	if l := got[0]; l.AreaBlack != 174 || l.AreaWhite != 171 || l.Move != 261 || !l.Consistent {
		t.Errorf("Agon-01-8: %+v", l)
	}

	// An emit error stops the run and comes back.
	boom := errors.New("disk full")
	if _, err := Run(t.Context(), dir, Options{Engines: 1}, func(*Label) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("emit error: %v", err)
	}
	// An interrupted run returns the context's error.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := Run(ctx, dir, Options{}, func(*Label) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
	// A missing engine is a clear error.
	if _, err := Run(t.Context(), dir, Options{Engine: "no-such-engine-aji"}, nil); err == nil || !strings.Contains(err.Error(), "no-such-engine-aji") {
		t.Errorf("missing engine: %v", err)
	}
}
