package bayes

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/pattern"
	"aji/analysis/predict"
)

// positions returns the positions before moves 30 and 120 of a professional game.
func positions(t *testing.T) (early, late *game.Position) {
	t.Helper()
	gs, err := game.LoadFile(filepath.Join("..", "..", "..", "assets", "games", "Agon-01-8.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	err = gs[0].WalkMainLine(func(pos *game.Position, _ game.Move) error {
		switch pos.MoveNumber {
		case 30:
			c := *pos
			early = &c
		case 120:
			c := *pos
			late = &c
		}
		return nil
	})
	if err != nil || early == nil || late == nil {
		t.Fatalf("no positions at moves 30 and 120: %v", err)
	}
	return early, late
}

// template reads the template number of a pattern factor's name, "T9 pattern (used)".
func template(t *testing.T, f predict.Factor) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscanf(f.Name, "T%d pattern", &n); err != nil {
		t.Fatalf("factor %q names no template", f.Name)
	}
	return n
}

// TestExplain: every legal move of a real position is explained with the probability and rank the
// prediction gives it, by the chain of nested patterns that match there, largest first: the one
// the model uses, with Share 1, and the smaller ones with Share 0, each with its belief and counts.
func TestExplain(t *testing.T) {
	m := smallModel(t, 25, 2)
	pos, other := positions(t)
	for _, bern := range []bool{false, true} {
		p := NewPredictor("bayes", m, bern)
		var d predict.Distribution
		NewPredictor("fresh", m, bern).Predict(pos, &d)
		p.Predict(other, new(predict.Distribution)) // Explain must not reuse another position's work
		chains, longest, shown := 0, 0, ""
		b := &pos.Board
		for _, pt := range b.Points() {
			ex := p.Explain(pos, pt)
			if !b.Legal(pt, pos.ToPlay) {
				if len(ex.Factors) != 0 || ex.Probability != 0 {
					t.Fatalf("illegal %s explained: %+v", pt.GTP(19), ex)
				}
				continue
			}
			if ex.Probability != d.P[pt] || ex.Rank != d.Rank(pos, pt) {
				t.Fatalf("bernoulli %v, %s: probability %g rank %d, predicted %g rank %d", bern, pt.GTP(19), ex.Probability, ex.Rank, d.P[pt], d.Rank(pos, pt))
			}
			if len(ex.Factors) == 0 {
				t.Fatalf("%s: no factor", pt.GTP(19))
			}
			for i, f := range ex.Factors {
				if !(f.SD > 0) || f.Played < 0 || f.Seen < f.Played || f.Elo != 0 || !f.Bayesian() {
					t.Errorf("%s factor %d: %+v", pt.GTP(19), i, f)
				}
				if want := float64(min(i, 1) ^ 1); f.Share != want {
					t.Errorf("%s factor %d %q has share %g, want %g", pt.GTP(19), i, f.Name, f.Share, want)
				}
			}
			keys := pattern.SternKeysAt(b, pt, pos.ToPlay)
			id, largest, ok := m.Patterns.LargestStern(keys)
			if !ok {
				if ex.Factors[0].Name != "no known pattern" || ex.PatternSize != 0 || len(ex.Factors) != 1 {
					t.Errorf("%s has no pattern, explained by %+v", pt.GTP(19), ex.Factors)
				}
				continue
			}
			mean := m.Mu[id]
			if bern {
				mean = m.Bernoulli(id)
			}
			if f := ex.Factors[0]; template(t, f) != largest || ex.PatternSize != largest || math.Abs(f.Weight-mean) > 1e-12 || f.Seen != int(m.Seen[id]) || f.Played != int(m.Played[id]) {
				t.Errorf("%s: T%d of weight %g, first factor %+v, pattern size %d", pt.GTP(19), largest, mean, f, ex.PatternSize)
			}
			if !bern && math.Abs(ex.Factors[0].SD-math.Sqrt(m.Var[id])) > 1e-12 {
				t.Errorf("%s: σ %g, model %g", pt.GTP(19), ex.Factors[0].SD, math.Sqrt(m.Var[id]))
			}
			if len(ex.Pattern) != len(pattern.SternCells(b, pos.ToPlay, pt, largest)) {
				t.Errorf("%s: %d cells drawn for T%d", pt.GTP(19), len(ex.Pattern), largest)
			}
			for i := 1; i < len(ex.Factors); i++ {
				if template(t, ex.Factors[i]) >= template(t, ex.Factors[i-1]) {
					t.Errorf("%s: the chain %+v is not largest first", pt.GTP(19), ex.Factors)
				}
			}
			if len(ex.Factors) > 1 {
				chains++
			}
			if len(ex.Factors) > longest {
				shown = fmt.Sprintf("bernoulli %v: %s, %.2f%%, rank %d:", bern, pt.GTP(19), 100*ex.Probability, ex.Rank)
				for _, f := range ex.Factors {
					shown += fmt.Sprintf("\n  %-28s %+.3f ± %.3f  seen %d, played %d", f.Name, f.Weight, f.SD, f.Seen, f.Played)
				}
			}
			longest = max(longest, len(ex.Factors))
		}
		t.Log(shown) // the longest chain, for go test -v
		if chains == 0 || longest < 3 {
			t.Errorf("bernoulli %v: %d moves with a back-off chain, the longest %d", bern, chains, longest)
		}
		pass := p.Explain(pos, board.Pass)
		if len(pass.Factors) != 1 || pass.Factors[0].Name != "pass" || pass.Probability != d.P[board.Pass] {
			t.Errorf("pass explained as %+v", pass)
		}
	}
}

// TestSpread: the σ of every legal move's pattern, 0 elsewhere, no larger than the prior's, and
// different from move to move; it leaves Explain right for another position.
func TestSpread(t *testing.T) {
	m := smallModel(t, 20, 2)
	pos, other := positions(t)
	for _, bern := range []bool{false, true} {
		p := NewPredictor("bayes", m, bern)
		var out [board.NumCells]float64
		want := p.Explain(other, board.At(3, 3))
		prior := p.Spread(pos, &out)
		if got := p.Explain(other, board.At(3, 3)); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("after Spread of another position, Explain gives %+v, before %+v", got, want)
		}
		lo, hi := math.Inf(1), 0.0
		b := &pos.Board
		for _, pt := range append(b.Points(), board.Pass) {
			s := out[pt]
			if !b.Legal(pt, pos.ToPlay) {
				if s != 0 {
					t.Errorf("illegal %s has σ %g", pt.GTP(19), s)
				}
				continue
			}
			if !(s > 0) || s > prior*(1+1e-9) {
				t.Errorf("%s has σ %g, the prior %g", pt.GTP(19), s, prior)
			}
			if ex := p.Explain(pos, pt); math.Abs(ex.Factors[0].SD-s) > 1e-12 {
				t.Errorf("%s: σ %g, explained with %g", pt.GTP(19), s, ex.Factors[0].SD)
			}
			lo, hi = min(lo, s), max(hi, s)
		}
		if !(hi > 2*lo) {
			t.Errorf("bernoulli %v: σ only from %g to %g", bern, lo, hi)
		}
	}
}

// TestExplainHierarchical: in a hierarchical model the beliefs come down the chain of patterns,
// the move's σ the same in its explanation and its spread.
func TestExplainHierarchical(t *testing.T) {
	flat := smallModel(t, 5, 2)
	m := NewHierModel(flat.Patterns, DefaultBeta)
	copy(m.Seen, flat.Seen)
	copy(m.Played, flat.Played)
	pos, _ := positions(t)
	p := NewPredictor("hier", m, false)
	var out [board.NumCells]float64
	p.Spread(pos, &out)
	checked := 0
	for _, pt := range pos.Board.Points() {
		if !pos.Board.Legal(pt, pos.ToPlay) {
			continue
		}
		ex := p.Explain(pos, pt)
		if ex.PatternSize == 0 {
			continue
		}
		keys := pattern.SternKeysAt(&pos.Board, pt, pos.ToPlay)
		c := chainOf(m.Patterns, &keys)
		want := m.Hier.belief(&c)
		f := ex.Factors[0]
		if math.Abs(f.Weight-want.Mean()) > 1e-9 || math.Abs(f.SD-math.Sqrt(want.Var())) > 1e-9 || math.Abs(out[pt]-f.SD) > 1e-9 {
			t.Fatalf("%s: %+v, the chain's belief N(%g, %g), spread %g", pt.GTP(19), f, want.Mean(), want.Var(), out[pt])
		}
		checked++
	}
	if checked == 0 {
		t.Error("no move with a pattern")
	}
}

// TestExplainLinearSplitsLogP: the linear model's explanation lists each move's tactical features
// after its patterns, and splits log p between the pattern, the spread the features add and each
// feature, exactly, each feature's part of the sign of its μ.
func TestExplainLinearSplitsLogP(t *testing.T) {
	m, err := shared.Load(LinearName, "")
	if err != nil {
		t.Fatal(err)
	}
	p := NewPredictor(LinearName, m, false)
	_, pos := positions(t)
	split := 0
	for _, pt := range append(pos.Board.Points(), board.Pass) {
		if !pos.Board.Legal(pt, pos.ToPlay) {
			continue
		}
		ex := p.Explain(pos, pt)
		if ex.Probability == 0 {
			continue
		}
		sum, feats := 0.0, 0
		for _, f := range ex.Factors {
			sum += f.LogStrength
			if strings.HasSuffix(f.Name, "(linear)") && f.Name != "spread the features add (linear)" {
				feats++
				if math.Abs(f.Weight) > 1e-3 && f.LogStrength != 0 && (f.LogStrength > 0) != (f.Weight > 0) {
					t.Errorf("%s: %s has μ %g but part %g", pt.GTP(19), f.Name, f.Weight, f.LogStrength)
				}
			}
		}
		if want := math.Log(ex.Probability); math.Abs(sum-want) > 1e-9 {
			t.Errorf("%s: parts sum to %g, log p = %g", pt.GTP(19), sum, want)
		}
		if feats > 0 && ex.Factors[0].LogStrength != math.Log(ex.Probability) {
			split++
		}
	}
	if split < 50 {
		t.Errorf("only %d moves split between pattern and features", split)
	}
}
