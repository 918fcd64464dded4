package review

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"aji/analysis/board"
	"aji/analysis/game"
)

// Marker starts every comment line a review writes. Lines that start with it are Aji's, and the next
// annotation replaces them; every other line of a comment is the user's and is kept as it is.
const Marker = "[Aji] "

// MarksProperty is the private SGF property in which a node lists the markup and move annotations a
// review added (as "LB:pd:1", "BM:1", "HO:1"), so that the next annotation removes exactly those and
// never the user's own. Other SGF tools keep unknown properties.
const MarksProperty = "AJIMARKS"

// Defaults of AnnotateOptions.
const (
	DefaultLabels              = 3
	DefaultSurpriseRank        = 20
	DefaultSurpriseProbability = 0.01
	DefaultSwing               = 0.15
)

// AnnotateOptions tune what Annotate writes.
type AnnotateOptions struct {
	Labels int // top candidates of the first predictor labelled 1, 2, ... on the move's node (0: DefaultLabels; < 0: none)
	// A move ranked below SurpriseRank with less than SurpriseProbability by the first predictor is
	// surprising, flagged HO (hotspot) (0: the defaults).
	SurpriseRank        int
	SurpriseProbability float64
	// A move that changes its player's win probability by Swing or more beyond a usual move's change
	// (Result.Tempo) is a swing: BM (bad move) when the player lost, TE (tesuji) when they gained; BM[2]
	// from twice Swing (0: DefaultSwing).
	Swing float64
}

func (o AnnotateOptions) withDefaults() AnnotateOptions {
	if o.Labels == 0 {
		o.Labels = DefaultLabels
	}
	if o.SurpriseRank == 0 {
		o.SurpriseRank = DefaultSurpriseRank
	}
	if o.SurpriseProbability == 0 {
		o.SurpriseProbability = DefaultSurpriseProbability
	}
	if o.Swing == 0 {
		o.Swing = DefaultSwing
	}
	return o
}

// Judgement is what a review thinks notable about a move.
type Judgement struct {
	Surprising bool // the first predictor hardly expected it
	// Gain is the change of the mover's win probability over the move (After − Before for Black, the
	// opposite for White), and Relative the same less the review's Tempo: a static estimate credits
	// every move with about a move's worth of territory, so a move is judged against a usual one. Both
	// are NaN without a territory estimate or a search.
	Gain, Relative float64
	Bad            bool // Relative ≤ −Swing
	Good           bool // Relative ≥ Swing
}

// Judge assesses move i of the review by o's thresholds.
func (r *Result) Judge(i int, o AnnotateOptions) Judgement {
	o = o.withDefaults()
	m := &r.Moves[i]
	j := Judgement{Gain: gain(m), Relative: math.NaN()}
	if len(m.Predictions) > 0 {
		p := m.Predictions[0]
		j.Surprising = p.Legal && p.Rank > o.SurpriseRank && p.Probability < o.SurpriseProbability
	}
	if !math.IsNaN(j.Gain) && !math.IsNaN(r.Tempo) {
		j.Relative = j.Gain - r.Tempo
		j.Bad, j.Good = j.Relative <= -o.Swing, j.Relative >= o.Swing
	}
	return j
}

// gain is the change of m's player's win probability over m, NaN without values.
func gain(m *Move) float64 {
	before, ok1 := m.Before.BlackWins()
	after, ok2 := m.After.BlackWins()
	if !ok1 || !ok2 {
		return math.NaN()
	}
	if m.Color == board.White {
		return before - after
	}
	return after - before
}

// tempo is the median gain of the moves that have one (NaN if none): what a usual move of the game is
// worth to the static estimate, about +0.05 of win probability and +1.7 points of score on a 19x19
// professional game.
func tempo(moves []Move) float64 {
	var gains []float64
	for i := range moves {
		if g := gain(&moves[i]); !math.IsNaN(g) {
			gains = append(gains, g)
		}
	}
	if len(gains) == 0 {
		return math.NaN()
	}
	slices.Sort(gains)
	n := len(gains)
	return (gains[(n-1)/2] + gains[n/2]) / 2
}

// Line is a move's review in one short line, without the Marker:
// "mm: rank 12, 1.4%; top: R16 38%; score B+3.1 → B+0.4, Black 55% → 48%".
func Line(m *Move, size int) string {
	var parts []string
	if m.Point == board.Pass {
		parts = append(parts, "pass")
	}
	for _, p := range m.Predictions {
		s := p.Predictor + ": illegal"
		if p.Legal {
			s = fmt.Sprintf("%s: rank %d, %s", p.Predictor, p.Rank, percent(p.Probability))
		}
		if len(p.Top) > 0 {
			s += fmt.Sprintf("; top: %s %s", p.Top[0].Point.GTP(size), percent(p.Top[0].Probability))
		}
		parts = append(parts, s)
	}
	if b, a := m.Before.Score, m.After.Score; b != nil && a != nil {
		parts = append(parts, fmt.Sprintf("score %s → %s, Black %.0f%% → %.0f%%",
			FormatScore(b.Mean), FormatScore(a.Mean), 100*b.PBlackWins, 100*a.PBlackWins))
	}
	if b, a := m.Before.Search, m.After.Search; b != nil && a != nil && b.Visits > 0 && a.Visits > 0 {
		parts = append(parts, fmt.Sprintf("search (%d playouts): Black %.0f%% → %.0f%%, best %s",
			b.Playouts, 100*b.PBlackWins, 100*a.PBlackWins, b.Best.GTP(size)))
	}
	return strings.Join(parts, "; ")
}

// percent writes a probability with two significant digits below 10%: 38%, 1.4%, 0.05%.
func percent(p float64) string {
	switch v := 100 * p; {
	case v >= 9.95:
		return fmt.Sprintf("%.0f%%", v)
	case v >= 0.995:
		return fmt.Sprintf("%.1f%%", v)
	case v >= 0.0995:
		return fmt.Sprintf("%.2f%%", v)
	}
	return fmt.Sprintf("%.1g%%", 100*p)
}

// FormatScore writes an area score from Black's side as a result is written: B+3.1, W+0.4, or 0.
func FormatScore(s float64) string {
	s = math.Round(s*10) / 10
	switch {
	case s > 0:
		return "B+" + strconv.FormatFloat(s, 'f', 1, 64)
	case s < 0:
		return "W+" + strconv.FormatFloat(-s, 'f', 1, 64)
	}
	return "0"
}

// Annotate writes r into the nodes it reviewed: on each move's node a comment line (Line) and, for a
// notable move, a line saying why, the first predictor's top candidates as labels 1, 2, ... (the
// move's alternatives, shown on the board after it), and HO for a surprising move, BM or TE for a
// swing; on the root a summary line. What a previous annotation wrote is replaced first (Clear); the
// user's comments, markup and annotations are kept: no label goes on a point the user marked, and no
// BM/TE goes on a node the user already judged. The nodes are changed in place: save the game under
// a new name unless the user asked to replace the original.
func Annotate(r *Result, o AnnotateOptions) {
	o = o.withDefaults()
	for _, n := range r.line {
		Clear(n)
	}
	for i := range r.Moves {
		annotateMove(&r.Moves[i], r.Judge(i, o), r.Size, o)
	}
	if r.Root != nil {
		appendLines(r.Root, summary(r))
	}
}

// summary is the root's line: what reviewed the game and how each predictor did on it.
func summary(r *Result) []string {
	var parts []string
	for i, name := range r.Options.Predictors {
		s := r.Score(i)
		if s.Positions == 0 {
			continue
		}
		cdf := s.RankCDF()
		parts = append(parts, fmt.Sprintf("%s: first choice %.0f%%, top 5 %.0f%% of %d moves, mean log-evidence %.2f",
			name, 100*cdf[0], 100*cdf[4], s.Positions, s.MeanLogEvidence()))
	}
	if t := r.Options.Territory; t != "" {
		parts = append(parts, fmt.Sprintf("territory %s, %d playouts", t, r.Options.Playouts))
	}
	if r.Options.SearchPlayouts > 0 {
		parts = append(parts, fmt.Sprintf("search %d playouts", r.Options.SearchPlayouts))
	}
	return []string{"review: " + strings.Join(parts, "; ")}
}

func annotateMove(m *Move, j Judgement, size int, o AnnotateOptions) {
	n := m.Node
	lines := []string{Line(m, size)}
	var why []string
	if j.Surprising {
		p := m.Predictions[0]
		why = append(why, fmt.Sprintf("surprising to %s (rank %d, %s)", p.Predictor, p.Rank, percent(p.Probability)))
	}
	if j.Bad || j.Good {
		verb := "lost"
		if j.Good {
			verb = "gained"
		}
		who := "Black"
		if m.Color == board.White {
			who = "White"
		}
		why = append(why, fmt.Sprintf("%s %s %.0f points of win probability beyond a usual move's %+.0f", who, verb, 100*math.Abs(j.Relative), 100*(j.Gain-j.Relative)))
	}
	if len(why) > 0 {
		lines = append(lines, strings.Join(why, "; "))
	}
	appendLines(n, lines)

	var marks []string
	if len(m.Predictions) > 0 && o.Labels > 0 {
		k := 0
		for _, c := range m.Predictions[0].Top {
			if k == o.Labels {
				break
			}
			if c.Point == board.Pass {
				continue
			}
			k++
			if slices.ContainsFunc(n.Markup, func(mk game.Mark) bool { return mk.Point == c.Point }) {
				continue // the user's markup there wins
			}
			text := strconv.Itoa(k)
			n.Markup = append(n.Markup, game.Mark{Kind: game.Label, Point: c.Point, Text: text})
			marks = append(marks, "LB:"+game.SGFPoint(c.Point)+":"+text)
		}
		// Labels after the user's, in the order the loader keeps markup (by kind).
		slices.SortStableFunc(n.Markup, func(a, b game.Mark) int { return int(a.Kind) - int(b.Kind) })
	}
	add := func(id, v string) {
		n.Props = append(n.Props, game.Property{ID: id, Values: []string{v}})
		marks = append(marks, id+":"+v)
	}
	// BM, TE, DO and IT exclude each other (FF[4]): a move the user judged keeps the user's word.
	judged := slices.ContainsFunc(n.Props, func(p game.Property) bool {
		return p.ID == "BM" || p.ID == "TE" || p.ID == "DO" || p.ID == "IT"
	})
	switch {
	case judged:
	case j.Bad && j.Relative <= -2*o.Swing:
		add("BM", "2")
	case j.Bad:
		add("BM", "1")
	case j.Good:
		add("TE", "1")
	}
	if j.Surprising && n.Property("HO") == nil {
		add("HO", "1")
	}
	if len(marks) > 0 {
		n.Props = append(n.Props, game.Property{ID: MarksProperty, Values: marks})
	}
}

// appendLines adds lines, each starting with Marker, after n's comment, a blank line between.
func appendLines(n *game.Node, lines []string) {
	var sb strings.Builder
	sb.WriteString(n.Comment)
	if n.Comment != "" {
		sb.WriteString("\n\n")
	}
	for i, l := range lines {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(Marker + l)
	}
	n.Comment = sb.String()
}

// Clear removes from n what an annotation wrote — its comment lines, the blank line before them, and
// the labels and move annotations MarksProperty lists — and leaves everything else as it was. A label
// the user changed since (another text at the point) is the user's now, and stays.
func Clear(n *game.Node) {
	n.Comment = stripComment(n.Comment)
	marks := n.Property(MarksProperty)
	if marks == nil {
		return
	}
	for _, v := range marks {
		id, rest, _ := strings.Cut(v, ":")
		if id == "LB" {
			at, text, _ := strings.Cut(rest, ":")
			n.Markup = slices.DeleteFunc(n.Markup, func(m game.Mark) bool {
				return m.Kind == game.Label && game.SGFPoint(m.Point) == at && m.Text == text
			})
			continue
		}
		n.Props = slices.DeleteFunc(n.Props, func(p game.Property) bool {
			return p.ID == id && len(p.Values) == 1 && p.Values[0] == rest
		})
	}
	n.Props = slices.DeleteFunc(n.Props, func(p game.Property) bool { return p.ID == MarksProperty })
	// A node left with nothing is as the loader makes one without any.
	if len(n.Markup) == 0 {
		n.Markup = nil
	}
	if len(n.Props) == 0 {
		n.Props = nil
	}
}

// stripComment removes the lines that start with Marker and, before each run of them, the blank line
// appendLines put there.
func stripComment(c string) string {
	if !strings.Contains(c, Marker) {
		return c
	}
	lines := strings.Split(c, "\n")
	out := make([]string, 0, len(lines))
	for i, l := range lines {
		if !strings.HasPrefix(l, Marker) {
			out = append(out, l)
			continue
		}
		first := i == 0 || !strings.HasPrefix(lines[i-1], Marker)
		if first && len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
	}
	return strings.Join(out, "\n")
}
