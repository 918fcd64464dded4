package bt

import (
	"fmt"
	"slices"
)

// Competitions is the training data of a generalized Bradley-Terry model (Coulom 2007 §2.2): each
// competition is one expert move, its teams are the legal moves, a team is the set of γ indices of the
// features that move has, and the winning team is the expert's move. Identical teams of one competition
// are stored once with a multiplicity, which shrinks a 19x19 position from ~250 teams to a few dozen.
// Flat slices keep millions of competitions compact and cache-friendly.
type Competitions struct {
	members []int32   // γ indices of all teams, concatenated
	teamEnd []int32   // end of each team's members
	weight  []float32 // multiplicity of each team
	compEnd []int32   // end of each competition's teams
	winner  []int32   // winning team of each competition (index into teamEnd)

	// building state of the current competition
	open     bool
	start    int32            // first team of the open competition
	seen     map[uint64]int32 // team hash -> team index within the open competition
	scratch  []int32
	hasWin   bool
	numGamma int
}

// NewCompetitions makes an empty store for a model with numGamma parameters.
func NewCompetitions(numGamma int) *Competitions {
	return &Competitions{numGamma: numGamma, seen: map[uint64]int32{}}
}

// Begin opens a new competition.
func (c *Competitions) Begin() {
	c.open, c.hasWin = true, false
	c.start = int32(len(c.teamEnd))
	clear(c.seen)
}

// AddTeam adds a team (its γ indices, each at most once) to the open competition; win marks the
// expert's move. The members slice is copied.
func (c *Competitions) AddTeam(members []int32, win bool) error {
	if !c.open {
		return fmt.Errorf("bt: AddTeam outside a competition")
	}
	c.scratch = append(c.scratch[:0], members...)
	slices.Sort(c.scratch)
	h := uint64(0x9E3779B97F4A7C15)
	for i, m := range c.scratch {
		if m < 0 || int(m) >= c.numGamma {
			return fmt.Errorf("bt: γ index %d out of range [0,%d)", m, c.numGamma)
		}
		if i > 0 && c.scratch[i-1] == m {
			return fmt.Errorf("bt: γ index %d twice in one team", m)
		}
		h = (h ^ uint64(m)) * 0x100000001B3
	}
	if win {
		if c.hasWin {
			return fmt.Errorf("bt: two winners in one competition")
		}
		c.hasWin = true
		// The winner is kept apart from identical losers: it is the one team whose strength is the
		// numerator, so it must be its own entry.
		c.pushTeam(1)
		c.winner = append(c.winner, int32(len(c.teamEnd)-1))
		return nil
	}
	if t, ok := c.seen[h]; ok && c.sameTeam(t) {
		c.weight[t]++
		return nil
	}
	c.pushTeam(1)
	c.seen[h] = int32(len(c.teamEnd) - 1)
	return nil
}

func (c *Competitions) pushTeam(w float32) {
	c.members = append(c.members, c.scratch...)
	c.teamEnd = append(c.teamEnd, int32(len(c.members)))
	c.weight = append(c.weight, w)
}

// sameTeam reports whether team t has exactly the members in c.scratch (guarding against hash collisions).
func (c *Competitions) sameTeam(t int32) bool {
	lo := int32(0)
	if t > 0 {
		lo = c.teamEnd[t-1]
	}
	return slices.Equal(c.members[lo:c.teamEnd[t]], c.scratch)
}

// End closes the open competition. A competition without a winner is dropped.
func (c *Competitions) End() {
	c.open = false
	if !c.hasWin {
		end := c.start
		lo := int32(0)
		if end > 0 {
			lo = c.teamEnd[end-1]
		}
		c.members = c.members[:lo]
		c.teamEnd = c.teamEnd[:end]
		c.weight = c.weight[:end]
		return
	}
	c.compEnd = append(c.compEnd, int32(len(c.teamEnd)))
}

// Len returns the number of competitions.
func (c *Competitions) Len() int { return len(c.compEnd) }

// Teams returns the number of stored (merged) teams.
func (c *Competitions) Teams() int { return len(c.teamEnd) }

// Bytes estimates the memory held.
func (c *Competitions) Bytes() int {
	return 4*cap(c.members) + 4*cap(c.teamEnd) + 4*cap(c.weight) + 4*cap(c.compEnd) + 4*cap(c.winner)
}

// Competition returns competition j's teams, the team indices [lo, hi), and its winning team. It lets
// trainers other than MM (FBT's SGD) read the store.
func (c *Competitions) Competition(j int) (lo, hi, winner int) {
	if j > 0 {
		lo = int(c.compEnd[j-1])
	}
	return lo, int(c.compEnd[j]), int(c.winner[j])
}

// Team returns the members of team t (the store's own slice: do not modify it) and its multiplicity.
func (c *Competitions) Team(t int) ([]int32, float32) { return c.team(int32(t)), c.weight[t] }

// NumGamma returns the number of parameters the store's indices range over.
func (c *Competitions) NumGamma() int { return c.numGamma }
