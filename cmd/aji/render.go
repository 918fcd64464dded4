package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
	"aji/analysis/live"
	"aji/analysis/predict"
	"aji/analysis/review"
	"aji/internal/atomicfile"
	"aji/internal/boardimage"
)

// renderTerritory is the overlay name of the territory estimate, drawn with the model `aji review
// --territory` uses (boltzmann5+mc), the app's best.
const renderTerritory = "territory"

// runRender draws the position after move N as a PNG or SVG: the board, the overlays asked for
// (one predictor's heat map with its top candidates labelled, the territory's owner squares), the
// coordinates, a caption and the heat legend, for slides and blog posts. The overlays come from
// analysis/live, as `aji analyze` and the app compute them.
func runRender(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	move := fs.Int("move", -1, "number of main-line moves to play (default: all)")
	overlays := fs.String("overlay", "", "overlays, comma-separated: one predictor (mm, cfg, fbt, cnn, …) and/or territory")
	out := fs.String("out", "", "output file, .png or .svg")
	size := fs.Int("size", 800, "image width and height in pixels")
	top := fs.Int("top", 5, "candidates labelled with their percentage")
	scale := fs.String("scale", "log", "heat scale: log or linear (relative to the best move)")
	flat := fs.Bool("flat", false, "flat stones (for print)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	moveSet := false
	fs.Visit(func(f *flag.Flag) { moveSet = moveSet || f.Name == "move" })
	ext := strings.ToLower(filepath.Ext(*out))
	switch {
	case len(files) != 1 || *out == "":
		return fmt.Errorf("%w: render FILE.sgf [--move N] [--overlay NAME[,NAME]] --out FILE.png|FILE.svg [--size PX] [--top K]", errUsage)
	case ext != ".png" && ext != ".svg":
		return fmt.Errorf("%w: --out %s: the extension must be .png or .svg", errUsage, *out)
	case moveSet && *move < 0:
		return fmt.Errorf("%w: --move %d: a move number is at least 0", errUsage, *move)
	case *size < boardimage.MinSize || *size > boardimage.MaxImageSize:
		return fmt.Errorf("%w: --size %d: between %d and %d pixels", errUsage, *size, boardimage.MinSize, boardimage.MaxImageSize)
	case *top < 0:
		return fmt.Errorf("%w: --top must not be negative", errUsage)
	case *scale != "log" && *scale != "linear":
		return fmt.Errorf("%w: --scale %q: log or linear", errUsage, *scale)
	}
	predictor, withTerritory, err := parseOverlays(*overlays)
	if err != nil {
		return err
	}
	g, pos, err := positionOf(files[0], *move)
	if err != nil {
		return err
	}
	b := boardOf(pos)
	b.LogScale, b.FlatStones = *scale == "log", *flat
	b.HideBelow = 0.001 // the app's default threshold: the tail of near-zero moves stays bare
	var shown []string
	if predictor != "" {
		pr, err := live.NewPredictors().Predict(ctx, predictor, pos)
		if err != nil {
			return err
		}
		b.Heat, b.HeatMax = pr.Heat, pr.Max
		for i, c := range pr.Top {
			if i == *top {
				break
			}
			x, y := c.Point.XY()
			b.Labels = append(b.Labels, boardimage.Label{Point: boardimage.Point{X: x, Y: y}, Text: boardimage.PercentLabel(c.Probability)})
		}
		shown = append(shown, predictor)
	}
	if withTerritory {
		var tr live.Territory
		o, err := tr.Estimate(ctx, review.DefaultTerritory, live.DefaultTerritoryMethod, pos)
		if err != nil {
			return fmt.Errorf("territory: %w", err)
		}
		b.Territory = o.Mean
		shown = append(shown, scoreText(o.Score()))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b.Caption = captionOf(g, pos, shown)
	write := boardimage.WritePNG
	if ext == ".svg" {
		write = boardimage.WriteSVG
	}
	if err := atomicfile.Write(*out, func(w io.Writer) error { return write(w, b, *size) }); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "wrote %s (%dx%d, move %d)\n", *out, *size, *size, pos.MoveNumber)
	return err
}

// parseOverlays splits --overlay into at most one predictor and the territory flag. One board
// holds one heat map; the search and the cfg graph are not drawn yet.
func parseOverlays(s string) (predictor string, territory bool, err error) {
	if s == "" {
		return "", false, nil
	}
	names := predict.Names()
	for _, name := range strings.Split(s, ",") {
		switch name = strings.TrimSpace(name); {
		case name == renderTerritory:
			territory = true
		case slices.Contains(names, name):
			if predictor != "" {
				return "", false, fmt.Errorf("%w: --overlay %s: one predictor at a time (%s and %s)", errUsage, s, predictor, name)
			}
			predictor = name
		case name == "cfg-graph" || name == "search":
			return "", false, fmt.Errorf("%w: --overlay %s: not drawn by render yet", errUsage, name)
		default:
			return "", false, fmt.Errorf("%w: --overlay %q: unknown overlay (predictors: %s; or %s)", errUsage, name, strings.Join(names, ", "), renderTerritory)
		}
	}
	return predictor, territory, nil
}

// boardOf describes pos for boardimage: stones and the last move.
func boardOf(pos *game.Position) *boardimage.Board {
	n := pos.Board.Size()
	b := &boardimage.Board{Size: n, Stones: make([]boardimage.Stone, n*n), Coordinates: true}
	for y := range n {
		for x := range n {
			switch pos.Board.At(board.At(x, y)) {
			case board.Black:
				b.Stones[y*n+x] = boardimage.Black
			case board.White:
				b.Stones[y*n+x] = boardimage.White
			}
		}
	}
	if pos.Last != board.NoPoint && pos.Last != board.Pass {
		x, y := pos.Last.XY()
		b.Last, b.HasLast = boardimage.Point{X: x, Y: y}, true
	}
	return b
}

// scoreText names the territory overlay with its expected score: "territory B+3.1".
func scoreText(score float64) string {
	if score < 0 {
		return fmt.Sprintf("territory W+%.1f", -score)
	}
	return fmt.Sprintf("territory B+%.1f", score)
}

// captionOf is "Black (B) vs White (W) — move 120, White to play — mm, territory B+3.1".
func captionOf(g *game.Game, pos *game.Position, shown []string) string {
	player := func(name, rank, def string) string {
		if name == "" {
			name = def
		}
		if rank != "" {
			name += " " + rank
		}
		return name
	}
	toPlay := "Black"
	if pos.ToPlay == board.White {
		toPlay = "White"
	}
	c := fmt.Sprintf("%s (B) vs %s (W) — move %d, %s to play", player(g.Info.Black, g.Info.BlackRank, "Black"),
		player(g.Info.White, g.Info.WhiteRank, "White"), pos.MoveNumber, toPlay)
	if len(shown) > 0 {
		c += " — " + strings.Join(shown, ", ")
	}
	return c
}
