package goban

import (
	"image"
	"image/draw"
	"testing"

	"fyne.io/fyne/v2/test"
)

// TestLabelScaleEnlargesText paints a label on a stone (where no grid is
// cleared, so only the text changes pixels) at the usual scale and at 1.6:
// the text covers a taller and wider box, and no more than the cell.
func TestLabelScaleEnlargesText(t *testing.T) {
	test.NewTempApp(t)
	b := NewBoard()
	pos := parseRows(t, `
.....
.....
..X..
.....
.....`)
	if err := b.SetPosition(pos); err != nil {
		t.Fatal(err)
	}
	w := showBoard(t, b, 300, 300)
	capture := func() *image.RGBA {
		src := w.Canvas().Capture()
		img := image.NewRGBA(src.Bounds())
		draw.Draw(img, img.Bounds(), src, src.Bounds().Min, draw.Src)
		return img
	}
	bare := capture()
	// The box of the pixels that differ from bare.
	inkBox := func(img *image.RGBA) image.Rectangle {
		var r image.Rectangle
		for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
			for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
				a, c := img.RGBAAt(x, y), bare.RGBAAt(x, y)
				if absDiff(a.R, c.R)+absDiff(a.G, c.G)+absDiff(a.B, c.B) > 60 {
					r = r.Union(image.Rect(x, y, x+1, y+1))
				}
			}
		}
		return r
	}
	b.SetLabels([]Label{{Point: Point{X: 2, Y: 2}, Text: "8"}})
	normal := inkBox(capture())
	b.SetLabelScale(1.6)
	large := inkBox(capture())
	if normal.Empty() || large.Empty() {
		t.Fatalf("no text painted: %v at scale 1, %v at 1.6", normal, large)
	}
	if large.Dy() < normal.Dy()*13/10 || large.Dx() <= normal.Dx() {
		t.Errorf("text box %v at scale 1.6, %v at scale 1: want it about 1.6 times taller, and wider", large.Size(), normal.Size())
	}
	cell := float64(300) / 5 * float64(w.Canvas().Scale())
	if float64(large.Dx()) > cell || float64(large.Dy()) > cell {
		t.Errorf("text box %v spreads past its cell of %.0f pixels", large.Size(), cell)
	}
	// Back to 1 (and a nonsense scale means 1): the text is as before.
	b.SetLabelScale(-2)
	if got := inkBox(capture()); got != normal {
		t.Errorf("text box %v after resetting the scale, want %v", got, normal)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
