// Package game holds Go game records — trees of moves, setup stones, comments and markup — reads and writes
// them as SGF, and replays any path of a record into the positions the analysis works on.
//
// SGF is read through github.com/toikarin/sgf, which builds the tree, behind a pre-pass of this package
// that makes the library safe on real files: it decodes the character set named by CA, drops a byte-order
// mark and junk around the game trees, normalises FF[3] property names, checks the SGF grammar (the library
// panics or misplaces nodes on some malformed input), and hands the library the tree's structure with every
// property value emptied, putting the values back afterwards, so that long values cost linear time (the
// library's lexer is quadratic in a value's length). Input size and node counts are bounded, and trees are
// walked without recursion, so no input makes Parse panic, overflow the stack or run for long.
package game
