package boardimage

import (
	"image"
	"math"
)

// StrokeSegment draws an anti-aliased line of width w from a to b with round caps, colour c at
// opacity alpha, on img: the exported images' lines and the app's CFG layer. It visits only a band
// of pixels around the segment, not its whole bounding box, so that a graph's hundreds of edges stay
// cheap: it walks the segment's major axis and, at each step, the pixels within reach across it.
func StrokeSegment(img *image.RGBA, ax, ay, bx, by, w float64, c [3]uint8, alpha float64) {
	r := w / 2
	reach := r + 0.5 // a pixel centre this far from the segment gets no ink
	dx, dy := bx-ax, by-ay
	steep := math.Abs(dy) > math.Abs(dx)
	if steep {
		// Walk rows: swap the axes, and swap back when touching pixels.
		ax, ay, bx, by, dx, dy = ay, ax, by, bx, dy, dx
	}
	if ax > bx {
		ax, ay, bx, by, dx, dy = bx, by, ax, ay, -dx, -dy
	}
	bd := img.Rect
	lo, hi, crossLo, crossHi := bd.Min.X, bd.Max.X, bd.Min.Y, bd.Max.Y
	if steep {
		lo, hi, crossLo, crossHi = bd.Min.Y, bd.Max.Y, bd.Min.X, bd.Max.X
	}
	slope, invL2 := 0.0, 0.0
	if dx != 0 {
		slope = dy / dx
	}
	if l2 := dx*dx + dy*dy; l2 > 0 {
		invL2 = 1 / l2
	}
	// Across the major axis the stroke spans reach·√(1+slope²) of the centre line, and a round cap at
	// most reach·(1+|slope|): |slope| ≤ 1.
	band := reach*(1+math.Abs(slope)) + 1
	reach2 := reach * reach
	a255 := alpha * 255
	u0 := max(lo, int(math.Floor(ax-reach)))
	u1 := min(hi, int(math.Ceil(bx+reach)))
	for u := u0; u < u1; u++ {
		pu := float64(u) + 0.5
		vc := ay
		if pu >= bx {
			vc = by
		} else if pu > ax {
			vc = ay + (pu-ax)*slope
		}
		v0 := max(crossLo, int(math.Floor(vc-band)))
		v1 := min(crossHi, int(math.Ceil(vc+band)))
		for v := v0; v < v1; v++ {
			pv := float64(v) + 0.5
			// Squared distance from the pixel centre to the segment.
			s := ((pu-ax)*dx + (pv-ay)*dy) * invL2
			if s < 0 {
				s = 0
			} else if s > 1 {
				s = 1
			}
			eu, ev := pu-(ax+s*dx), pv-(ay+s*dy)
			d2 := eu*eu + ev*ev
			if d2 >= reach2 {
				continue
			}
			cov := reach - math.Sqrt(d2)
			if cov > 1 {
				cov = 1
			}
			x, y := u, v
			if steep {
				x, y = v, u
			}
			if a := uint32(cov*a255 + 0.5); a > 0 {
				o := img.PixOffset(x, y)
				p := img.Pix[o : o+3 : o+3]
				na := 255 - a
				p[0] = uint8((uint32(c[0])*a + uint32(p[0])*na + 127) / 255)
				p[1] = uint8((uint32(c[1])*a + uint32(p[1])*na + 127) / 255)
				p[2] = uint8((uint32(c[2])*a + uint32(p[2])*na + 127) / 255)
			}
		}
	}
}
