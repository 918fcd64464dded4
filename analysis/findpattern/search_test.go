package findpattern_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/dataset"
	"aji/analysis/feature"
	"aji/analysis/findpattern"
	"aji/analysis/findpattern/findtest"
	"aji/analysis/game"
	"aji/analysis/pattern"
)

// plantedQuery is the query of the planted shape read where the first plant puts it, with the template
// tmpl ("8", "T8").
func plantedQuery(t *testing.T, tmpl string) findpattern.Query {
	t.Helper()
	p := findtest.Plants()[0]
	g := parse(t, p.SGF())
	pos, err := g.PositionAfter(p.Move())
	if err != nil {
		t.Fatal(err)
	}
	q, err := findpattern.ShapeAt(pos, p.Point(), tmpl)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func parse(t testing.TB, sgf string) *game.Game {
	t.Helper()
	gs, err := game.Parse([]byte(sgf))
	if err != nil || len(gs) != 1 {
		t.Fatalf("parse %q: %v", sgf, err)
	}
	return gs[0]
}

// collections writes the synthetic collection as a folder and as a tar.xz archive.
func collections(t *testing.T) map[string]string {
	t.Helper()
	ms := findtest.Collection(findtest.Plants())
	dir := t.TempDir()
	folder, err := findtest.WriteFolder(dir, "planted", ms)
	if err != nil {
		t.Fatal(err)
	}
	archive, err := findtest.WriteTarXz(dir, "planted", ms)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"folder": folder, "tar.xz": archive}
}

type found struct {
	file   string
	move   int
	point  board.Point
	color  board.Color
	played bool
}

func (f found) String() string {
	return fmt.Sprintf("%s move %d %s %v played=%v", f.file, f.move, f.point.GTP(19), f.color, f.played)
}

// want is the plants as matches, in the collection's order.
func want() []found {
	var out []found
	for i, p := range findtest.Plants() {
		out = append(out, found{fmt.Sprintf("planted/plant-%02d.sgf", i), p.Move(), p.Point(), p.Color, p.Played})
	}
	return out
}

func search(t *testing.T, path string, q findpattern.Query, o findpattern.Options) ([]found, []findpattern.Match, []string, findpattern.Progress) {
	t.Helper()
	var got []found
	var ms []findpattern.Match
	var skipped []string
	o.Skipped = func(name string, err error) { skipped = append(skipped, name) }
	sum, err := findpattern.Search(context.Background(), path, q, o, func(m findpattern.Match) error {
		got = append(got, found{m.File, m.Move, m.Point, m.Color, m.Played})
		ms = append(ms, m)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, ms, skipped, sum
}

// TestPlantedShapesFound: every planted occurrence, in all 8 orientations and for both players to
// move, is found in a folder and in a tar.xz, and nothing else; the broken and illegal records are
// reported and skipped.
func TestPlantedShapesFound(t *testing.T) {
	for _, tmpl := range []string{"8", "4", "T8", "T12"} {
		q := plantedQuery(t, tmpl)
		for kind, path := range collections(t) {
			t.Run(tmpl+"/"+kind, func(t *testing.T) {
				for _, workers := range []int{1, 3} {
					got, _, skipped, sum := search(t, path, q, findpattern.Options{Workers: workers})
					if !slices.Equal(got, want()) {
						t.Fatalf("workers %d: found\n%v\nwant\n%v", workers, got, want())
					}
					if !slices.Equal(skipped, []string{"planted/broken.sgf", "planted/illegal.sgf"}) {
						t.Errorf("skipped %v, want the broken and the illegal record", skipped)
					}
					nPlayed := 0
					for _, p := range findtest.Plants() {
						if p.Played {
							nPlayed++
						}
					}
					if sum.Matches != len(want()) || sum.Played != nPlayed || sum.Files != len(findtest.Plants())+3 || sum.Skipped != 2 {
						t.Errorf("summary %+v", sum)
					}
				}
			})
		}
	}
}

// TestKeysAgreeWithTracker: at every planted match the key is the incremental Tracker's (synced move
// by move along the game) and the from-scratch KeysAt's; and a from-scratch scan of every legal move
// of every position finds the plants and nothing else, so the collection plants what it says.
func TestKeysAgreeWithTracker(t *testing.T) {
	q := plantedQuery(t, "8")
	var scanned []found
	for i, p := range findtest.Plants() {
		g := parse(t, p.SGF())
		var tr pattern.Tracker
		err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
			tr.Sync(&pos.Board)
			for _, pt := range pos.Board.Points() {
				if pos.Board.At(pt) != board.Empty || !pos.Board.Legal(pt, pos.ToPlay) {
					continue
				}
				scratch := pattern.KeysAt(&pos.Board, pt, pos.ToPlay).Of(q.Size)
				if inc := tr.Keys(pt, pos.ToPlay).Of(q.Size); inc != scratch || tr.Key(pt, pos.ToPlay, q.Size) != scratch {
					t.Fatalf("plant %d move %d %s: tracker key %x, from scratch %x", i, pos.MoveNumber, pt.GTP(19), inc, scratch)
				}
				if scratch == q.Key {
					scanned = append(scanned, found{fmt.Sprintf("planted/plant-%02d.sgf", i), pos.MoveNumber, pt, pos.ToPlay, next.Point == pt})
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !slices.Equal(scanned, want()) {
		t.Fatalf("a scan from scratch finds\n%v\nwant the plants\n%v", scanned, want())
	}
}

// TestFeatureQueryAgreesWithExtractor: a feature query finds exactly the legal moves where the
// extractor gives the feature that level, on the sample games.
func TestFeatureQueryAgreesWithExtractor(t *testing.T) {
	dir := "../../assets/games"
	for _, name := range []string{"atari: other atari", "extension: new atari, not in a ladder", "distance to previous move: 2", "self-atari"} {
		t.Run(name, func(t *testing.T) {
			q, err := findpattern.FeatureQuery(strings.ToUpper(name))
			if err != nil {
				t.Fatal(err)
			}
			got, _, skipped, _ := search(t, dir, q, findpattern.Options{})
			if len(skipped) > 0 {
				t.Fatalf("skipped %v", skipped)
			}
			var wantF []found
			var ext feature.Extractor
			var set feature.Set
			_, err = dataset.Walk(context.Background(), dir, dataset.Filter{}, func(rec dataset.Record) error {
				for _, g := range rec.Games {
					if err := g.WalkMainLine(func(pos *game.Position, next game.Move) error {
						ext.Extract(pos, &set)
						for _, p := range set.Moves() {
							if p != board.Pass && set.At[p][q.Feature] == q.Level {
								wantF = append(wantF, found{rec.Name, pos.MoveNumber, p, pos.ToPlay, next.Point == p})
							}
						}
						return nil
					}); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(wantF) == 0 {
				t.Fatal("the feature never fires in the sample games: a test of nothing")
			}
			if !slices.Equal(got, wantF) {
				t.Fatalf("found %d matches, the extractor %d", len(got), len(wantF))
			}
		})
	}
}

// TestLimit stops after the limit, with the first matches in order.
func TestLimit(t *testing.T) {
	got, _, _, sum := search(t, collections(t)["tar.xz"], plantedQuery(t, "8"), findpattern.Options{Limit: 5, Workers: 2})
	if !slices.Equal(got, want()[:5]) || sum.Matches != 5 {
		t.Fatalf("limit 5: %v (summary %+v)", got, sum)
	}
}

// TestCancel: a search whose context is cancelled at its first match stops with the context's error
// and delivers nothing more.
func TestCancel(t *testing.T) {
	for kind, path := range collections(t) {
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		_, err := findpattern.Search(ctx, path, plantedQuery(t, "8"), findpattern.Options{Workers: 2}, func(findpattern.Match) error {
			n++
			cancel()
			return nil
		})
		cancel()
		if !errors.Is(err, context.Canceled) || n != 1 {
			t.Errorf("%s: cancelled at the first match: %d matches, error %v", kind, n, err)
		}
	}
}

// TestCallbackError: an error from fn ends the search and comes back as it is.
func TestCallbackError(t *testing.T) {
	stop := errors.New("enough")
	_, err := findpattern.Search(context.Background(), collections(t)["folder"], plantedQuery(t, "8"), findpattern.Options{}, func(findpattern.Match) error { return stop })
	if err != stop {
		t.Fatalf("error %v, want fn's", err)
	}
}

// TestProgress: progress comes after every file, the total is known by the end, and the summary
// counts every game and position.
func TestProgress(t *testing.T) {
	path := collections(t)["folder"]
	var ps []findpattern.Progress
	_, _, _, sum := search(t, path, plantedQuery(t, "8"), findpattern.Options{Progress: func(p findpattern.Progress) { ps = append(ps, p) }})
	files := len(findtest.Plants()) + 3
	if len(ps) != files || ps[len(ps)-1].Files != files || sum.Total != files {
		t.Fatalf("%d progress reports, want one per file (%d)", len(ps), files)
	}
	for i, p := range ps {
		if p.Files != i+1 {
			t.Fatalf("report %d says %d files", i, p.Files)
		}
	}
	positions := 4 + 3 // empty.sgf's 4 moves, illegal.sgf's 2 and the one before its illegal move
	for _, p := range findtest.Plants() {
		positions += p.Move() + 1
	}
	if sum.Games != len(findtest.Plants())+2 || sum.Positions != positions {
		t.Errorf("summary %+v: want %d games and %d positions", sum, len(findtest.Plants())+2, positions)
	}
	if sum.HitRate() <= 0 || sum.HitRate() >= 1 {
		t.Errorf("hit rate %v", sum.HitRate())
	}
}

// TestMember reads a match's record back from both kinds of collection.
func TestMember(t *testing.T) {
	cs := collections(t)
	for kind, path := range cs {
		data, disk, err := dataset.Member(context.Background(), path, "planted/plant-03.sgf")
		if err != nil || string(data) != findtest.Plants()[3].SGF() {
			t.Fatalf("%s: %q, %v", kind, data, err)
		}
		if (kind == "folder") != (disk != "") {
			t.Errorf("%s: on disk at %q", kind, disk)
		}
		if _, _, err := dataset.Member(context.Background(), path, "planted/nothing.sgf"); !errors.Is(err, dataset.ErrNoMember) {
			t.Errorf("%s: a missing member: %v", kind, err)
		}
	}
	if _, _, err := dataset.Member(context.Background(), cs["folder"], "planted/../../etc/passwd.sgf"); !errors.Is(err, dataset.ErrNoMember) {
		t.Errorf("a name outside the folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(cs["folder"], "plant-03.sgf")); err != nil {
		t.Fatal(err)
	}
}

// TestModelLargest: with a model's dictionary a shape matches only where it is the largest known
// pattern, the model's shape factor: the plants when the dictionary stops at the query's size, none
// once it knows the plants' larger shape too, or misses a smaller one (Largest reads the sizes from
// the smallest up).
func TestModelLargest(t *testing.T) {
	path := collections(t)["folder"]
	p := findtest.Plants()[0]
	pos, err := parse(t, p.SGF()).PositionAfter(p.Move())
	if err != nil {
		t.Fatal(err)
	}
	keys := pattern.KeysAt(&pos.Board, p.Point(), pos.ToPlay)
	stern := pattern.SternKeysAt(&pos.Board, p.Point(), pos.ToPlay)
	coulom := func(sizes ...int) *pattern.Dictionary {
		var es []pattern.Entry
		for _, s := range sizes {
			es = append(es, pattern.Entry{Key: keys.Of(s), Size: s, Count: 1})
		}
		d, err := pattern.NewDictionary(es)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	sternDict := func(templates ...int) *pattern.Dictionary {
		var es []pattern.Entry
		for _, s := range templates {
			es = append(es, pattern.Entry{Key: stern.Of(s), Size: s, Count: 1})
		}
		d, err := pattern.NewSternDictionary(es)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct {
		what  string
		tmpl  string
		model *pattern.Dictionary
		all   bool
	}{
		{"sizes 3-8", "8", coulom(3, 4, 5, 6, 7, 8), true},
		{"sizes 3-9", "8", coulom(3, 4, 5, 6, 7, 8, 9), false},
		{"size 5 missing", "8", coulom(3, 4, 6, 7, 8), false},
		{"T8", "T8", sternDict(8), true},
		{"T8 and T12", "T8", sternDict(8, 12), false},
		{"T12 and T8", "T12", sternDict(8, 12), true},
	} {
		q := plantedQuery(t, c.tmpl)
		q.Model = c.model
		got, _, _, _ := search(t, path, q, findpattern.Options{})
		if c.all && !slices.Equal(got, want()) || !c.all && len(got) > 0 {
			t.Errorf("%s, query %s: found %d, want %v", c.what, c.tmpl, len(got), c.all)
		}
	}
	bad := []findpattern.Query{plantedQuery(t, "8"), plantedQuery(t, "T8")}
	bad[0].Model, bad[1].Model = sternDict(8), coulom(3)
	feat, _ := findpattern.FeatureQuery("self-atari")
	feat.Model = coulom(3)
	for _, q := range append(bad, feat) {
		if _, err := findpattern.Search(context.Background(), path, q, findpattern.Options{}, func(findpattern.Match) error { return nil }); !errors.Is(err, findpattern.ErrQuery) {
			t.Errorf("%v with a model of the wrong kind: %v", q, err)
		}
	}
}
