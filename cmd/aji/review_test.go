package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/review"
)

// reviewJSON runs `aji review --json` and decodes its one object.
func reviewJSON(t *testing.T, args ...string) *reviewReport {
	t.Helper()
	out, err := run(t, append([]string{"review", "--json"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	var r reviewReport
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || dec.More() {
		t.Fatalf("not one JSON object (%v):\n%s", err, out)
	}
	return &r
}

// writeSGF writes a record into the test's folder.
func writeSGF(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReviewJSON: every main-line move of a 9x9 game with passes, each predictor's figures, and the
// values before and after each move, chained.
func TestReviewJSON(t *testing.T) {
	path := writeSGF(t, "passes.sgf", "(;SZ[9]KM[7];B[ee];W[cc];B[];W[gg];B[cg];W[];B[])")
	r := reviewJSON(t, path, "--predictors", "mm,uniform", "--territory", "--territory-playouts", "64")
	if r.Size != 9 || r.Komi != 7 || !reflect.DeepEqual(r.Predictors, []string{"mm", "uniform"}) ||
		r.Territory != review.DefaultTerritory || r.TerritoryPlayouts != 64 || len(r.Moves) != 7 {
		t.Fatalf("report %+v", r)
	}
	if len(r.Summary) != 2 || r.Summary[0].Positions != 4 || r.Summary[1].Top1 != 0 {
		t.Errorf("summary %+v: want 4 positions (passes skipped), uniform never first", r.Summary)
	}
	var points []string
	for i, m := range r.Moves {
		points = append(points, m.Color+" "+m.Point)
		if m.Move != i+1 || m.Before == nil || m.After == nil || m.Gain == nil {
			t.Fatalf("move %+v", m)
		}
		if i > 0 && *m.Before.ExpectedScore != *r.Moves[i-1].After.ExpectedScore {
			t.Errorf("move %d: the score before it is not the score after move %d", m.Move, i)
		}
		if p := *m.After.PBlackWins; p < 0 || p > 1 {
			t.Errorf("move %d: Black wins %v", m.Move, p)
		}
		if (m.Point == "pass") != (m.Predictors == nil) {
			t.Errorf("move %d (%s): predictors %+v; passes have none, other moves all", m.Move, m.Point, m.Predictors)
		}
		for _, p := range m.Predictors {
			if p.Rank < 1 || p.Probability <= 0 || len(p.Top) != review.DefaultTop || p.Top[0].Probability < p.Probability {
				t.Errorf("move %d, %s: %+v", m.Move, p.Name, p)
			}
		}
	}
	if want := []string{"B E5", "W C7", "B pass", "W G3", "B C3", "W pass", "B pass"}; !reflect.DeepEqual(points, want) {
		t.Errorf("moves %v, want %v", points, want)
	}
	if r.Timing.Positions != 8 || r.Timing.TerritorySeconds <= 0 {
		t.Errorf("timing %+v", r.Timing)
	}
}

// userRecord is a professional game's first moves with a user's comments — with characters SGF
// escapes — and a label of the user's.
const userRecord = `(;GM[1]FF[4]SZ[19]KM[6.5]PB[Black \] player]C[my notes]
;B[qd];W[dd]C[a comment with \] and \\ and
two lines];B[pq];W[dp]LB[dq:A];B[fc];W[cf];B[jd])`

// TestReviewSGF: the annotated record keeps the user's comments and label, reads back in Aji with the
// same main line, parses in Sabaki's parser (@sabaki/sgf) with the same moves, comments and labels,
// and annotating it again replaces the annotation instead of adding a second.
func TestReviewSGF(t *testing.T) {
	in := writeSGF(t, "game.sgf", userRecord)
	out := filepath.Join(t.TempDir(), "reviewed.sgf")
	if _, err := run(t, "review", in, "--territory", "--territory-model", "mc", "--territory-playouts", "64", "--sgf", out); err != nil {
		t.Fatal(err)
	}
	orig := loadOne(t, in)
	got := loadOne(t, out)
	if moves(got) == "" || moves(got) != moves(orig) {
		t.Fatalf("main line %q, want %q", moves(got), moves(orig))
	}
	line, origLine := got.MainLine(), orig.MainLine()
	for i, n := range line {
		if !strings.HasPrefix(n.Comment, origLine[i].Comment) {
			t.Errorf("node %d: comment %q does not keep the user's %q", i, n.Comment, origLine[i].Comment)
		}
		if n.Move != nil && !strings.Contains(n.Comment, review.Marker+"mm: rank ") {
			t.Errorf("node %d: comment %q has no review line", i, n.Comment)
		}
	}
	if !slices.Contains(line[4].Markup, game.Mark{Kind: game.Label, Point: origLine[4].Markup[0].Point, Text: "A"}) {
		t.Errorf("the user's label is gone: %v", line[4].Markup)
	}
	checkWithSabaki(t, out, got)

	// Annotating the annotated file again, to a new file, gives the same comments and markup.
	again := filepath.Join(t.TempDir(), "again.sgf")
	if _, err := run(t, "review", out, "--territory", "--territory-model", "mc", "--territory-playouts", "64", "--sgf", again); err != nil {
		t.Fatal(err)
	}
	for i, n := range loadOne(t, again).MainLine() {
		if n.Comment != line[i].Comment || !reflect.DeepEqual(n.Markup, line[i].Markup) || !reflect.DeepEqual(n.Props, line[i].Props) {
			t.Errorf("node %d changed on a second annotation:\n%q %v %v\n%q %v %v", i, line[i].Comment, line[i].Markup, line[i].Props, n.Comment, n.Markup, n.Props)
		}
	}
}

func loadOne(t *testing.T, path string) *game.Game {
	t.Helper()
	games, err := game.LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 {
		t.Fatalf("%s: %d games", path, len(games))
	}
	return games[0]
}

// moves writes a game's main-line moves as SGF, "B[pd];W[dd];...".
func moves(g *game.Game) string {
	var sb strings.Builder
	for _, n := range g.MainLine() {
		if n.Move != nil {
			sb.WriteString(n.Move.Color.String() + "[" + game.SGFPoint(n.Move.Point) + "];")
		}
	}
	return sb.String()
}

var sabakiDir = filepath.Join("..", "..", "scripts", "sabaki-check")

var (
	sabakiOnce sync.Once
	sabakiErr  error
)

// installSabaki runs `npm ci` in scripts/sabaki-check once, unless its packages are installed. Tests
// must run it in CI: a missing node or an unreachable registry is a failure, not a skip.
func installSabaki(t *testing.T) {
	t.Helper()
	sabakiOnce.Do(func() {
		if _, err := exec.LookPath("node"); err != nil {
			sabakiErr = errors.New("node is not installed (Debian: apt-get install nodejs npm; `make test` does it through scripts/deps.sh)")
			return
		}
		if _, err := os.Stat(filepath.Join(sabakiDir, "node_modules", "@sabaki", "sgf", "package.json")); err == nil {
			return
		}
		if _, err := exec.LookPath("npm"); err != nil {
			sabakiErr = errors.New("npm is not installed (Debian: apt-get install npm; `make test` does it through scripts/deps.sh)")
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
		cmd.Dir = sabakiDir
		if out, err := cmd.CombinedOutput(); err != nil {
			sabakiErr = errors.New("npm ci in scripts/sabaki-check failed; is the npm registry reachable? " + err.Error() + "\n" + string(out))
		}
	})
	if sabakiErr != nil {
		t.Fatalf("checking the SGF with @sabaki/sgf: %v", sabakiErr)
	}
}

// checkWithSabaki parses path with @sabaki/sgf and checks that its main line has g's nodes: the same
// moves, comments and labels.
func checkWithSabaki(t *testing.T, path string, g *game.Game) {
	t.Helper()
	installSabaki(t)
	cmd := exec.Command("node", filepath.Join(sabakiDir, "check.js"), path)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("@sabaki/sgf rejects %s: %v\n%s", path, err, stderr.String())
	}
	var parsed struct {
		Games int
		Nodes []map[string][]string
	}
	if err := json.Unmarshal(out, &parsed); err != nil {
		t.Fatalf("sabaki-check output: %v\n%s", err, out)
	}
	line := g.MainLine()
	if parsed.Games != 1 || len(parsed.Nodes) != len(line) {
		t.Fatalf("@sabaki/sgf reads %d games, a main line of %d nodes; Aji %d nodes", parsed.Games, len(parsed.Nodes), len(line))
	}
	for i, n := range line {
		data := parsed.Nodes[i]
		var move []string
		if n.Move != nil {
			v := game.SGFPoint(n.Move.Point)
			if n.Move.Point == board.Pass {
				v = ""
			}
			move = []string{v}
		}
		if !reflect.DeepEqual(data["B"], ifColor(n, board.Black, move)) || !reflect.DeepEqual(data["W"], ifColor(n, board.White, move)) {
			t.Errorf("node %d: @sabaki/sgf reads B%v W%v, Aji %v", i, data["B"], data["W"], n.Move)
		}
		if c := strings.Join(data["C"], ""); c != n.Comment {
			t.Errorf("node %d: @sabaki/sgf reads the comment\n%q\nAji\n%q", i, c, n.Comment)
		}
		var labels []string
		for _, m := range n.Markup {
			if m.Kind == game.Label {
				labels = append(labels, game.SGFPoint(m.Point)+":"+m.Text)
			}
		}
		if !reflect.DeepEqual(data["LB"], labels) {
			t.Errorf("node %d: @sabaki/sgf reads labels %v, Aji %v", i, data["LB"], labels)
		}
		if i > 0 && n.Move != nil && len(data[review.MarksProperty]) == 0 {
			t.Errorf("node %d: @sabaki/sgf reads no %s", i, review.MarksProperty)
		}
	}
}

func ifColor(n *game.Node, c board.Color, move []string) []string {
	if n.Move == nil || n.Move.Color != c {
		return nil
	}
	return move
}

// TestReviewPlot draws the review of a short game with a search value: three panels side by side.
func TestReviewPlot(t *testing.T) {
	in := sampleFile(t, "pro-Minigo-020303.sgf")
	out := filepath.Join(t.TempDir(), "review.png")
	if _, err := run(t, "review", in, "--predictors", "mm,uniform", "--territory", "--territory-playouts", "32",
		"--search-playouts", "50", "--max-moves", "8", "--plot", out); err != nil {
		t.Fatal(err)
	}
	if w, h := pngSize(t, out); w != 3*6*150 || h != 675 {
		t.Errorf("plot is %dx%d, want 2700x675", w, h)
	}
	// Without values, only the predictors' panel.
	if _, err := run(t, "review", in, "--max-moves", "8", "--plot", out); err != nil {
		t.Fatal(err)
	}
	if w, _ := pngSize(t, out); w != 6*150 {
		t.Errorf("plot without values is %d wide, want one 900-pixel panel", w)
	}
}

// TestReviewText: the text output has the summary and a line per move.
func TestReviewText(t *testing.T) {
	out, err := run(t, "review", sampleFile(t, "castle-cg048.sgf"), "--max-moves", "12")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 14 || !strings.HasPrefix(lines[0], "19x19, komi 0, 12 moves") || !strings.HasPrefix(lines[1], "mm: first choice ") ||
		!strings.HasPrefix(lines[2], "   1 B D17  mm: rank ") {
		t.Errorf("output:\n%s", out)
	}
}

func TestReviewErrors(t *testing.T) {
	dir := t.TempDir()
	good := sampleFile(t, "pro-Minigo-020303.sgf")
	illegal := writeSGF(t, "illegal.sgf", "(;SZ[9];B[ee];W[ee])")
	for _, c := range []struct {
		args  []string
		want  string
		usage bool
	}{
		{[]string{"review"}, "review FILE.sgf", true},
		{[]string{"review", good, good}, "review FILE.sgf", true},
		{[]string{"review", filepath.Join(dir, "missing.sgf")}, "missing.sgf", false},
		{[]string{"review", illegal}, "illegal move", false},
		{[]string{"review", good, "--predictors", "nosuch"}, "nosuch", false},
		{[]string{"review", good, "--territory", "--territory-model", "nosuch"}, "nosuch", false},
		{[]string{"review", good, "--max-moves", "-1"}, "negative", true},
		{[]string{"review", good, "--sgf", good}, "reviewed record", true},
		{[]string{"review", good, "--territory", "boltzmann5"}, "--territory-model", true},
	} {
		_, err := run(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) || errors.Is(err, errUsage) != c.usage {
			t.Errorf("%v: error %v, want one mentioning %q (usage: %v)", c.args[1:], err, c.want, c.usage)
		}
	}
	// --overwrite allows replacing the reviewed file itself.
	copyPath := writeSGF(t, "copy.sgf", "(;SZ[9];B[ee];W[cc])")
	if _, err := run(t, "review", copyPath, "--sgf", copyPath, "--overwrite"); err != nil {
		t.Fatal(err)
	}
	if c := loadOne(t, copyPath).MainLine()[1].Comment; !strings.HasPrefix(c, review.Marker) {
		t.Errorf("overwritten record's comment %q", c)
	}
}
