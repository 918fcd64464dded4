package gtp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"aji/analysis/gtp"
	"aji/analysis/reading"
)

const readingProblems = "../../../shared/data/reading-problems.jsonl"

// suiteProblems returns GNU Go's reading problems by id, or skips where the data is missing.
func suiteProblems(t *testing.T, ids ...string) []reading.Problem {
	t.Helper()
	if _, err := os.Stat(readingProblems); err != nil {
		t.Skip("no reading problems at", readingProblems)
	}
	ps, err := reading.LoadProblems(readingProblems)
	if err != nil {
		t.Fatal(err)
	}
	ps, err = reading.SelectIDs(ps, ids)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// suiteRecord writes the game record of problem id (the file's "sgf" field) to a temporary file,
// as GNU Go's regression runner loads it, and returns the path and the move to stop before.
func suiteRecord(t *testing.T, id string) (string, int) {
	t.Helper()
	data, err := os.ReadFile(readingProblems)
	if err != nil {
		t.Skip(err)
	}
	for line := range strings.Lines(string(data)) {
		var rec struct {
			ID   string `json:"id"`
			SGF  string `json:"sgf"`
			Move int    `json:"move"`
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec.ID != id {
			continue
		}
		path := filepath.Join(t.TempDir(), "problem.sgf")
		if err := os.WriteFile(path, []byte(rec.SGF), 0o644); err != nil {
			t.Fatal(err)
		}
		return path, rec.Move
	}
	t.Fatalf("no problem %s", id)
	return "", 0
}

var readAnswer = regexp.MustCompile(`^= (0|[123] [A-HJ-T]\d{1,2})$`)

// The server answers GNU Go's attack and defend on a position loadsgf gives, in GNU Go's format
// and as the suite expects: problems 2-5 of reading.tst share one record (incident2.sgf before
// move 212) and ask both questions, with a plain win and a ko.
func TestReadingCommands(t *testing.T) {
	ps := suiteProblems(t, "2", "3", "4", "5")
	path, move := suiteRecord(t, ps[0].ID)
	var in strings.Builder
	fmt.Fprintf(&in, "loadsgf %s %d\n", path, move)
	for _, p := range ps {
		fmt.Fprintf(&in, "%s %s\n", p.Goal, p.Target.GTP(p.Board.Size()))
	}
	srv := gtp.NewServer(&firstLegal{}, gtp.ServerOptions{})
	resps := splitResponses(t, serve(t, srv, in.String()))
	if len(resps) != 1+len(ps) || !strings.HasPrefix(resps[0], "= ") {
		t.Fatalf("responses %q", resps)
	}
	for i, p := range ps {
		r := resps[1+i]
		if !readAnswer.MatchString(r) {
			t.Errorf("%s %s: %q is not in GNU Go's format", p.ID, p.Goal, r)
			continue
		}
		if answer := strings.TrimPrefix(r, "= "); !p.Passes(answer) {
			t.Errorf("%s %s %s: %q, expected %q", p.ID, p.Goal, p.Target.GTP(p.Board.Size()), answer, p.Expected)
		}
	}
}

func TestReadingCommandErrors(t *testing.T) {
	srv := gtp.NewServer(&firstLegal{}, gtp.ServerOptions{Size: 9})
	resps := splitResponses(t, serve(t, srv, "play b E5\nattack D4\ndefend E5 E6\nattack pass\nattack Z9\ndefend E5\n"))
	want := []string{"= ", "? vertex must not be empty", "? ", "? ", "? ", "= 1 "}
	if len(resps) != len(want) {
		t.Fatalf("responses %q", resps)
	}
	for i, w := range want {
		if !strings.HasPrefix(resps[i], w) {
			t.Errorf("response %d: %q, want %q...", i, resps[i], w)
		}
	}
}

// aji-attack draws the read for GoGui: the main line as numbered labels from the key move, and the
// answer in a status line.
func TestReadingGfx(t *testing.T) {
	ps := suiteProblems(t, "2")
	path, move := suiteRecord(t, ps[0].ID)
	srv := gtp.NewServer(&firstLegal{}, gtp.ServerOptions{})
	target := ps[0].Target.GTP(ps[0].Board.Size())
	g := gfxLines(t, srv, fmt.Sprintf("loadsgf %s %d\n", path, move), "aji-attack "+target)
	if len(g["LABEL"]) != 1 || !strings.HasPrefix(g["LABEL"][0], "G1 1") {
		t.Errorf("LABEL %q", g["LABEL"])
	}
	if len(g["TEXT"]) != 1 || !strings.HasPrefix(g["TEXT"][0], "attack captures with G1 (") {
		t.Errorf("TEXT %q", g["TEXT"])
	}
	for w := range g {
		if w != "LABEL" && w != "TEXT" {
			t.Errorf("unexpected gfx line %s %q", w, g[w])
		}
	}
}
