package mm

import "aji/analysis/feature"

// PaperGamma returns the γ Coulom published for a feature level (Coulom 2007, Table 1), for printing the
// learned values beside the paper's; ok is false for levels the table leaves out (distances 6 to 15).
func PaperGamma(f feature.Feature, level uint8) (gamma float64, ok bool) {
	table := map[feature.Feature]map[uint8]float64{
		feature.Pass:             {1: 0.17, 2: 24.37},
		feature.Capture:          {1: 30.68, 2: 0.53, 3: 2.88, 4: 3.43, 5: 0.30},
		feature.Extension:        {1: 11.37, 2: 0.70},
		feature.SelfAtari:        {1: 0.06},
		feature.Atari:            {1: 1.58, 2: 10.24, 3: 1.70},
		feature.BorderDistance:   {1: 0.89, 2: 1.49, 3: 1.75, 4: 1.28},
		feature.PrevDistance:     {2: 4.32, 3: 2.84, 4: 2.22, 5: 1.58, 16: 0.33, 17: 0.21},
		feature.PrevPrevDistance: {2: 3.08, 3: 2.38, 4: 2.27, 5: 1.68, 16: 0.66, 17: 0.70},
		feature.MCOwner:          {1: 0.04, 2: 1.02, 3: 2.41, 4: 1.41, 5: 0.72, 6: 0.65, 7: 0.68, 8: 0.13},
	}
	gamma, ok = table[f][level]
	return gamma, ok
}
