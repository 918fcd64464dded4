package gtp_test

import (
	"context"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/gtp"
)

// gfxLines runs one command and returns its gfx lines by their first word.
func gfxLines(t *testing.T, srv *gtp.Server, setup, cmd string) map[string][]string {
	t.Helper()
	resps := splitResponses(t, serve(t, srv, setup+cmd+"\n"))
	r := resps[len(resps)-1]
	if !strings.HasPrefix(r, "= ") {
		t.Fatalf("%s: %q", cmd, r)
	}
	out := map[string][]string{}
	for _, l := range strings.Split(strings.TrimPrefix(r, "= "), "\n") {
		w, rest, _ := strings.Cut(l, " ")
		out[w] = append(out[w], rest)
	}
	return out
}

var hexColor = regexp.MustCompile(`^#[0-9a-f]{6}$`)

func TestHeatmap(t *testing.T) {
	srv := gtp.NewServer(&firstLegal{}, gtp.ServerOptions{Size: 9, Predictors: []string{"uniform"}})
	g := gfxLines(t, srv, "play b E5\nplay w C3\n", "aji-heatmap uniform")
	// Uniform: every legal point (79 of 81) in one colour bucket, the top.
	if len(g["COLOR"]) != 1 {
		t.Fatalf("COLOR lines %q", g["COLOR"])
	}
	words := strings.Fields(g["COLOR"][0])
	if !hexColor.MatchString(words[0]) || len(words) != 1+79 {
		t.Errorf("COLOR %s with %d points", words[0], len(words)-1)
	}
	for _, v := range words[1:] {
		if v == "E5" || v == "C3" {
			t.Errorf("occupied %s coloured", v)
		}
	}
	// 1/80 each (79 points and pass) rounds to 1%: the five most likely are labelled (but pass, when
	// it is one of them), and named in the status line.
	if labels := strings.Fields(strings.Join(g["LABEL"], " ")); len(labels) < 8 || len(labels) > 10 || labels[1] != "1" {
		t.Errorf("LABEL %q", g["LABEL"])
	}
	if len(g["TEXT"]) != 1 || !strings.HasPrefix(g["TEXT"][0], "uniform for black: ") || !strings.Contains(g["TEXT"][0], "1.2%") {
		t.Errorf("TEXT %q", g["TEXT"])
	}
	// An unknown predictor fails.
	if out := serve(t, srv, "aji-heatmap nope\n"); !strings.HasPrefix(out, "? ") {
		t.Errorf("unknown predictor: %q", out)
	}
}

// The territory command draws every point once with a value in [-1, 1]; on the finished game of
// final9.sgf its sign agrees with GNU Go's count there (white owns more).
func TestTerritoryGfx(t *testing.T) {
	for _, tf := range []gtp.TerritoryFunc{nil, func(_ context.Context, pos *game.Position, out *[board.NumCells]float64) (string, error) {
		for _, p := range pos.Board.Points() {
			out[p] = -0.5
		}
		return "constant", nil
	}} {
		srv := gtp.NewServer(nil, gtp.ServerOptions{Territory: tf, Seed: 1})
		g := gfxLines(t, srv, "loadsgf testdata/final9.sgf\n", "aji-territory")
		seen := map[string]bool{}
		sum := 0.0
		for _, l := range g["INFLUENCE"] {
			f := strings.Fields(l)
			for i := 0; i+1 < len(f); i += 2 {
				v, err := strconv.ParseFloat(f[i+1], 64)
				if err != nil || v < -1 || v > 1 || seen[f[i]] {
					t.Errorf("INFLUENCE %s %s", f[i], f[i+1])
				}
				seen[f[i]] = true
				sum += v
			}
		}
		if len(seen) != 81 || sum >= 0 {
			t.Errorf("%d points, ownership sum %.1f (white owns more)", len(seen), sum)
		}
		if len(g["TEXT"]) != 1 || !strings.Contains(g["TEXT"][0], "expected area margin W+") {
			t.Errorf("TEXT %q", g["TEXT"])
		}
		if tf != nil && (!strings.Contains(g["TEXT"][0], "constant") || math.Abs(sum+40.5) > 1e-9) {
			t.Errorf("territory function not used: %q, sum %v", g["TEXT"], sum)
		}
	}
}

// fakeSearch is an Analyzer with fixed candidates.
type fakeSearch struct{ firstLegal }

func (f *fakeSearch) Analyze(_ context.Context, req *gtp.Request) (*gtp.Analysis, error) {
	d4, c3, e5 := board.At(3, 5), board.At(2, 6), board.At(4, 4)
	return &gtp.Analysis{Playouts: 1500, Candidates: []gtp.Candidate{
		{Move: d4, Visits: 1234, WinRate: 0.75, PV: []board.Point{d4, c3, e5}},
		{Move: c3, Visits: 200, WinRate: 0.25},
		{Move: e5, Visits: 0},
	}}, nil
}

func TestSearchGfx(t *testing.T) {
	srv := gtp.NewServer(&fakeSearch{}, gtp.ServerOptions{Size: 9})
	resps := splitResponses(t, serve(t, srv, "gogui-analyze_commands\n"))
	for _, want := range []string{"gfx/Aji search: visits/aji-search", "gfx/Aji search: principal variation/aji-pv", "gfx/Aji territory/aji-territory"} {
		if !strings.Contains(resps[0], want) {
			t.Errorf("analyze commands lack %q:\n%s", want, resps[0])
		}
	}
	g := gfxLines(t, srv, "play w A1\n", "aji-search")
	if got := g["LABEL"]; len(got) != 1 || got[0] != "D4 1.2k C3 200" {
		t.Errorf("LABEL %q", got)
	}
	if got := g["COLOR"]; len(got) != 2 || got[0] != "#40bf40 D4" || got[1] != "#bf4040 C3" {
		t.Errorf("COLOR %q", got)
	}
	if got := g["TEXT"]; len(got) != 1 || !strings.HasPrefix(got[0], "black: D4 win rate 75.0%, 1234 visits") {
		t.Errorf("TEXT %q", got)
	}
	g = gfxLines(t, srv, "", "aji-pv")
	if got := g["VAR"]; len(got) != 1 || got[0] != "b D4 w C3 b E5" {
		t.Errorf("VAR %q", got)
	}
	// A player that cannot analyse has no such commands.
	if out := serve(t, newTestServer(nil), "aji-search\n"); out != "? unknown command\n\n" {
		t.Errorf("aji-search without an Analyzer: %q", out)
	}
}
