package live

import (
	"fmt"
	"math"
)

// LogRatio is log(p_A/p_B) per point of two predictions of one position, index y*size+x: where
// predictor A rates a move above B (positive) or below (negative), in nats. NaN where the move is
// illegal; ±Inf where one probability underflowed to 0 and the other did not.
func LogRatio(a, b *Prediction) ([]float64, error) {
	if a.Size != b.Size || len(a.Heat) != len(b.Heat) {
		return nil, fmt.Errorf("log-ratio of a %dx%d and a %dx%d prediction", a.Size, a.Size, b.Size, b.Size)
	}
	out := make([]float64, len(a.Heat))
	for i, pa := range a.Heat {
		pb := b.Heat[i]
		if pa < 0 || pb < 0 || pa == 0 && pb == 0 {
			out[i] = math.NaN()
			continue
		}
		out[i] = math.Log(pa) - math.Log(pb)
	}
	return out, nil
}
