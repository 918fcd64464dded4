package gtp

import (
	"time"

	"aji/analysis/board"
)

// clock follows the time controls of time_settings and time_left (GTP §4.2, Canadian byo-yomi) and
// turns them into a time budget for each move.
type clock struct {
	set       bool
	main, byo time.Duration
	byoStones int
	sides     [3]sideClock // by colour
}

type sideClock struct {
	left   time.Duration // as last told by time_left, or the main time
	stones int           // stones to play in the current byo-yomi period; 0 in main time
	spent  time.Duration // used by genmove since left was told
}

func (c *clock) settings(mainS, byoS, stones int) {
	c.set = true
	c.main = time.Duration(mainS) * time.Second
	c.byo = time.Duration(byoS) * time.Second
	c.byoStones = stones
	for i := range c.sides {
		c.sides[i] = sideClock{left: c.main}
	}
}

func (c *clock) left(col board.Color, seconds, stones int) {
	c.sides[col] = sideClock{left: time.Duration(seconds) * time.Second, stones: stones}
}

func (c *clock) used(col board.Color, d time.Duration) {
	if col == board.Black || col == board.White {
		c.sides[col].spent += d
	}
}

// minBudget is the least time a move is given, so that a player under a nearly spent clock still
// answers with something better than nothing.
const minBudget = 20 * time.Millisecond

// budget is the time col's next move may take, or 0 when the time is not limited. Main time is spread
// over the moves the player still expects to make (half of the empty points left of 60% of the board,
// at least 10), plus a byo-yomi period's share per stone; in byo-yomi the period is spread over its
// stones. A tenth is kept back for the transmission and the controller.
func (c *clock) budget(col board.Color, moveNumber, size int) time.Duration {
	// No limit: never set, byo-yomi time without stones (§4.2), or no time at all.
	if !c.set || c.byo > 0 && c.byoStones == 0 || c.main == 0 && c.byo == 0 {
		return 0
	}
	sc := c.sides[col]
	left := sc.left - sc.spent
	var per time.Duration
	switch {
	case sc.stones > 0:
		per = left / time.Duration(sc.stones)
	case left > 0:
		moves := max(10, (size*size*6/10-moveNumber)/2)
		per = left / time.Duration(moves)
		if c.byo > 0 {
			per += c.byo / time.Duration(c.byoStones)
		}
	case c.byo > 0:
		// Main time is spent and no time_left said so: assume a fresh byo-yomi period.
		per = c.byo / time.Duration(c.byoStones)
	}
	return max(minBudget, per*9/10)
}
