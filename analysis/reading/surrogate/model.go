package surrogate

import (
	"fmt"
	"os"

	"aji/analysis/board"
	"aji/analysis/reading"
	"aji/models"
)

// Model is a surrogate tree model: a prior for probability propagation's new leaves that learns
// from the trees the searches leave behind.
type Model interface {
	reading.Prior
	// Learn updates the model from every node of the solver's last search tree (Stern §4.4.2).
	Learn(s *reading.Solver)
	// Save writes the model file atomically.
	Save(path string) error
}

// Regime says which nodes of a search tree a model learns from (Stern Figure 4.13).
type Regime int8

const (
	// LearnProved learns from the nodes proved TRUE only.
	LearnProved Regime = iota
	// LearnSolved learns from the nodes proved TRUE or FALSE.
	LearnSolved
	// LearnAll learns from every node, an unsolved one through the probability of TRUE the search
	// ended with: assumed-density filtering (§4.4.2, eqs. 4.12–4.13).
	LearnAll
)

func (r Regime) String() string {
	switch r {
	case LearnProved:
		return "proved"
	case LearnSolved:
		return "solved"
	}
	return "all"
}

// ParseRegime reads "proved", "solved" or "all".
func ParseRegime(s string) (Regime, error) {
	for r := LearnProved; r <= LearnAll; r++ {
		if s == r.String() {
			return r, nil
		}
	}
	return 0, fmt.Errorf("unknown learning regime %q (proved, solved, all)", s)
}

// The model-file kinds.
const (
	BetaKind = "reading-beta"
	HierKind = "reading-hier"
)

// Load reads a surrogate model file of either kind, as its header says.
func Load(path string) (Model, error) {
	h, err := models.ReadHeaderFile(path)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load surrogate model: %w", err)
	}
	switch h.Kind {
	case BetaKind:
		return DecodeBeta(data, path)
	case HierKind:
		return DecodeHier(data, path)
	}
	return nil, fmt.Errorf("%s: %w: kind %q is not a reading surrogate (%s, %s)", path, models.ErrFormat, h.Kind, BetaKind, HierKind)
}

// observed is what a model learns from one node of a search tree: the keys of its move's patterns,
// who played it, and what the search found.
type observed struct {
	keys     Keys
	attacker bool // the attacker played the move
	solved   bool
	isTrue   bool
	p        float64
}

// observe calls fn for every node of s's last search tree that the regime learns from, with q the
// probability of TRUE to learn: 1 or 0 for a solved node, the search's P for an unsolved one.
//
// An unsolved node the search never developed is skipped: its P is the prior the model gave it,
// and feeding that back would count the model's own guess as evidence. In factor-graph terms the
// message from the search tree to the node's prior factor (Stern Figure 4.8) is the product of the
// upward message of its subtree — none for a leaf, so 0.5 — and the downward message from its
// parent, which is 0.5 under probability propagation's uniform root bias; a message of 0.5 leaves
// both models' beliefs unchanged (Z = ½ in eq. 4.12's posterior), so skipping it is exact.
func observe(s *reading.Solver, regime Regime, fn func(o *observed, q float64)) {
	s.Observe(func(ob reading.Observation) {
		var q float64
		switch {
		case ob.Solved && ob.True:
			q = 1
		case ob.Solved && regime >= LearnSolved:
			q = 0
		case !ob.Solved && regime == LearnAll && ob.Developed:
			q = ob.P
		default:
			return
		}
		o := observed{
			keys:     KeysOf(ob.Parent, ob.Move, ob.Target, ob.Attacker),
			attacker: ob.ToPlay == ob.Attacker,
			solved:   ob.Solved, isTrue: ob.True, p: ob.P,
		}
		fn(&o, q)
	})
}

// side is the table index of a move by toPlay: 0 for the attacker's moves, 1 for the defender's
// (Stern §4.4.1 keeps the two apart).
func side(toPlay, attacker board.Color) int {
	if toPlay == attacker {
		return 0
	}
	return 1
}
