package cfgbt

import (
	"context"
	"errors"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"aji/analysis/board"
	"aji/analysis/bt"
	"aji/analysis/cfg"
	"aji/analysis/dataset"
	"aji/analysis/feature"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
	"aji/analysis/predict/mm"
	"aji/assets"
	"aji/models"
	"aji/models/modeltest"
)

// sampleFolder writes the embedded sample games to a folder.
func sampleFolder(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := assets.WriteGames(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sampleGame returns the main line of the first sample game.
func sampleGame(t testing.TB) *game.Game {
	t.Helper()
	data, err := assets.Game("Agon-01-8.sgf")
	if err != nil {
		t.Fatal(err)
	}
	gs, err := game.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return gs[0]
}

// trained caches one small model of each variant trained on the sample games.
var trained = struct {
	sync.Mutex
	m map[Variant]*Model
}{m: map[Variant]*Model{}}

func trainedModel(t testing.TB, v Variant) *Model {
	t.Helper()
	trained.Lock()
	defer trained.Unlock()
	if m := trained.m[v]; m != nil {
		return m
	}
	m, _, err := Train(context.Background(), sampleFolder(t), TrainOptions{Variant: v, MinCount: 3, Iterations: 8, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	trained.m[v] = m
	return m
}

// TestAtariPathFeature: in a hand-made atari, the walk from the liberty to the stone in atari and back
// has the label that Algorithm 1 gives by hand, and the predictor puts its γ in the liberty's team.
func TestAtariPathFeature(t *testing.T) {
	b, err := board.Parse(`
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . X . . . .
		. . . X O X . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .
		. . . . . . . . .`)
	if err != nil {
		t.Fatal(err)
	}
	pos := &game.Position{Board: *b, ToPlay: board.Black, Last: board.NoPoint, Prev: board.NoPoint}
	lib := board.At(4, 5) // E4, the white stone's only liberty
	// Algorithm 1, one iteration, by hand. The liberty has three empty neighbours (fewer than 4) and
	// the white stone (OPP for Black to play); the white stone has the three black stones (each its own
	// chain, OWN) and the liberty.
	// Sums wrap modulo 2^32.
	empty, own, opp := cfg.LabelEmpty, cfg.LabelOwn, cfg.LabelOpp
	lLib := cfg.Mix32(bits.RotateLeft32(empty, 1) + opp + 3*empty)
	lWhite := cfg.Mix32(bits.RotateLeft32(opp, 1) + 3*own + empty)
	want := cfg.PathLabel(lLib, lWhite, lLib)

	m, err := NewModel(Small, nil, false, 1, [][]uint32{{want}}, map[uint32]uint32{want: 42})
	if err != nil {
		t.Fatal(err)
	}
	i, ok := m.PathIndex(want)
	if !ok {
		t.Fatal("the model has no γ for its own label")
	}
	m.Gamma[i] = 5
	p := NewPredictor("cfg", m, false)
	var d predict.Distribution
	p.Predict(pos, &d)
	// Every other γ is 1, so the liberty is 5 times as likely as any move without the feature.
	other := board.At(0, 0)
	if r := d.P[lib] / d.P[other]; math.Abs(r-5) > 1e-9 {
		t.Errorf("P(E4)/P(A9) = %v, want 5 from the path feature's γ", r)
	}
	ex := p.Explain(pos, lib)
	found := false
	for _, f := range ex.Factors {
		if f.Name == "CFG path "+cfg.FeatureString(want)+" (seen 42 times in training)" && f.Weight == 5 {
			found = true
		}
	}
	if !found {
		t.Errorf("explanation of E4 lacks the path %s: %+v", cfg.FeatureString(want), ex.Factors)
	}
	if g, ok := p.PathGamma(want); !ok || g != 5 {
		t.Errorf("PathGamma = %v %v, want 5 true", g, ok)
	}
	if _, ok := p.PathGamma(want ^ 1); ok {
		t.Error("PathGamma found a label the model lacks")
	}
	// No other point has this walk: the label's first byte is the liberty's own.
	for _, q := range b.Points() {
		if q != lib && d.P[q] != 0 && d.P[q] != d.P[other] {
			t.Errorf("%s has probability %v, want %v", q.GTP(9), d.P[q], d.P[other])
		}
	}
}

func TestModelRoundTripAndCorruption(t *testing.T) {
	for _, v := range []Variant{Full, Small} {
		m := trainedModel(t, v)
		path := filepath.Join(t.TempDir(), "cfg.ajim")
		if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		got, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if got.Variant != m.Variant || got.HashIterations != m.HashIterations || !slices.Equal(got.Gamma, m.Gamma) ||
			!slices.Equal(got.Labels, m.Labels) || !slices.Equal(got.Counts, m.Counts) ||
			!slices.Equal(got.GroupEnd, m.GroupEnd) || got.Shapes.Len() != m.Shapes.Len() || got.Positions != m.Positions {
			t.Fatalf("%v: round trip changed the model", v)
		}
		for _, l := range m.Labels {
			i, _ := m.PathIndex(l)
			j, ok := got.PathIndex(l)
			if !ok || i != j {
				t.Fatalf("%v: label %x at γ %d, after loading %d %v", v, l, i, j, ok)
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range [][]byte{
			data[:len(data)-1],      // truncated
			flip(data, len(data)/2), // corrupted payload
			flip(data, 9),           // kind
		} {
			if _, err := Decode(bad, "bad.ajim"); !errors.Is(err, models.ErrFormat) || !strings.Contains(err.Error(), "bad.ajim") {
				t.Errorf("%v: a damaged file gave %v, want an error naming it and wrapping ErrFormat", v, err)
			}
		}
	}
	// A payload that passes the checksum but is inconsistent: a γ that is not positive.
	m := trainedModel(t, Small)
	bad := &Model{Variant: m.Variant, HashIterations: m.HashIterations, Shapes: m.Shapes, Labels: m.Labels,
		Counts: m.Counts, GroupEnd: m.GroupEnd, Gamma: slices.Clone(m.Gamma)}
	bad.Gamma[len(bad.Gamma)-1] = -1
	p, err := bad.payload()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "neg.ajim")
	if err := models.WriteFile(path, fileHeader, p); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); !errors.Is(err, models.ErrFormat) {
		t.Errorf("a negative γ gave %v", err)
	}
}

func flip(data []byte, i int) []byte {
	out := slices.Clone(data)
	out[i] ^= 0x40
	return out
}

// TestCountLabelsByBruteForce recounts the labels at the sampled expert moves with a fresh graph per
// move and compares with CountLabels.
func TestCountLabelsByBruteForce(t *testing.T) {
	dir := sampleFolder(t)
	opt := TrainOptions{PositionsPerGame: 30, Seed: 7, HashIterations: 1, Workers: 2}
	counts, st, err := CountLabels(context.Background(), dir, opt)
	if err != nil {
		t.Fatal(err)
	}
	want := map[uint32]uint32{}
	moves := 0
	// A folder is read in name order; the index of a game is its place in that order.
	names := slices.Sorted(slices.Values(assets.Games()))
	for index, name := range names {
		data, _ := assets.Game(name)
		gs, _ := game.Parse(data)
		picks := dataset.SamplePositions(nil, gs[0].NumMoves(), opt.PositionsPerGame, opt.Seed, index)
		_ = gs[0].WalkMainLine(func(pos *game.Position, next game.Move) error {
			if pos.MoveNumber >= len(picks) || !picks[pos.MoveNumber] || next.Point == board.Pass {
				return nil
			}
			moves++
			for _, l := range cfg.Build(&pos.Board, pos.ToPlay, 1).PathFeatures(next.Point, nil) {
				want[l]++
			}
			return nil
		})
	}
	if st.Moves != moves {
		t.Fatalf("counted at %d moves, brute force %d", st.Moves, moves)
	}
	n := 0
	for l, c := range counts {
		if c != want[uint32(l)] {
			t.Fatalf("label %s counted %d times, brute force %d", cfg.FeatureString(uint32(l)), c, want[uint32(l)])
		}
		if c > 0 {
			n++
		}
	}
	if n != len(want) || n < 50 {
		t.Fatalf("%d labels counted, %d by brute force", n, len(want))
	}
}

// TestTrainOnSampleGames trains both variants on the sample games: every kept label was seen MinCount
// times, MM raises the likelihood, and the trained model predicts the training moves better than a
// uniform choice.
func TestTrainOnSampleGames(t *testing.T) {
	for _, v := range []Variant{Full, Small} {
		var lls []float64
		m, st, err := Train(context.Background(), sampleFolder(t), TrainOptions{Variant: v, MinCount: 3, Iterations: 6,
			Workers: 2, MMProgress: func(it bt.Iteration) { lls = append(lls, it.LogLikelihood) }})
		if err != nil {
			t.Fatal(err)
		}
		if st.Labels == 0 || st.Labels != len(m.Labels) || st.Labels >= st.DistinctLabels {
			t.Fatalf("%v: %d labels kept of %d, model has %d", v, st.Labels, st.DistinctLabels, len(m.Labels))
		}
		for _, c := range m.Counts {
			if c < 3 {
				t.Fatalf("%v: a label seen %d times was kept", v, c)
			}
		}
		for i := 1; i < len(lls); i++ {
			if lls[i] < lls[i-1]-1e-9 {
				t.Errorf("%v: log-likelihood fell at iteration %d: %v", v, i+1, lls)
			}
		}
		moved := 0
		for _, g := range m.Gamma[m.PathBase():] {
			if math.Abs(math.Log(g)) > 0.05 {
				moved++
			}
		}
		if moved == 0 {
			t.Errorf("%v: no path γ moved away from 1", v)
		}
		// Mean log-evidence of the expert moves of the first game under the model and uniformly.
		p := NewPredictor("cfg", m, false)
		var d predict.Distribution
		var model, uniform float64
		n := 0
		_ = sampleGame(t).WalkMainLine(func(pos *game.Position, next game.Move) error {
			if next.Point == board.Pass {
				return nil
			}
			p.Predict(pos, &d)
			model += math.Log(d.P[next.Point])
			d.Uniform(pos)
			uniform += math.Log(d.P[next.Point])
			n++
			return nil
		})
		if model/float64(n) < uniform/float64(n)+1 {
			t.Errorf("%v: mean log-evidence %.3f, uniform %.3f", v, model/float64(n), uniform/float64(n))
		}
	}
}

// TestDistributionSumsToOne on every position of a real game, stepping through it (the incremental
// common fate graph) and jumping about (from scratch), and checks both give the same distributions as
// the from-scratch graph training uses.
func TestDistributionSumsToOne(t *testing.T) {
	for _, v := range []Variant{Full, Small} {
		m := trainedModel(t, v)
		step := NewPredictor("cfg", m, false)
		var positions []game.Position
		_ = sampleGame(t).WalkMainLine(func(pos *game.Position, _ game.Move) error {
			positions = append(positions, *pos)
			return nil
		})
		var d, e predict.Distribution
		for i := range positions {
			pos := &positions[i]
			step.Predict(pos, &d)
			sum := 0.0
			for _, q := range append(pos.Board.Points(), board.Pass) {
				if d.P[q] < 0 || (d.P[q] > 0) != (q == board.Pass || pos.Board.Legal(q, pos.ToPlay)) {
					t.Fatalf("%v move %d: P(%s) = %v", v, i, q.GTP(19), d.P[q])
				}
				sum += d.P[q]
			}
			if math.Abs(sum-1) > 1e-9 {
				t.Fatalf("%v move %d: probabilities sum to %v", v, i, sum)
			}
			// The same position from scratch, through the training's team builder.
			scratch := newTeams(m, false, false)
			e.Reset(pos.Board.Size())
			total := 0.0
			var team []int32
			for _, mv := range scratch.Position(pos) {
				team = scratch.Team(team[:0], mv)
				s := 1.0
				for _, k := range team {
					s *= m.Gamma[k]
				}
				e.P[mv] = s
				total += s
			}
			for _, q := range append(pos.Board.Points(), board.Pass) {
				if math.Abs(e.P[q]/total-d.P[q]) > 1e-12 {
					t.Fatalf("%v move %d: P(%s) = %v incrementally, %v from scratch", v, i, q.GTP(19), d.P[q], e.P[q]/total)
				}
			}
		}
		// Jumping back and forth gives the same as stepping.
		jump := NewPredictor("cfg", m, false)
		for _, i := range []int{150, 20, 21, 22, 200, 0, 199} {
			if i >= len(positions) {
				continue
			}
			step.Predict(&positions[i], &d)
			jump.Predict(&positions[i], &e)
			if d != e {
				t.Fatalf("%v: position %d predicted differently after a jump", v, i)
			}
		}
	}
}

func TestExplainListsFactorsOnce(t *testing.T) {
	m := trainedModel(t, Full)
	p := NewPredictor("cfg", m, false)
	var pos game.Position
	_ = sampleGame(t).WalkMainLine(func(q *game.Position, _ game.Move) error {
		if q.MoveNumber == 80 {
			pos = *q
		}
		return nil
	})
	all := predict.ExplainAll(p, &pos)
	if p.runs != 1 {
		t.Fatalf("explaining every point computed features %d times", p.runs)
	}
	paths := 0
	var d predict.Distribution
	p.Predict(&pos, &d)
	for _, ex := range all {
		if ex.Rank != d.Rank(&pos, ex.Point) {
			t.Fatalf("%s: rank %d, want %d", ex.Point.GTP(19), ex.Rank, d.Rank(&pos, ex.Point))
		}
		logS, abs := 0.0, 0.0
		for _, f := range ex.Factors {
			if strings.HasPrefix(f.Name, "CFG path") {
				paths++
			}
			logS += math.Log(f.Weight)
			abs += math.Abs(f.Share)
		}
		if len(ex.Factors) > 0 && math.Abs(abs-1) > 1e-9 && logS != 0 {
			t.Fatalf("%s: shares sum to %v in absolute value", ex.Point.GTP(19), abs)
		}
	}
	if paths == 0 {
		t.Error("no explanation lists a path feature")
	}
}

func TestNoModelError(t *testing.T) {
	// A name with no embedded model stands for a build without one.
	_, err := shared.Load("cfg-none", "")
	if !errors.Is(err, models.ErrNoDefault) || !strings.Contains(err.Error(), "cfg-none") {
		t.Errorf("got %v, want a clear no-model error", err)
	}
	path := filepath.Join(t.TempDir(), "small.ajim")
	if err := trainedModel(t, Small).Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Shared(Full, path); err == nil || !strings.Contains(err.Error(), "variant") {
		t.Errorf("a small model as cfg gave %v", err)
	}
}

// TestSmallExplainDrawsTheThreeByThree: the small variant's shape factor comes with its 8 cells.
func TestSmallExplainDrawsTheThreeByThree(t *testing.T) {
	p := NewPredictor("cfg-small", trainedModel(t, Small), false)
	var pos game.Position
	_ = sampleGame(t).WalkMainLine(func(q *game.Position, _ game.Move) error {
		if q.MoveNumber == 60 {
			pos = *q
		}
		return nil
	})
	shapes := 0
	for _, ex := range predict.ExplainAll(p, &pos) {
		for _, f := range ex.Factors {
			if strings.HasPrefix(f.Name, "3x3 shape") {
				shapes++
				if ex.PatternSize != 3 || len(ex.Pattern) != 8 {
					t.Fatalf("%s: shape of size %d with %d cells", ex.Point.GTP(19), ex.PatternSize, len(ex.Pattern))
				}
			}
		}
	}
	if shapes == 0 {
		t.Fatal("no explanation has a 3x3 shape")
	}
}

// TestInitAndFixShapes: training from an mm model with its shapes fixed keeps their γ and fits the rest.
func TestInitAndFixShapes(t *testing.T) {
	dir := sampleFolder(t)
	shapes, _, err := pattern.Harvest(context.Background(), dir, pattern.Options{Threshold: 2, FilterBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	init := mm.NewModel(shapes, false)
	for i := feature.NumIndices; i < len(init.Gamma); i++ {
		init.Gamma[i] = 2.5
	}
	m, _, err := Train(context.Background(), dir, TrainOptions{Init: init, FixShapes: true, MinCount: 3, Iterations: 4, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m.Shapes != shapes || m.PathBase() != len(init.Gamma) {
		t.Fatal("the model does not use the initial model's shapes")
	}
	for i := feature.NumIndices; i < m.PathBase(); i++ {
		if m.Gamma[i] != 2.5 {
			t.Fatalf("shape γ %d moved to %v", i, m.Gamma[i])
		}
	}
	if c := feature.Index(feature.Capture, feature.CaptureNewAtari); m.Gamma[c] == 1 {
		t.Error("the tactical γ were not fitted")
	}
}

// TestEmbeddedModels decodes the embedded default models, if any, and predicts a real position with each.
func TestEmbeddedModels(t *testing.T) {
	for _, c := range []struct {
		name string
		v    Variant
	}{{Name, Full}, {SmallName, Small}} {
		data, ok := models.Default(c.name)
		if !ok {
			t.Logf("no %s model embedded", c.name)
			continue
		}
		m, err := Decode(data, c.name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Variant != c.v || len(m.Labels) < 1000 {
			t.Fatalf("%s: the %v variant with %d path labels", c.name, m.Variant, len(m.Labels))
		}
		p := NewPredictor(c.name, m, false)
		var d predict.Distribution
		var pos game.Position
		_ = sampleGame(t).WalkMainLine(func(q *game.Position, _ game.Move) error {
			if q.MoveNumber == 120 {
				pos = *q
			}
			return nil
		})
		p.Predict(&pos, &d)
		sum := d.P[board.Pass]
		for _, q := range pos.Board.Points() {
			sum += d.P[q]
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: probabilities sum to %v", c.name, sum)
		}
	}
}

// FuzzDecodePayload fuzzes Decode behind a valid checksum (see modeltest), from a trained Full model and
// the head of a trained Small one. A whole Small payload is 66 KB, nearly all of it the γ of the 3x3
// shapes, and the fuzzer spends minutes minimising each new input that large (10 executions in a minute);
// cut after its labels, it still seeds the Small variant's header, labels and groups.
func FuzzDecodePayload(f *testing.F) {
	full, err := trainedModel(f, Full).payload()
	if err != nil {
		f.Fatal(err)
	}
	small := trainedModel(f, Small)
	head, err := small.payload()
	if err != nil {
		f.Fatal(err)
	}
	// The layout of payload: 16 bytes of header, labels and counts, the groups, then the γ count.
	head = head[:16+8*len(small.Labels)+4+4*len(small.GroupEnd)+4]
	seeds := [][]byte{full, head}
	modeltest.FuzzDecode(f, fileHeader, seeds, func(file []byte) error {
		_, err := Decode(file, "fuzz")
		return err
	})
}

// TestLoadFile: predict.Load makes a predictor of a cfg model file of either variant, named after it.
func TestLoadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "my-small.ajim")
	if err := trainedModel(t, Small).Save(path); err != nil {
		t.Fatal(err)
	}
	name, err := predict.Load(path)
	if err != nil || !strings.HasPrefix(name, "my-small") {
		t.Fatalf("Load = %q, %v", name, err)
	}
	p, err := predict.New(name, predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cp, ok := p.(*Predictor); !ok || cp.Model().Variant != Small || cp.Name() != name {
		t.Errorf("New(%s) = %T %v", name, p, p.Name())
	}
}
