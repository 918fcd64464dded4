package gtp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"aji/analysis/board"
	"aji/analysis/live"
	"aji/analysis/predict"
)

// GoGui analyze commands (GoGui manual, ch. "Analyze Commands"): gogui-analyze_commands lists them as
// type/label/command lines, and a gfx command answers with drawing lines — INFLUENCE point value ...
// (−1..1, positive black), COLOR #rrggbb point ..., LABEL point text ..., VAR b point w point ...,
// TEXT status line.

func (s *Server) analyzeCommands(context.Context, []string) (string, error) {
	var lines []string
	for _, name := range s.opts.Predictors {
		lines = append(lines, fmt.Sprintf("gfx/Aji heat map: %s/aji-heatmap %s", name, name))
	}
	lines = append(lines,
		"gfx/Aji territory/aji-territory",
		"plist/Aji dead stones/final_status_list dead",
		"string/Aji final score/final_score",
		"gfx/Aji attack this string/aji-attack %p",
		"gfx/Aji defend this string/aji-defend %p",
	)
	if _, ok := s.player.(Analyzer); ok {
		lines = append(lines,
			"gfx/Aji search: visits/aji-search",
			"gfx/Aji search: principal variation/aji-pv",
		)
	}
	return strings.Join(lines, "\n"), nil
}

// heatmap draws a predictor's move probabilities for the side to move: a colour per point on a log
// scale spanning three orders of magnitude below the most likely move, the five most likely moves
// labelled with their percentages, and a status line.
func (s *Server) heatmap(_ context.Context, args []string) (string, error) {
	if len(args) != 1 {
		return "", errSyntax
	}
	name := args[0]
	pr, ok := s.predictors[name]
	if !ok {
		var err error
		if pr, err = predict.New(name, predict.Options{}); err != nil {
			return "", fmt.Errorf("predictor %s: %w", name, err)
		}
		s.predictors[name] = pr
	}
	pos := s.pos
	pr.Predict(&pos, &s.dist)
	sum := live.Summarize(name, &pos, &s.dist)
	size := sum.Size

	var sb strings.Builder
	if sum.Max > 0 {
		const decades = 3
		const levels = 12
		buckets := make([][]string, levels)
		for i, v := range sum.Heat {
			if v <= 0 {
				continue // illegal (-1) or never played
			}
			t := 1 + math.Log10(v/sum.Max)/decades // 1 at the top move, 0 three decades below
			if t < 0 {
				continue
			}
			k := min(levels-1, int(t*levels))
			buckets[k] = append(buckets[k], board.At(i%size, i/size).GTP(size))
		}
		for i, b := range buckets {
			if len(b) > 0 {
				fmt.Fprintf(&sb, "COLOR %s %s\n", viridis((float64(i)+0.5)/levels), strings.Join(b, " "))
			}
		}
	}
	var labels, text []string
	for _, c := range sum.Top[:min(5, len(sum.Top))] {
		text = append(text, fmt.Sprintf("%s %.1f%%", c.Point.GTP(size), 100*c.Probability))
		if c.Point != board.Pass && c.Probability >= 0.005 {
			labels = append(labels, c.Point.GTP(size), strconv.Itoa(int(math.Round(100*c.Probability))))
		}
	}
	if len(labels) > 0 {
		sb.WriteString("LABEL " + strings.Join(labels, " ") + "\n")
	}
	col, _ := colorArg(pos.ToPlay)
	fmt.Fprintf(&sb, "TEXT %s for %s: %s", name, col, strings.Join(text, ", "))
	return sb.String(), nil
}

// viridis returns the colour of t in [0, 1] on a five-stop approximation of the viridis map, which
// stays readable for colour-blind viewers and in grey.
func viridis(t float64) string {
	stops := [][3]float64{{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}}
	t = math.Max(0, math.Min(1, t)) * float64(len(stops)-1)
	i := min(int(t), len(stops)-2)
	f := t - float64(i)
	var rgb [3]int
	for k := range rgb {
		rgb[k] = int(math.Round(stops[i][k] + f*(stops[i+1][k]-stops[i][k])))
	}
	return fmt.Sprintf("#%02x%02x%02x", rgb[0], rgb[1], rgb[2])
}

// ownership estimates the expected final owner of every point (+1 Black) into own, with
// ServerOptions.Territory or else the Scorer's playouts, and names the method.
func (s *Server) ownership(ctx context.Context, own *[board.NumCells]float64) (method string, err error) {
	if s.opts.Territory != nil {
		if method, err = s.opts.Territory(ctx, &s.pos, own); err != nil {
			return "", fmt.Errorf("territory: %w", err)
		}
		return method, nil
	}
	est, err := s.estimate(ctx)
	if err != nil {
		return "", err
	}
	*own = est.Ownership
	return fmt.Sprintf("%d scoring playouts", est.Playouts), nil
}

// territory draws the expected final owner of every point as GoGui influence (+1 Black), with the
// expected area margin in the status line.
func (s *Server) territory(ctx context.Context, args []string) (string, error) {
	if len(args) != 0 {
		return "", errSyntax
	}
	var own [board.NumCells]float64
	method, err := s.ownership(ctx, &own)
	if err != nil {
		return "", err
	}
	size := s.pos.Board.Size()
	var sb strings.Builder
	margin := -s.pos.Komi
	for y := range size {
		sb.WriteString("INFLUENCE")
		for x := range size {
			p := board.At(x, y)
			v := math.Max(-1, math.Min(1, own[p]))
			margin += v
			fmt.Fprintf(&sb, " %s %.2f", p.GTP(size), v)
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(&sb, "TEXT territory (%s): expected area margin %s", method, FormatScore(math.Round(margin*10)/10))
	return sb.String(), nil
}

// analysis runs the player's analysis of the current position for the side to move.
func (s *Server) analysis(ctx context.Context) (*Analysis, error) {
	an, ok := s.player.(Analyzer)
	if !ok {
		return nil, errUnknown
	}
	if s.opts.AnalyzeTime > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opts.AnalyzeTime)
		defer cancel()
	}
	a, err := an.Analyze(ctx, s.request(s.pos.ToPlay))
	if err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	if a == nil || len(a.Candidates) == 0 {
		return nil, errors.New("analysis: no candidates")
	}
	return a, nil
}

// search labels the candidates with their visit counts, colours them by win rate (red 0% to green
// 100%), and sums up the best in the status line.
func (s *Server) search(ctx context.Context, args []string) (string, error) {
	if len(args) != 0 {
		return "", errSyntax
	}
	a, err := s.analysis(ctx)
	if err != nil {
		return "", err
	}
	size := s.pos.Board.Size()
	var sb strings.Builder
	var labels []string
	for _, c := range a.Candidates {
		if c.Visits == 0 || c.Move == board.Pass {
			continue
		}
		v := c.Move.GTP(size)
		labels = append(labels, v, shortCount(c.Visits))
		r := int(math.Round(255 * (1 - c.WinRate)))
		g := int(math.Round(255 * c.WinRate))
		fmt.Fprintf(&sb, "COLOR #%02x%02x40 %s\n", max(0, min(255, r)), max(0, min(255, g)), v)
	}
	if len(labels) > 0 {
		sb.WriteString("LABEL " + strings.Join(labels, " ") + "\n")
	}
	best := a.Candidates[0]
	col, _ := colorArg(s.pos.ToPlay)
	fmt.Fprintf(&sb, "TEXT %s: %s win rate %.1f%%, %d visits (%d playouts this search); PV %s",
		col, best.Move.GTP(size), 100*best.WinRate, best.Visits, a.Playouts, vertices(best.PV[:min(len(best.PV), maxPV)], size))
	return sb.String(), nil
}

// maxPV bounds the principal variation shown: deep in the tree the moves have few visits and say little.
const maxPV = 12

// pv draws the principal variation of the most visited candidate as numbered ghost stones.
func (s *Server) pv(ctx context.Context, args []string) (string, error) {
	if len(args) != 0 {
		return "", errSyntax
	}
	a, err := s.analysis(ctx)
	if err != nil {
		return "", err
	}
	best := a.Candidates[0]
	pv := best.PV
	if len(pv) == 0 || pv[0] != best.Move {
		pv = append([]board.Point{best.Move}, pv...)
	}
	pv = pv[:min(len(pv), maxPV)]
	size := s.pos.Board.Size()
	var sb strings.Builder
	sb.WriteString("VAR")
	c := s.pos.ToPlay
	for _, p := range pv {
		col := "b"
		if c == board.White {
			col = "w"
		}
		fmt.Fprintf(&sb, " %s %s", col, p.GTP(size))
		c = c.Opponent()
	}
	fmt.Fprintf(&sb, "\nTEXT %s win rate %.1f%%, %d visits", best.Move.GTP(size), 100*best.WinRate, best.Visits)
	return sb.String(), nil
}

// shortCount writes a visit count in at most four characters for a board label.
func shortCount(n int) string {
	switch {
	case n < 1000:
		return strconv.Itoa(n)
	case n < 10_000:
		return strconv.FormatFloat(float64(n)/1000, 'f', 1, 64) + "k"
	case n < 1_000_000:
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n/1_000_000) + "M"
}

// vertices writes points in GTP notation separated by blanks.
func vertices(pts []board.Point, size int) string {
	names := make([]string, len(pts))
	for i, p := range pts {
		names[i] = p.GTP(size)
	}
	return strings.Join(slices.Clip(names), " ")
}
