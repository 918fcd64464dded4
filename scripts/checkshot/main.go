// Checkshot fails unless a screenshot shows a Go board: a large, roughly
// square wood-toned area crossed by dark grid lines in both directions, with
// black and white stones on it. scripts/screenshot.sh runs it on the real
// app under Xvfb, so a window that opens but draws nothing (or draws the
// board wrongly) fails CI.
//
// Usage:
//
//	go run ./scripts/checkshot [flags] shot.png
package main

import (
	"errors"
	"flag"
	"fmt"
	"image"
	_ "image/png" // screenshots are PNG
	"os"
)

// limits are the thresholds a screenshot must meet.
type limits struct {
	minWood   float64 // wood pixels / all pixels
	minLines  int     // grid lines found in each direction
	minBlack  float64 // black-stone pixels / board pixels
	minWhite  float64 // white-stone pixels / board pixels
	lineShare float64 // dark share of a row or column that counts as a grid line
}

// report is what the check measured.
type report struct {
	wood         float64
	board        image.Rectangle
	rows, cols   int
	black, white float64
}

func (r report) String() string {
	return fmt.Sprintf("wood %.1f%% of the screen, board %v, grid lines %d rows x %d columns, black stones %.1f%%, white stones %.1f%% of the board",
		100*r.wood, r.board, r.rows, r.cols, 100*r.black, 100*r.white)
}

func main() {
	var l limits
	flag.Float64Var(&l.minWood, "min-wood", 0.2, "minimum `share` of wood-toned pixels in the image")
	flag.IntVar(&l.minLines, "min-lines", 9, "minimum grid `lines` found in each direction")
	flag.Float64Var(&l.minBlack, "min-black", 0.01, "minimum `share` of the board covered by black stones (0: no stones needed)")
	flag.Float64Var(&l.minWhite, "min-white", 0.01, "minimum `share` of the board covered by white stones (0: no stones needed)")
	flag.Float64Var(&l.lineShare, "line-share", 0.35, "dark `share` of a row or column of the board that makes it a grid line")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: checkshot [flags] shot.png")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "checkshot:", err)
		os.Exit(1)
	}
	img, _, err := image.Decode(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "checkshot: %s: %v\n", flag.Arg(0), err)
		os.Exit(1)
	}
	r, err := check(img, l)
	fmt.Println("checkshot:", r)
	if err != nil {
		fmt.Fprintf(os.Stderr, "checkshot: %s: %v\n", flag.Arg(0), err)
		os.Exit(1)
	}
	fmt.Println("checkshot: ok, the window shows a board")
}

// Pixel classes. Wood is any light warm brown, so the check survives
// changes of the exact tone and the grain; stones are judged by brightness
// and lack of colour.
func rgb(img image.Image, x, y int) (r, g, b int) {
	R, G, B, _ := img.At(x, y).RGBA()
	return int(R >> 8), int(G >> 8), int(B >> 8)
}

func isWood(r, g, b int) bool {
	return r >= 150 && r-g >= 12 && r-g <= 80 && g-b >= 25 && g-b <= 120 && b >= 30
}

func luma(r, g, b int) int { return (299*r + 587*g + 114*b) / 1000 }

func isDark(r, g, b int) bool { return luma(r, g, b) < 100 }

func isWhiteStone(r, g, b int) bool {
	return luma(r, g, b) >= 185 && max(r, g, b)-min(r, g, b) <= 24
}

// check measures img and returns an error naming the first limit it misses.
func check(img image.Image, l limits) (report, error) {
	var rep report
	bounds := img.Bounds()
	if bounds.Empty() {
		return rep, errors.New("empty image")
	}
	// Wood per row and column; the board is where both are substantial,
	// which ignores stray wood-coloured pixels elsewhere on the screen.
	rowWood := make([]int, bounds.Dy())
	colWood := make([]int, bounds.Dx())
	total := 0
	for y := bounds.Min.Y; y < bounds.Max.Y; y++ {
		for x := bounds.Min.X; x < bounds.Max.X; x++ {
			if isWood(rgb(img, x, y)) {
				rowWood[y-bounds.Min.Y]++
				colWood[x-bounds.Min.X]++
				total++
			}
		}
	}
	rep.wood = float64(total) / float64(bounds.Dx()*bounds.Dy())
	if rep.wood < l.minWood {
		return rep, fmt.Errorf("only %.1f%% of the pixels are wood-toned, want %.0f%%: no board drawn", 100*rep.wood, 100*l.minWood)
	}
	y0, y1 := span(rowWood)
	x0, x1 := span(colWood)
	rep.board = image.Rect(x0, y0, x1, y1).Add(bounds.Min)
	w, h := rep.board.Dx(), rep.board.Dy()
	if w < 100 || h < 100 || float64(w) > 1.25*float64(h) || float64(h) > 1.25*float64(w) {
		return rep, fmt.Errorf("wood area %v is not a square board", rep.board)
	}

	// dark[y*w+x]: whether that pixel of the board is dark.
	dark := make([]bool, w*h)
	rowDark := make([]int, h)
	colDark := make([]int, w)
	white := 0
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			r, g, b := rgb(img, rep.board.Min.X+x, rep.board.Min.Y+y)
			switch {
			case isDark(r, g, b):
				dark[y*w+x] = true
				rowDark[y]++
				colDark[x]++
			case isWhiteStone(r, g, b):
				white++
			}
		}
	}
	// A black-stone pixel is dark with dark pixels diagonally around it:
	// grid lines, even where they cross, have wood on their diagonals.
	const d = 3
	black := 0
	for y := d; y < h-d; y++ {
		for x := d; x < w-d; x++ {
			if dark[y*w+x] && dark[(y-d)*w+x-d] && dark[(y-d)*w+x+d] && dark[(y+d)*w+x-d] && dark[(y+d)*w+x+d] {
				black++
			}
		}
	}
	rep.rows = lines(rowDark, w, l.lineShare)
	rep.cols = lines(colDark, h, l.lineShare)
	area := float64(w * h)
	rep.black = float64(black) / area
	rep.white = float64(white) / area
	switch {
	case rep.rows < l.minLines || rep.cols < l.minLines:
		return rep, fmt.Errorf("found %d x %d grid lines, want at least %d each way", rep.rows, rep.cols, l.minLines)
	case rep.black < l.minBlack:
		return rep, fmt.Errorf("black stones cover %.2f%% of the board, want %.2f%%", 100*rep.black, 100*l.minBlack)
	case rep.white < l.minWhite:
		return rep, fmt.Errorf("white stones cover %.2f%% of the board, want %.2f%%", 100*rep.white, 100*l.minWhite)
	}
	return rep, nil
}

// span returns the first and one past the last index whose count reaches a
// tenth of the largest.
func span(counts []int) (lo, hi int) {
	peak := 0
	for _, c := range counts {
		peak = max(peak, c)
	}
	lo, hi = -1, 0
	for i, c := range counts {
		if c*10 >= peak && peak > 0 {
			if lo < 0 {
				lo = i
			}
			hi = i + 1
		}
	}
	return max(lo, 0), hi
}

// lines counts runs of consecutive rows (or columns) that are at least
// share dark: each run is one grid line, however many pixels thick.
func lines(dark []int, length int, share float64) int {
	n, in := 0, false
	for _, d := range dark {
		on := float64(d) >= share*float64(length)
		if on && !in {
			n++
		}
		in = on
	}
	return n
}
