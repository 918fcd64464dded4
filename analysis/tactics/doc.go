// Package tactics reads local fights: a ladder reader today, a capture-problem solver later.
//
// The ladder reader answers the question the move features of Coulom (2007, Table 1) ask — "is this
// string in a ladder?" — by reading only ladder moves: the attacker always gives atari, the defender
// extends from atari or captures an adjacent attacking chain that is in atari. It plays on copies of the
// board kept in a stack that is reused across calls, so reading allocates nothing once warm.
package tactics
