package boardimage

import "math"

// WoodGrain is the board's wood texture (ui/goban's and exported images'): straight grain that wobbles gently across
// the board. The grain is a 1-D profile indexed by a per-column offset, so
// the cost is one lookup per pixel and resizing stays smooth. The texture is
// scaled to the image, so the board looks the same at every size, and it is
// deterministic, so golden images are stable. ui/goban's painter keeps
// it to restore bare wood under text labels, as printed diagrams do.
type WoodGrain struct {
	w, pad          int
	wobble, profile []float64
}

func NewWoodGrain(w, h int) *WoodGrain {
	// Column offsets, in pixels, bending the grain lines.
	wobble := make([]float64, w)
	amp := float64(h) * 0.018
	for x := range wobble {
		u := float64(x) / float64(w)
		wobble[x] = amp * (math.Sin(u*5.1+0.6) + 0.45*math.Sin(u*13.7+2.1))
	}
	pad := int(amp*1.5) + 2
	profile := make([]float64, h+2*pad+2)
	for i := range profile {
		v := float64(i-pad) / float64(h)
		// Broad bands plus fine rings, phase-modulated so the rings
		// are irregular like real flat-sawn wood.
		phase := v*37 + 1.7*math.Sin(v*9.3+0.4) + 0.6*math.Sin(v*23.1)
		rings := math.Pow(0.5+0.5*math.Sin(phase*2*math.Pi), 6)
		bands := math.Sin(v*6.2+1.1) * 0.5
		profile[i] = 1 + 0.028*bands - 0.07*rings
	}
	return &WoodGrain{w: w, pad: pad, wobble: wobble, profile: profile}
}

// At is the wood colour of pixel (x, y), inside the image.
func (g *WoodGrain) At(x, y int) [3]uint8 {
	t := float64(y+g.pad) + g.wobble[x]
	i := int(t)
	f := t - float64(i)
	k := g.profile[i]*(1-f) + g.profile[i+1]*f
	// A whisper of horizontal gradient keeps big boards from looking flat.
	k *= 1 + 0.03*(float64(x)/float64(g.w)-0.5)
	return [3]uint8{clamp8(float64(woodColor[0]) * k), clamp8(float64(woodColor[1]) * k), clamp8(float64(woodColor[2]) * k)}
}
