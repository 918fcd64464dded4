// Package guess is the "guess the next move" quiz, without the UI: a Session walks a line of a game
// record, hides each move of the colours being guessed, takes the user's guesses, narrows the board
// after each wrong one (HintRegion), and scores every move — right at the first try, right after k
// hints, or revealed. Beside the user it scores every predictor on the same moves: a predictor "guesses"
// its favourite, and is right when the move played has rank 1 in its distribution, ties counting
// against it — exactly `aji eval`'s top-1 (predict.Distribution.Rank, through live.Summarize).
//
// The positions a session hands out are the ones `aji eval` scores: the board before the move with the
// move's colour to play (game.Game.WalkMainLine's convention). Passes are not guessed (eval skips them
// too), and neither is a move whose node also sets up stones, since the board shown before it lacks
// them.
//
// History keeps every sitting's tallies per game in a small JSON file (guess.json in the user's config
// folder), written atomically; a file that cannot be parsed is kept aside, never overwritten.
package guess
