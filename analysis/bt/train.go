package bt

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"
)

// Group is a range [Lo, Hi) of mutually exclusive γ indices — the levels of one feature, or all shapes —
// which no team holds two of, so one pass over the data updates them all (Coulom 2007 §2.5, batch updates).
type Group struct {
	Name   string
	Lo, Hi int
	// Overlap marks a group whose members a team may hold several of (binary features that are not
	// levels of one feature, such as cfgbt's path features). One pass still updates them all, by the
	// maximum of a minorizer that also bounds the product of a team's members in the group (see
	// overlapUpdate); with no team holding two it is Coulom's update.
	Overlap bool
}

// TrainOptions tune Train.
type TrainOptions struct {
	Iterations int     // passes over every group (default 25)
	Tolerance  float64 // stop early once the mean log-likelihood gains less than this per iteration (default 1e-5)
	Workers    int     // goroutines (default GOMAXPROCS)
	// Progress, if set, is called after every iteration.
	Progress func(Iteration)
}

// Iteration reports one pass of Train.
type Iteration struct {
	N             int
	LogLikelihood float64 // mean log-probability of the winners, before the iteration's last group update
	Seconds       float64
}

// Train runs minorization-maximization on data, improving gamma in place (start it at 1, or at a
// checkpoint to resume). Every γ gets the prior of one virtual win and one virtual loss against a
// virtual opponent of strength 1 (Coulom §3.3), so
//
//	γ_i ← (W_i + 1) / (Σ_j C_ij/E_j + 2/(γ_i + 1))        (Coulom §2.5, with the prior's two games)
//
// where W_i counts the wins of teams holding i, E_j is the total strength of competition j and C_ij the
// strength of i's team mates in j (summed over its teams holding i, with their multiplicities).
func Train(ctx context.Context, data *Competitions, gamma []float64, groups []Group, opt TrainOptions) error {
	return TrainShards(ctx, []*Competitions{data}, gamma, groups, opt)
}

// TrainShards is Train over data held in several stores (e.g. one per Collect worker), so a large
// training set never needs one joined copy.
func TrainShards(ctx context.Context, shards []*Competitions, gamma []float64, groups []Group, opt TrainOptions) error {
	for _, data := range shards {
		if len(gamma) != data.numGamma {
			return fmt.Errorf("bt: %d γ for a model of %d", len(gamma), data.numGamma)
		}
	}
	if opt.Iterations <= 0 {
		opt.Iterations = 25
	}
	if opt.Tolerance <= 0 {
		opt.Tolerance = 1e-5
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	wins := make([]float64, len(gamma))
	for _, data := range shards {
		for _, t := range data.winner {
			for _, m := range data.team(t) {
				wins[m]++
			}
		}
	}
	kmax := make([]int, len(groups)) // of Overlap groups, found on first use
	prev := math.Inf(-1)
	for it := 1; it <= opt.Iterations; it++ {
		start := time.Now()
		var ll float64
		for gi, g := range groups {
			if err := ctx.Err(); err != nil {
				return err
			}
			if g.Overlap {
				if kmax[gi] == 0 {
					kmax[gi] = maxMembers(shards, g)
				}
				den, logLik := passOverlap(shards, gamma, g, kmax[gi], opt.Workers)
				ll = logLik
				for i := g.Lo; i < g.Hi; i++ {
					k := kmax[gi]
					gamma[i] = overlapUpdate(gamma[i], wins[i], den[(i-g.Lo)*k:(i-g.Lo+1)*k])
					if !(gamma[i] > 0) || math.IsInf(gamma[i], 0) {
						return fmt.Errorf("bt: group %s: γ %d became %v", g.Name, i, gamma[i])
					}
				}
				continue
			}
			den, logLik := pass(shards, gamma, g, opt.Workers)
			ll = logLik
			for i := g.Lo; i < g.Hi; i++ {
				gamma[i] = (wins[i] + 1) / (den[i-g.Lo] + 2/(gamma[i]+1))
			}
		}
		if opt.Progress != nil {
			opt.Progress(Iteration{it, ll, time.Since(start).Seconds()})
		}
		if ll-prev < opt.Tolerance {
			break
		}
		prev = ll
	}
	return nil
}

// team returns the members of team t.
func (c *Competitions) team(t int32) []int32 {
	lo := int32(0)
	if t > 0 {
		lo = c.teamEnd[t-1]
	}
	return c.members[lo:c.teamEnd[t]]
}

// pass computes, for every γ of group g, Σ_j C_ij/E_j over all competitions of all shards, and the mean
// log-likelihood of the winners, splitting each shard over workers.
func pass(shards []*Competitions, gamma []float64, g Group, workers int) (den []float64, logLik float64) {
	return runPass(shards, g.Hi-g.Lo, workers, func(c *Competitions, lo, hi int, den []float64) float64 {
		return c.passRange(gamma, g, lo, hi, den)
	})
}

// runPass splits every shard over workers, runs f on each part with its own den of the given width, and
// returns the dens summed in a fixed order and the mean of f's log-likelihoods per competition.
func runPass(shards []*Competitions, width, workers int, f func(c *Competitions, lo, hi int, den []float64) float64) (den []float64, logLik float64) {
	type job struct {
		c      *Competitions
		lo, hi int
		den    []float64
		ll     float64
	}
	var jobs []*job
	n := 0
	for _, c := range shards {
		m := c.Len()
		n += m
		for w := range workers {
			jobs = append(jobs, &job{c: c, lo: m * w / workers, hi: m * (w + 1) / workers})
		}
	}
	var wg sync.WaitGroup
	sem := make(chan struct{}, workers)
	for _, j := range jobs {
		sem <- struct{}{}
		wg.Go(func() {
			j.den = make([]float64, width)
			j.ll = f(j.c, j.lo, j.hi, j.den)
			<-sem
		})
	}
	wg.Wait()
	den = make([]float64, width)
	for _, j := range jobs {
		for i, v := range j.den {
			den[i] += v
		}
		logLik += j.ll
	}
	return den, logLik / float64(max(n, 1))
}

// strengths writes into strength the strength of each team of competition j (the product of its γ) and
// returns its first and last team and 1/E_j, E_j = Σ_t multiplicity_t · strength_t (Coulom §2.5).
func (c *Competitions) strengths(j int, gamma []float64, strength []float64) (s []float64, first, last int32, inv float64) {
	if j > 0 {
		first = c.compEnd[j-1]
	}
	last = c.compEnd[j]
	s = strength[:0]
	e := 0.0
	for t := first; t < last; t++ {
		st := 1.0
		for _, m := range c.team(t) {
			st *= gamma[m]
		}
		s = append(s, st)
		e += float64(c.weight[t]) * st
	}
	return s, first, last, 1 / e
}

func (c *Competitions) passRange(gamma []float64, g Group, lo, hi int, den []float64) (logLik float64) {
	var strength []float64
	lo32, hi32 := int32(g.Lo), int32(g.Hi)
	for j := lo; j < hi; j++ {
		var first, last int32
		var inv float64
		strength, first, last, inv = c.strengths(j, gamma, strength)
		for t := first; t < last; t++ {
			for _, m := range c.team(t) {
				if m >= lo32 && m < hi32 {
					// C_ij: the team's strength without γ_m, times its multiplicity.
					den[m-lo32] += float64(c.weight[t]) * strength[t-first] / gamma[m] * inv
					break // at most one member of a group per team
				}
			}
		}
		logLik += math.Log(strength[c.winner[j]-first] * inv)
	}
	return logLik
}

// Elo returns 400·log10 γ, the rating of a feature on the Elo scale (Coulom §2.1).
func Elo(gamma float64) float64 { return 400 * math.Log10(gamma) }
