package live

import (
	"context"

	"aji/analysis/engine"
	"aji/analysis/feature"
	"aji/analysis/game"
)

// InputPlanes are what the cnn predictor reads of a position — analysis/feature's planes as the
// paper encodes them — for people debugging the network to see on the board.
type InputPlanes struct {
	Size int
	V    [feature.NumPlanes][]float64 // each Size*Size, index y*Size+x
}

// Planes encodes pos.
func Planes(pos *game.Position) *InputPlanes {
	n := pos.Board.Size()
	N := n * n
	buf := make([]float32, feature.NumPlanes*N)
	var e feature.Planes
	e.Encode(buf, pos, 0, feature.PlaneOptions{})
	ip := &InputPlanes{Size: n}
	for c := range ip.V {
		ip.V[c] = make([]float64, N)
		for i, v := range buf[c*N : (c+1)*N] {
			ip.V[c][i] = float64(v)
		}
	}
	return ip
}

// PlanesTask makes the engine task that encodes a position for the inspector's view of the network's
// input; deliver runs on the UI thread with its result.
func PlanesTask(deliver func(*InputPlanes, error)) engine.Task {
	return engine.NewTask("planes",
		func(_ context.Context, pos *game.Position) (*InputPlanes, error) { return Planes(pos), nil },
		func(ip *InputPlanes) int { return 8 * feature.NumPlanes * ip.Size * ip.Size }, deliver)
}
