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
	"aji/analysis/cfg"
	"aji/analysis/game"
	"aji/analysis/gtp"
	"aji/analysis/live"
	"aji/analysis/predict"
	"aji/analysis/review"
	"aji/internal/atomicfile"
	"aji/internal/boardimage"
)

// The overlay names that are not predictors. renderTerritory is the territory estimate, drawn with
// the model `aji review --territory` uses (boltzmann5+mc), the app's best; renderSearch the tree
// search of `aji gtp`; renderCFG the common fate graph the cfg predictor reads.
const (
	renderTerritory = "territory"
	renderSearch    = "search"
	renderCFG       = "cfg-graph"
)

// renderOverlays is what --overlay asks for.
type renderOverlays struct {
	predictor string // one predictor's heat map, or ""
	territory bool
	search    bool
	cfgGraph  bool
}

// searchShown are the candidates drawn besides those with renderMinShare of the visits: the top of
// the app's search table.
const (
	searchShown    = 10
	renderMinShare = 0.01
)

// runRender draws the position after move N as a PNG or SVG: the board, the overlays asked for
// (one predictor's heat map with its top candidates labelled, the territory's owner squares, a tree
// search's candidates, the common fate graph), the coordinates, a caption and the heat legend, for
// slides and blog posts. The overlays come from analysis/live, as `aji analyze` and the app compute
// them; the search is `aji gtp`'s, with a fixed budget and seed so that one thread gives one image.
func runRender(ctx context.Context, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("render", flag.ContinueOnError)
	move := fs.Int("move", -1, "number of main-line moves to play (default: all)")
	overlays := fs.String("overlay", "", "overlays, comma-separated: one predictor (mm, cfg, fbt, cnn, …) or search, and territory, cfg-graph")
	out := fs.String("out", "", "output file, .png or .svg")
	size := fs.Int("size", 800, "image width and height in pixels")
	top := fs.Int("top", 5, "candidates labelled with their percentage")
	scale := fs.String("scale", "log", "heat scale: log or linear (relative to the best move)")
	flat := fs.Bool("flat", false, "flat stones (for print)")
	// The search is `aji gtp`'s: its settings start from gtp's defaults, and render sets the budget.
	var sf gtpFlags
	sf.register(flag.NewFlagSet("", flag.ContinueOnError))
	fs.IntVar(&sf.playouts, "playouts", 2000, "search playouts (--overlay search)")
	fs.IntVar(&sf.threads, "threads", 1, "search goroutines; one gives the same image for the same seed")
	fs.Uint64Var(&sf.seed, "seed", 1, "search random seed")
	fs.StringVar(&sf.predictor, "predictor", sf.predictor, "the search's prior")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	moveSet := set["move"]
	ext := strings.ToLower(filepath.Ext(*out))
	switch {
	case len(files) != 1 || *out == "":
		return fmt.Errorf("%w: render FILE.sgf [--move N] [--overlay NAME[,NAME]] --out FILE.png|FILE.svg [--size PX] [--top K] [--playouts N] [--threads N] [--seed N] [--predictor NAME]", errUsage)
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
	ov, err := parseOverlays(*overlays)
	if err != nil {
		return err
	}
	if !ov.search {
		for _, name := range []string{"playouts", "threads", "seed", "predictor"} {
			if set[name] {
				return fmt.Errorf("%w: --%s is for --overlay search", errUsage, name)
			}
		}
	} else if err := sf.check(); err != nil {
		return err
	} else if sf.playouts < 1 {
		return fmt.Errorf("%w: --playouts %d: the search needs at least one", errUsage, sf.playouts)
	}
	g, pos, err := positionOf(files[0], *move)
	if err != nil {
		return err
	}
	b := boardOf(pos)
	b.LogScale, b.FlatStones = *scale == "log", *flat
	b.HideBelow = 0.001 // the app's default threshold: the tail of near-zero moves stays bare
	var shown []string
	if ov.predictor != "" {
		pr, err := live.NewPredictors().Predict(ctx, ov.predictor, pos)
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
		shown = append(shown, ov.predictor)
	}
	if ov.cfgGraph {
		b.CFG = cfgGraphOf(pos)
		shown = append(shown, renderCFG)
	}
	if ov.search {
		moves, text, err := renderSearchOf(ctx, &sf, pos)
		if err != nil {
			return fmt.Errorf("search: %w", err)
		}
		b.Search = moves
		shown = append(shown, text)
	}
	if ov.territory {
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

// parseOverlays reads --overlay: at most one predictor's heat map or the search (a search's discs
// over a heat map cannot be read), with the territory, and the cfg graph with a heat map (as the app
// shows them) but not over the search's discs.
func parseOverlays(s string) (renderOverlays, error) {
	var ov renderOverlays
	if s == "" {
		return ov, nil
	}
	names := predict.Names()
	for _, name := range strings.Split(s, ",") {
		switch name = strings.TrimSpace(name); {
		case name == renderTerritory:
			ov.territory = true
		case name == renderSearch:
			ov.search = true
		case name == renderCFG:
			ov.cfgGraph = true
		case slices.Contains(names, name):
			if ov.predictor != "" {
				return ov, fmt.Errorf("%w: --overlay %s: one predictor at a time (%s and %s)", errUsage, s, ov.predictor, name)
			}
			ov.predictor = name
		default:
			return ov, fmt.Errorf("%w: --overlay %q: unknown overlay (predictors: %s; or %s, %s, %s)", errUsage, name,
				strings.Join(names, ", "), renderTerritory, renderSearch, renderCFG)
		}
	}
	switch {
	case ov.search && ov.predictor != "":
		return ov, fmt.Errorf("%w: --overlay %s: search with a predictor's heat map (%s) cannot be read; use --predictor %s for the search's prior", errUsage, s, ov.predictor, ov.predictor)
	case ov.search && ov.cfgGraph:
		return ov, fmt.Errorf("%w: --overlay %s: search and cfg-graph cover the same points; draw one", errUsage, s)
	}
	return ov, nil
}

// renderSearchOf runs `aji gtp`'s tree search on pos with f's budget and returns the candidates to draw —
// those with renderMinShare of the visits and the searchShown most visited, as the app's Search
// layer, the most visited ringed — and the caption's "search 2,000 playouts: R16 54.3%".
func renderSearchOf(ctx context.Context, f *gtpFlags, pos *game.Position) ([]boardimage.SearchMove, string, error) {
	p, err := newSearchPlayer(f)
	if err != nil {
		return nil, "", err
	}
	a, err := p.Analyze(ctx, &gtp.Request{Position: *pos})
	if err != nil {
		return nil, "", err
	}
	text := fmt.Sprintf("search %s playouts", boardimage.Thousands(a.Playouts))
	moves := []boardimage.SearchMove{} // not nil: the board shows the layer even when empty
	total := 0
	for _, c := range a.Candidates {
		total += c.Visits
	}
	for i, c := range a.Candidates {
		if i == 0 {
			text += fmt.Sprintf(": %s %.1f%%", c.Move.GTP(pos.Board.Size()), 100*c.WinRate)
		}
		if c.Move == board.Pass || c.Move == board.NoPoint || (i >= searchShown && float64(c.Visits) < renderMinShare*float64(total)) {
			continue
		}
		x, y := c.Move.XY()
		moves = append(moves, boardimage.SearchMove{Point: boardimage.Point{X: x, Y: y}, Visits: c.Visits, WinRate: c.WinRate, Best: i == 0})
	}
	return moves, text, nil
}

// cfgGraphOf is the common fate graph of pos (analysis/cfg, the cfg predictor's) with the labels the
// app's CFG tab shows by default.
func cfgGraphOf(pos *game.Position) *boardimage.CFG {
	return live.GraphPicture(cfg.Build(&pos.Board, pos.ToPlay, cfg.DefaultIterations), cfg.DefaultIterations)
}

// boardOf describes pos for boardimage: stones and the last move.
func boardOf(pos *game.Position) *boardimage.Board {
	n := pos.Board.Size()
	b := &boardimage.Board{Size: n, Stones: make([]boardimage.Stone, n*n), Coordinates: true}
	for y := range n {
		for x := range n {
			b.Stones[y*n+x] = stoneOf(pos.Board.At(board.At(x, y)))
		}
	}
	if pos.Last != board.NoPoint && pos.Last != board.Pass {
		x, y := pos.Last.XY()
		b.Last, b.HasLast = boardimage.Point{X: x, Y: y}, true
	}
	return b
}

// stoneOf is boardimage's stone for a colour of the rules engine.
func stoneOf(c board.Color) boardimage.Stone {
	switch c {
	case board.Black:
		return boardimage.Black
	case board.White:
		return boardimage.White
	}
	return boardimage.Empty
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
