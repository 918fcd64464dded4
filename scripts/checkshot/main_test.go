package main

import (
	"image"
	"image/color"
	"image/draw"
	"testing"

	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

var defaults = limits{minWood: 0.2, minLines: 9, minBlack: 0.01, minWhite: 0.01, lineShare: 0.35}

// rendered draws the goban widget in a window larger than the board, the
// way the app shows it, and returns the pixels.
func rendered(t *testing.T, stones bool) image.Image {
	t.Helper()
	test.NewTempApp(t)
	b := goban.NewBoard()
	p := goban.NewPosition(19)
	if stones {
		for i := range 19 {
			p.Set(goban.Point{X: i, Y: (i * 7) % 19}, goban.Black)
			p.Set(goban.Point{X: i, Y: (i*7 + 3) % 19}, goban.White)
			p.Set(goban.Point{X: (i * 5) % 19, Y: i}, goban.Black)
		}
	}
	if err := b.SetPosition(p); err != nil {
		t.Fatal(err)
	}
	w := test.NewWindow(b)
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(640, 560))
	return w.Canvas().Capture()
}

func TestCheckAcceptsBoard(t *testing.T) {
	rep, err := check(rendered(t, true), defaults)
	if err != nil {
		t.Fatalf("board rejected: %v (%v)", err, rep)
	}
	t.Log(rep)
	if rep.rows < 15 || rep.cols < 15 {
		t.Errorf("found only %d x %d lines: %v", rep.rows, rep.cols, rep)
	}
}

func TestCheckRejects(t *testing.T) {
	fill := func(c color.Color, w, h int) image.Image {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(img, img.Bounds(), image.NewUniform(c), image.Point{}, draw.Src)
		return img
	}
	wood := color.RGBA{222, 181, 110, 255}
	emptyBoard := rendered(t, false)
	for name, img := range map[string]image.Image{
		"black screen":   fill(color.Black, 640, 480),
		"grey window":    fill(color.RGBA{40, 40, 44, 255}, 640, 480),
		"plain wood":     fill(wood, 500, 500),
		"wide wood":      fill(wood, 900, 300),
		"board no stone": emptyBoard,
	} {
		rep, err := check(img, defaults)
		if err == nil {
			t.Errorf("%s accepted: %v", name, rep)
		}
		t.Logf("%s: %v", name, err)
	}
	// The empty board passes when no stones are asked for.
	l := defaults
	l.minBlack, l.minWhite = 0, 0
	if rep, err := check(emptyBoard, l); err != nil {
		t.Errorf("empty board rejected without stone limits: %v (%v)", err, rep)
	}
}
