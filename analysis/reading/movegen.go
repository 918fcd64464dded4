package reading

import (
	"slices"

	"aji/analysis/board"
)

// generate appends the moves of c that can matter to the fight over the target string in b. Both
// sides consider the string's liberties; with few of them, the liberties of those liberties (nets,
// approach moves, eye-stealing and shape moves); and every move that captures, or saves, a string
// adjacent to the target in atari: for the defender, capturing an attacker string in atari next to
// the target and filling the last liberties of those with two (ataris that may gain liberties); for
// the attacker, rescuing its own strings next to the target that are in atari, by extending or by
// capturing what attacks them. A move that puts the mover's new string in atari is kept only if it
// captures or, for the attacker, is a liberty of the target (throw-ins and snapbacks): develop
// drops the others. Ko retakes are legal only for the privileged side.
func (s *search) generate(b *board.Board, c board.Color, out []board.Point) []board.Point {
	if b.At(s.target) == board.Empty {
		// The target was just taken, and the defender retakes at once (a snapback, or a ko it has
		// the threats for): see search.retakes.
		return append(out, s.target)
	}
	s.seen.Clear()
	add := func(p board.Point) {
		if p == board.NoPoint || s.seen.Has(p) || b.At(p) != board.Empty {
			return
		}
		s.seen.Add(p)
		out = append(out, p)
	}
	if c == s.privileged {
		// The side with ko threats to spare retakes whichever ko was just taken, and takes any
		// stone it can capture: a ko anywhere is a fight it wins.
		if ko, forbidden := b.Ko(); ko != board.NoPoint && forbidden == c {
			add(ko)
		}
		for _, p := range b.Points() {
			if b.At(p) == c.Opponent() && b.ChainSize(p) == 1 && b.InAtari(p) {
				add(b.AtariLiberty(p))
			}
		}
	}
	s.libs = b.LibertyPoints(s.target, s.libs[:0])
	targetLibs := len(s.libs)
	for _, l := range s.libs {
		add(l)
	}
	if c == s.attacker {
		s.addApproaches(b, s.target, c, add)
	}
	if targetLibs <= 3 {
		for _, l := range s.libs[:targetLibs] {
			for _, n := range l.Neighbours() {
				add(n)
			}
		}
	}
	// Strings the target can join through a liberty: when the joined string would still be short
	// of liberties, both sides play on the other string's liberties too.
	for _, l := range s.libs[:targetLibs] {
		for _, n := range l.Neighbours() {
			if b.At(n) == s.defender && b.ChainHead(n) != b.ChainHead(s.target) && s.joinedLiberties(b, n, targetLibs) <= 3 {
				s.addLiberties(b, n, add)
			}
		}
	}
	// The attacker's strings next to the target: capturing one, or shortening its liberties, is
	// how the target escapes; saving one in danger is how the attacker keeps the net closed.
	nextTo(b, s.target, s.attacker, func(h board.Point) {
		libs := b.Liberties(h, 4)
		switch {
		case c == s.defender && libs <= 3:
			s.addLiberties(b, h, add)
			if libs <= 2 {
				s.addApproaches(b, h, c, add)
			}
		case c == s.attacker && libs <= 2:
			s.addLiberties(b, h, add)
			nextTo(b, h, s.defender, func(d board.Point) {
				if b.Liberties(d, 4) <= libs+1 {
					s.addLiberties(b, d, add)
				}
			})
		}
	})
	kept := out[:0]
	for _, p := range out {
		if s.legal(b, p, c) {
			kept = append(kept, p)
		}
	}
	return kept
}

// joinedLiberties counts the liberties the target (whose n liberties head s.libs) would have after
// joining the string at h through one of its liberties: those of both, less the joining point.
func (s *search) joinedLiberties(b *board.Board, h board.Point, n int) int {
	mark := len(s.libs)
	s.libs = b.LibertyPoints(h, s.libs)
	joined := n - 1
	for _, l := range s.libs[mark:] {
		if !slices.Contains(s.libs[:n], l) {
			joined++
		}
	}
	s.libs = s.libs[:mark]
	return joined
}

// addApproaches adds the approach moves against the string at h for c: where c cannot play a
// liberty of h (it would be suicide), the liberties of the short strings of c's opponent next to
// that liberty, whose capture or atari would make it playable.
func (s *search) addApproaches(b *board.Board, h board.Point, c board.Color, add func(board.Point)) {
	mark := len(s.libs)
	s.libs = b.LibertyPoints(h, s.libs)
	for i := mark; i < len(s.libs); i++ {
		l := s.libs[i]
		if b.Legal(l, c) {
			continue
		}
		for _, n := range l.Neighbours() {
			if b.At(n) == c.Opponent() && b.Liberties(n, 3) <= 2 {
				s.addLiberties(b, n, add)
			}
		}
	}
	s.libs = s.libs[:mark]
}

// addLiberties adds the liberties of the string at h.
func (s *search) addLiberties(b *board.Board, h board.Point, add func(board.Point)) {
	mark := len(s.libs)
	s.libs = b.LibertyPoints(h, s.libs)
	for _, l := range s.libs[mark:] {
		add(l)
	}
	s.libs = s.libs[:mark]
}

// nextTo calls fn once for each string of colour c adjacent to the string at h (with one of its
// stones).
func nextTo(b *board.Board, h board.Point, c board.Color, fn func(board.Point)) {
	var heads [64]board.Point
	nh := 0
	stone := h
	for {
		for _, n := range stone.Neighbours() {
			if b.At(n) != c {
				continue
			}
			head := b.ChainHead(n)
			dup := false
			for _, seen := range heads[:nh] {
				dup = dup || seen == head
			}
			if !dup && nh < len(heads) {
				heads[nh] = head
				nh++
				fn(n)
			}
		}
		if stone = b.NextStone(stone); stone == h {
			return
		}
	}
}

// legal reports whether c may play p: a legal move, or a ko retake by the privileged side.
func (s *search) legal(b *board.Board, p board.Point, c board.Color) bool {
	if b.Legal(p, c) {
		return true
	}
	ko, forbidden := b.Ko()
	return p == ko && c == forbidden && c == s.privileged
}

// pointless reports whether c's move p, which turned before into after, is a self-atari that
// neither captures nor, for the attacker, throws in on a liberty of the target.
func (s *search) pointless(before, after *board.Board, p board.Point, c board.Color) bool {
	if after.Liberties(p, 2) >= 2 || after.Captures(c) > before.Captures(c) {
		return false
	}
	if c == s.attacker {
		for _, n := range p.Neighbours() {
			if before.At(n) == s.defender && before.ChainHead(n) == before.ChainHead(s.target) {
				return false
			}
		}
	}
	return true
}
