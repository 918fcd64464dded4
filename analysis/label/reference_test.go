package label

import (
	"context"

	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"aji/analysis/dataset"
	"aji/analysis/game"
	"aji/analysis/gtp"
)

// The reference labels and the games they label, from ../shared/data (relative to the repository root).
var (
	dataDir         = filepath.Join("..", "..", "..", "shared", "data")
	referenceLabels = filepath.Join(dataDir, "territory-labels-validation.jsonl")
	referenceGames  = filepath.Join(dataDir, "games-validation.tar.xz")
)

// fullEnv names the environment variable that makes TestReferenceAgreement label all reference games
// (about 5 minutes with two engines) instead of a sample of 10.
const fullEnv = "AJI_LABEL_FULL"

// needReference skips the test when the data folder or GNU Go is missing.
func needReference(t *testing.T) []Label {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: labelling runs GNU Go")
	}
	for _, p := range []string{referenceLabels, referenceGames} {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("reference data absent (%v); it lives in ../shared/data", err)
		}
	}
	if _, err := gtp.LookPath("gnugo"); err != nil {
		t.Skipf("gnugo not installed (apt-get install gnugo): %v", err)
	}
	ref, err := ReadFile(referenceLabels)
	if err != nil {
		t.Fatal(err)
	}
	return ref
}

// agreement is the tally of one comparison with the reference.
type agreement struct {
	games, points, agree int
	badGames             []string // "name: n points" for games with any disagreement
}

func (a *agreement) add(name string, got, want []int8) {
	a.games++
	a.points += len(want)
	diff := 0
	for i := range want {
		if got[i] == want[i] {
			a.agree++
		} else {
			diff++
		}
	}
	if diff > 0 {
		a.badGames = append(a.badGames, fmt.Sprintf("%s: %d", name, diff))
	}
}

func (a *agreement) rate() float64 { return float64(a.agree) / float64(max(a.points, 1)) }

// TestReferenceAgreement labels reference games with GNU Go and requires ≥ 99% point agreement with the
// reference labels (issue 5). It also reports the agreement of the plain flood fill, without GNU Go's
// territory and dame lists, to show what they are worth. A sample of 10 games (every 30th) by default; all of them
// with AJI_LABEL_FULL=1.
func TestReferenceAgreement(t *testing.T) {
	ref := needReference(t)
	want := map[string]*Label{}
	for i := range ref {
		if os.Getenv(fullEnv) != "" || i%30 == 0 {
			want[ref[i].Game] = &ref[i]
		}
	}
	type job struct {
		name string
		g    *game.Game
	}
	jobs := make(chan job)
	var (
		mu              sync.Mutex
		withDame, flood agreement
		fields          []string // scalar fields that differ from the reference
		failed          []error
		wg              sync.WaitGroup
		start           = time.Now()
		ctx             = t.Context()
		engines         = DefaultEngines
		labelers        []*Labeler
	)
	for range engines {
		l, err := NewLabeler(ctx, DefaultEngine)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		labelers = append(labelers, l)
	}
	for _, l := range labelers {
		wg.Go(func() {
			for j := range jobs {
				lab, plain, err := labelBoth(ctx, l, j.name, j.g)
				mu.Lock()
				if err != nil {
					failed = append(failed, err)
				} else {
					r := want[j.name]
					withDame.add(j.name, lab.Labels, r.Labels)
					flood.add(j.name, plain.Labels, r.Labels)
					if d := scalarDiff(lab, r); d != "" {
						fields = append(fields, j.name+": "+d)
					}
				}
				mu.Unlock()
			}
		})
	}
	seen := 0
	_, err := dataset.Walk(ctx, referenceGames, dataset.Filter{}, func(rec dataset.Record) error {
		if want[rec.Name] == nil {
			return nil
		}
		if rec.Err != nil {
			return rec.Err
		}
		seen++
		jobs <- job{rec.Name, rec.Games[0]}
		return nil
	})
	close(jobs)
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(want) {
		t.Errorf("found %d of the %d reference games in %s", seen, len(want), referenceGames)
	}
	for _, err := range failed {
		t.Error(err)
	}
	t.Logf("%d games in %s with %d engines", withDame.games, time.Since(start).Round(time.Second), engines)
	t.Logf("with GNU Go's lists: %d/%d points agree (%.4f%%); games with any disagreement: %d %v",
		withDame.agree, withDame.points, 100*withDame.rate(), len(withDame.badGames), withDame.badGames)
	t.Logf("plain flood fill:   %d/%d points agree (%.4f%%); games with any disagreement: %d",
		flood.agree, flood.points, 100*flood.rate(), len(flood.badGames))
	for _, f := range fields {
		t.Logf("fields differ: %s", f)
	}
	if withDame.rate() < 0.99 {
		t.Errorf("agreement %.4f < 0.99", withDame.rate())
	}
}

// labelBoth labels g as Label does, and also by the flood fill alone (the engine's dead stones only).
func labelBoth(ctx context.Context, l *Labeler, name string, g *game.Game) (lab, plain *Label, err error) {
	pos, err := g.PositionAfter(-1)
	if err != nil {
		return nil, nil, err
	}
	st, err := l.status(ctx, pos, g.Info.Komi)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	if lab, err = FromPosition(name, g, pos, st); err != nil {
		return nil, nil, err
	}
	plain, err = FromPosition(name, g, pos, &Status{Dead: st.Dead})
	return lab, plain, err
}

// scalarDiff describes the fields other than the labels in which got differs from want.
func scalarDiff(got, want *Label) string {
	g, w := *got, *want
	g.Labels, w.Labels = nil, nil
	if gk, wk := g.KomiInferred, w.KomiInferred; (gk == nil) != (wk == nil) || gk != nil && *gk != *wk {
		return fmt.Sprintf("komi_inferred %v, want %v", gk, wk)
	}
	g.KomiInferred, w.KomiInferred = nil, nil
	if !reflect.DeepEqual(g, w) {
		return fmt.Sprintf("%+v, want %+v", g, w)
	}
	return ""
}
