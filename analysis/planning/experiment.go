package planning

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
)

// Config is one error-rate experiment (Stern §6.2.3): Trees trees of one kind and shape, each planned
// by every method, the choice after each budget checked against the tree's minimax values.
type Config struct {
	Kind    Kind
	B, D    int
	Trees   int
	Budgets []int    // leaf evaluations, ascending, ≥ 1
	Methods []string // names from Methods
	Seed    uint64
	Workers int         // goroutines; GOMAXPROCS when 0
	Done    func(n int) // called after each tree and method, with 1 (progress); may be nil
}

// Curve is one method's errors: Errors[k] trees of Trees chose a move that is not minimax-optimal
// after Budgets[k] leaf evaluations.
type Curve struct {
	Method    string    `json:"method"`
	Errors    []int     `json:"errors"`
	ErrorRate []float64 `json:"error_rate"`
}

// Result is an experiment's outcome.
type Result struct {
	Tree     string  `json:"tree"`
	B        int     `json:"branching"`
	D        int     `json:"depth"`
	Trees    int     `json:"trees"`
	Seed     uint64  `json:"seed"`
	Budgets  []int   `json:"budgets"`
	RootWins int     `json:"root_wins"` // trees whose root MAX can win
	Curves   []Curve `json:"curves"`
}

// TreeSeed is the seed of tree i of an experiment seeded seed.
func TreeSeed(seed uint64, i int) uint64 { return mix(seed*0x2545f4914f6cdd1d + uint64(i)) }

// Run runs the experiment. A root move counts as an error when it is not minimax-optimal: not a win
// while some root move wins (when none does, every move is optimal). Each tree and method gets its own
// random stream, so the result does not depend on the number of workers.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.B < 2 || cfg.D < 1 || cfg.Trees < 1 || len(cfg.Budgets) == 0 || len(cfg.Methods) == 0 {
		return nil, fmt.Errorf("planning: need B ≥ 2, D ≥ 1, trees ≥ 1, budgets and methods")
	}
	for k, b := range cfg.Budgets {
		if b < 1 || (k > 0 && b <= cfg.Budgets[k-1]) {
			return nil, fmt.Errorf("planning: budgets must be ≥ 1 and ascending, got %v", cfg.Budgets)
		}
	}
	planners := make([]Planner, len(cfg.Methods))
	for m, name := range cfg.Methods {
		p, err := NewPlanner(name, cfg.B)
		if err != nil {
			return nil, err
		}
		planners[m] = p
	}
	// Each method's random stream follows from the tree's seed and the method's name, so a method's
	// curve does not depend on which others run beside it.
	streams := make([]uint64, len(cfg.Methods))
	for m, name := range cfg.Methods {
		for _, c := range []byte(name) {
			streams[m] = mix(streams[m] ^ uint64(c))
		}
	}
	res := &Result{Tree: cfg.Kind.String(), B: cfg.B, D: cfg.D, Trees: cfg.Trees, Seed: cfg.Seed, Budgets: cfg.Budgets}
	for _, name := range cfg.Methods {
		res.Curves = append(res.Curves, Curve{Method: name, Errors: make([]int, len(cfg.Budgets))})
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		next = make(chan int)
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ts := TreeSeed(cfg.Seed, i)
				t := NewTree(cfg.Kind, cfg.B, cfg.D, ts)
				wins := t.RootValues()
				opt := Optimal(wins)
				rootWin := false
				for _, w := range wins {
					rootWin = rootWin || w
				}
				for m, p := range planners {
					if ctx.Err() != nil {
						break
					}
					choices := p.Plan(t, cfg.Budgets, rand.New(rand.NewPCG(ts, streams[m])))
					mu.Lock()
					for k, a := range choices {
						if !opt[a] {
							res.Curves[m].Errors[k]++
						}
					}
					mu.Unlock()
					if cfg.Done != nil {
						cfg.Done(1)
					}
				}
				if rootWin {
					mu.Lock()
					res.RootWins++
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for i := range cfg.Trees {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for m := range res.Curves {
		c := &res.Curves[m]
		c.ErrorRate = make([]float64, len(c.Errors))
		for k, e := range c.Errors {
			c.ErrorRate[k] = float64(e) / float64(cfg.Trees)
		}
	}
	return res, nil
}
