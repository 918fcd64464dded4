package territory

import (
	"math/rand/v2"
	"testing"

	"aji/analysis/board"
)

// The block move must leave p(s|c) invariant for any mix of strong and weak couplings of both signs,
// blocks that split when a bond is not drawn, and fields on every point: SW against enumeration on
// random 4x4 fields whose couplings are ±2.5 (strong, so in blocks) or ±0.4.
func TestSWBlockMoveMatchesBruteForce(t *testing.T) {
	sweeps := 60000
	if testing.Short() {
		sweeps = 15000
	}
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 99))
		f := &Field{}
		f.reset(4)
		strong := 0
		for _, p := range board.PointsOf(4) {
			x, y := p.XY()
			f.H[p] = r.Float64() - 0.5
			for d, ok := range [2]bool{x < 3, y < 3} {
				if !ok {
					continue
				}
				w := 0.4
				if r.IntN(3) == 0 {
					w = 2.5
					strong++
				}
				if r.IntN(2) == 0 {
					w = -w
				}
				f.W[p][d] = w
			}
		}
		want, _ := brute(f)
		var sw SW
		var got Marginals
		sw.Run(f, &got, SampleOptions{Burnin: 100, Sweeps: sweeps, Seed: seed, RaoBlack: true})
		dm, dp := maxDiff(&got, &want)
		t.Logf("seed %d (%d strong pairs, %d blocks): max error mean %.4f pair %.4f", seed, strong, len(sw.bstart)-1, dm, dp)
		if dm > 0.03 || dp > 0.03 {
			t.Errorf("seed %d: SW max error mean %.4f pair %.4f, want ≤ 0.03", seed, dm, dp)
		}
	}
}

// Block bookkeeping on a real position: every point with a strong pair is in exactly one block with its
// chain, and the rest are Gibbs-updated singletons.
func TestSWBlocksAreChains(t *testing.T) {
	b := mustParse(t, pos19)
	q, _ := Boltzmann5Table51(80)
	var f Field
	q.Field(b, &f)
	var sw SW
	sw.setup(&f, 1, nil)
	pts := board.PointsOf(19)
	inBlock := map[int32]bool{}
	for k := range len(sw.bstart) - 1 {
		blk := sw.bpts[sw.bstart[k]:sw.bstart[k+1]]
		head := b.ChainHead(pts[blk[0]])
		for _, i := range blk {
			if b.At(pts[i]) == board.Empty || b.ChainHead(pts[i]) != head {
				t.Fatalf("block %d mixes %v with the chain at %v", k, pts[i], head)
			}
			inBlock[i] = true
		}
		if len(blk) != b.ChainSize(pts[blk[0]]) {
			t.Errorf("block %d has %d points, its chain %d stones", k, len(blk), b.ChainSize(pts[blk[0]]))
		}
	}
	for _, i := range sw.rest {
		if inBlock[i] {
			t.Fatalf("point %d is in a block and in the rest", i)
		}
		if c := b.At(pts[i]); c != board.Empty && b.ChainSize(pts[i]) > 1 {
			t.Errorf("stone %v of a chain of %d is not in a block", pts[i], b.ChainSize(pts[i]))
		}
	}
	if len(inBlock)+len(sw.rest) != 361 {
		t.Errorf("%d block points and %d others", len(inBlock), len(sw.rest))
	}
}

// SW starts from SampleOptions.Start and leaves its last state there, so that a persistent chain is
// the same Start passed again: runs from opposite starts differ, and the state left is a state.
func TestSWStart(t *testing.T) {
	f := field19(t)
	up, down := make([]int8, 361), make([]int8, 361)
	for i := range up {
		up[i], down[i] = 1, -1
	}
	var sw SW
	var a, b Marginals
	sw.Run(f, &a, SampleOptions{Sweeps: 1, Seed: 3, RaoBlack: true, Start: up})
	sw.Run(f, &b, SampleOptions{Sweeps: 1, Seed: 3, RaoBlack: true, Start: down})
	if a == b {
		t.Error("the start state made no difference")
	}
	flipped := 0
	for i, v := range up {
		if v != 1 && v != -1 {
			t.Fatalf("point %d left at %d", i, v)
		}
		if v == -1 {
			flipped++
		}
	}
	if flipped == 0 {
		t.Error("the last state was not written back to Start")
	}
}
