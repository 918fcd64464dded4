package workbench

import (
	"image/png"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"aji/analysis/board"
	"aji/analysis/mcts"
	"aji/internal/boardimage"
	"aji/ui/goban"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// searchGame opens the sample professional game at a move with a search
// small enough for a shared test machine: one thread, playouts as given
// (negative: until stopped).
func searchGame(t *testing.T, move, playouts int) (*harness, *searchView) {
	t.Helper()
	h := proGame(t, move)
	sv := tabOf[*searchView](h.wb)
	sv.opts.Threads = 1
	sv.opts.Seed = 7
	// A limit of the test's own, so that a change of another choice,
	// which applies them all again, keeps it.
	sv.choices.limit = searchLimit{name: "test", playouts: playouts}
	sv.choices.apply(&sv.opts)
	return h, sv
}

// searched waits for a snapshot of the current position with visits in
// the table.
func (h *harness) searched() *searchResult {
	h.t.Helper()
	sv := tabOf[*searchView](h.wb)
	h.awaitSearch("a snapshot with visits", func() bool {
		r := sv.current()
		return r != nil && len(r.Candidates) > 0 && r.Candidates[0].Visits > 0 && sv.rows[0].cells[1].Text != ""
	})
	return sv.current()
}

// awaitSearch is pump with a longer guard against a hang, for searches
// under the race detector on a busy machine; nothing is asserted about
// timing.
func (h *harness) awaitSearch(what string, cond func() bool) {
	h.t.Helper()
	deadline := time.After(2 * time.Minute)
	for !cond() {
		select {
		case f := <-h.ui:
			f()
		case <-deadline:
			h.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// ended waits, running the UI queue meanwhile, until done is closed: the
// search goroutine has returned. The limit only guards against a hang.
func (h *harness) ended(done <-chan struct{}) {
	h.t.Helper()
	deadline := time.After(2 * time.Minute)
	for {
		select {
		case <-done:
			return
		case f := <-h.ui:
			f()
		case <-deadline:
			h.t.Fatal("the search goroutine did not end")
		}
	}
}

// drain runs what is queued on the UI now.
func (h *harness) drain() {
	for {
		select {
		case f := <-h.ui:
			f()
		default:
			return
		}
	}
}

func totalVisits(r *searchResult) int {
	n := 0
	for _, c := range r.Candidates {
		n += c.Visits
	}
	return n
}

// TestSearchShowsCandidates searches a professional middle-game position
// to a fixed number of playouts: the table fills live, the best move is
// the most visited and is marked on the board and in the table, and
// hovering a row or a candidate on the board shows its variation.
func TestSearchShowsCandidates(t *testing.T) {
	const playouts = 600
	h, sv := searchGame(t, 100, playouts)
	h.selectTab(tabSearch)
	if h.wb.panel.tabs.Selected().Content != sv.box {
		t.Fatal("the Search tab does not show the search")
	}
	if sv.drawn != nil || sv.rows[0].cells[0].Text != "" {
		t.Fatal("search results before a search")
	}
	test.Tap(sv.startB)
	if !sv.running || !sv.startB.Disabled() || sv.stopB.Disabled() {
		t.Fatal("Start did not start: buttons not switched")
	}
	h.searched()
	h.awaitSearch("the search to finish", func() bool { return !sv.running })
	r := sv.current()
	if r == nil || !r.Final || r.Playouts != playouts {
		t.Fatalf("final result %+v, want %d playouts", r, playouts)
	}
	if totalVisits(r) != playouts {
		t.Errorf("root children have %d visits after %d playouts of a fresh tree", totalVisits(r), playouts)
	}
	pos := h.wb.doc.cursor.Position()
	best := r.Candidates[0]
	for _, c := range r.Candidates {
		if c.Visits > best.Visits {
			t.Errorf("candidate %s has %d visits, more than the first %s's %d", c.Move.GTP(19), c.Visits, best.Move.GTP(19), best.Visits)
		}
		if c.Move != board.Pass && !pos.Board.Legal(c.Move, pos.ToPlay) {
			t.Errorf("candidate %s is illegal", c.Move.GTP(19))
		}
	}
	if r.Best != best.Move {
		t.Fatalf("best move %s is not the most visited %s", r.Best.GTP(19), best.Move.GTP(19))
	}
	// The board marks the most visited move as the best, and only it.
	if sv.drawn == nil || len(sv.drawn.Moves) == 0 {
		t.Fatal("no search layer on the board")
	}
	var marked []goban.Point
	for _, m := range sv.drawn.Moves {
		if m.Best {
			marked = append(marked, m.Point)
		}
	}
	if len(marked) != 1 || marked[0] != gp(best.Move) {
		t.Errorf("board marks %v as best, want only %v", marked, gp(best.Move))
	}
	// The table lists the candidates in order, the best one marked.
	for i, row := range sv.rows {
		if i >= len(r.Candidates) {
			if row.cells[0].Text != "" {
				t.Errorf("row %d shows %q with only %d candidates", i, row.cells[0].Text, len(r.Candidates))
			}
			continue
		}
		c := r.Candidates[i]
		if got := row.cells[0].Text; got != c.Move.GTP(19) {
			t.Errorf("row %d shows move %q, want %s", i, got, c.Move.GTP(19))
		}
		if got := row.cells[1].Text; got != boardimage.Thousands(c.Visits) {
			t.Errorf("row %d shows %q visits, want %d", i, got, c.Visits)
		}
		if row.best != (i == 0) {
			t.Errorf("row %d marked best: %v", i, row.best)
		}
	}
	if !strings.Contains(sv.summary.Text, colorName(pos.ToPlay)+" to play") || !strings.Contains(sv.summary.Text, best.Move.GTP(19)) {
		t.Errorf("summary %q", sv.summary.Text)
	}
	if !strings.HasPrefix(sv.progress.Text, "Done · 600 playouts") {
		t.Errorf("progress %q", sv.progress.Text)
	}
	if !sv.stopB.Disabled() || sv.startB.Disabled() {
		t.Error("buttons not switched back after the search ended")
	}

	// Hovering a row shows that candidate's variation, its first move the
	// candidate, the side to move's colour first.
	if len(r.Candidates) < 2 {
		t.Fatal("fewer than two candidates")
	}
	second := r.Candidates[1]
	sv.rows[1].MouseIn(&desktop.MouseEvent{})
	if sv.drawn == nil || len(sv.drawn.PV) != len(second.PV) || sv.drawn.PV[0] != gp(second.Move) {
		t.Fatalf("hovering row 2 shows %v, want the variation %v", sv.drawn.PV, second.PV)
	}
	wantStone := goban.Black
	if pos.ToPlay == board.White {
		wantStone = goban.White
	}
	if sv.drawn.ToPlay != wantStone {
		t.Errorf("variation starts with %v, want %v", sv.drawn.ToPlay, wantStone)
	}
	sv.rows[1].MouseOut()
	if len(sv.drawn.PV) != 0 {
		t.Error("the variation stays after the pointer left the row")
	}
	// On the board: the pointer on a candidate shows its variation, on
	// another point none.
	board0 := h.wb.views[0].board
	board0.OnHover(gp(best.Move), true)
	if len(sv.drawn.PV) == 0 || sv.drawn.PV[0] != gp(best.Move) {
		t.Errorf("hovering %s on the board shows %v", best.Move.GTP(19), sv.drawn.PV)
	}
	board0.OnHover(goban.Point{X: 0, Y: 0}, true) // A19, empty and never a candidate this early
	if len(sv.drawn.PV) != 0 {
		t.Errorf("hovering A19 shows a variation %v", sv.drawn.PV)
	}
}

// TestSearchStopsOnNavigation moves on while an unlimited search runs:
// its goroutine ends, its later snapshots are not shown, and its result
// comes back with the position.
func TestSearchStopsOnNavigation(t *testing.T) {
	h, sv := searchGame(t, 60, -1)
	searchedNode := h.wb.doc.cursor.Node()
	test.Tap(sv.startB)
	h.searched()
	done := sv.runner.Done()
	h.key(fyne.KeyRight, 0)
	if sv.running || sv.startB.Disabled() {
		t.Error("navigation did not stop the search")
	}
	h.ended(done)
	h.drain()
	if sv.drawn != nil || sv.rows[0].cells[0].Text != "" {
		t.Error("the previous position's search is still shown")
	}
	if sv.result == nil || sv.result.node != searchedNode || sv.result.Final {
		t.Error("a snapshot after navigation was taken for the old position")
	}
	h.key(fyne.KeyLeft, 0)
	if sv.drawn == nil || sv.rows[0].cells[0].Text == "" {
		t.Error("back on the searched position, its last snapshot is not shown")
	}
	// Loading another game stops a search too.
	test.Tap(sv.startB)
	h.searched()
	done = sv.runner.Done()
	data, err := os.ReadFile("../../assets/games/castle-cg048.sgf")
	if err != nil {
		t.Fatal(err)
	}
	if err := h.wb.Show("other.sgf", "", data, 30); err != nil {
		t.Fatal(err)
	}
	if sv.running {
		t.Error("loading a game did not stop the search")
	}
	h.ended(done)
}

// TestSearchStopButtonKeepsTheTree stops an unlimited search with the
// button, then starts and stops it again on the same position: the
// goroutine ends each time, and the second run continues the first one's
// tree, as a run on a child of the position does with the child's subtree.
func TestSearchStopButtonKeepsTheTree(t *testing.T) {
	h, sv := searchGame(t, 80, -1)
	test.Tap(sv.startB)
	h.searched()
	done := sv.runner.Done()
	test.Tap(sv.stopB)
	if sv.running || sv.startB.Disabled() || !sv.stopB.Disabled() {
		t.Error("Stop did not switch the buttons")
	}
	h.ended(done)
	h.awaitSearch("the final result", func() bool { return sv.current() != nil && sv.current().Final })
	first := sv.current()
	if !strings.HasPrefix(sv.progress.Text, "Stopped") || sv.rows[0].cells[0].Text == "" {
		t.Errorf("after Stop: progress %q, first row %q", sv.progress.Text, sv.rows[0].cells[0].Text)
	}
	if totalVisits(first) != first.Playouts || first.Playouts == 0 {
		t.Fatalf("first run: %d visits at the root for %d playouts", totalVisits(first), first.Playouts)
	}
	test.Tap(sv.startB)
	test.Tap(sv.stopB)
	h.ended(sv.runner.Done())
	h.awaitSearch("the second run's result", func() bool { return sv.current() != first && sv.current().Final })
	second := sv.current()
	// Each playout adds one visit to one child of the root.
	if got, want := totalVisits(second), first.Playouts+second.Playouts; got != want {
		t.Errorf("second run: %d visits at the root, want %d (first run's %d + its own %d)", got, want, first.Playouts, second.Playouts)
	}
	// Searched until its best move's subtree has grown, then that move
	// played: the run on the child goes on from the subtree.
	test.Tap(sv.startB)
	h.awaitSearch("a best move with visits", func() bool {
		r := sv.current()
		return r != nil && len(r.Candidates) > 0 && r.Candidates[0].Visits >= 50
	})
	test.Tap(sv.stopB)
	h.ended(sv.runner.Done())
	h.drain()
	h.wb.tapped(gp(sv.current().Candidates[0].Move))
	test.Tap(sv.startB)
	test.Tap(sv.stopB)
	h.ended(sv.runner.Done())
	h.awaitSearch("the child's result", func() bool { return sv.current() != nil && sv.current().Final })
	if child := sv.current(); totalVisits(child) <= child.Playouts {
		t.Errorf("child run: %d visits at the root for %d playouts: the subtree was not kept", totalVisits(child), child.Playouts)
	}
}

// TestSearchStopsWhenTheWindowCloses: Workbench.Stop, which closing the
// window calls, ends the search goroutine before it returns.
func TestSearchStopsWhenTheWindowCloses(t *testing.T) {
	h, sv := searchGame(t, 40, -1)
	test.Tap(sv.startB)
	h.searched()
	done := sv.runner.Done()
	h.w.Close()
	h.w = test.NewWindow(nil) // the test driver panics when a window is closed twice, as the cleanup would
	select {
	case <-done:
	default:
		t.Fatal("the search goroutine still runs after the window closed")
	}
}

// TestSearchFailureIsShown: a search that cannot be made says why.
func TestSearchFailureIsShown(t *testing.T) {
	h, sv := searchGame(t, 20, 100)
	sv.opts.Policy = "no-such-policy"
	test.Tap(sv.startB)
	h.ended(sv.runner.Done())
	h.awaitSearch("the failure", func() bool { return !sv.running })
	if !strings.Contains(sv.progress.Text, "no-such-policy") || sv.drawn != nil {
		t.Errorf("progress %q after a failed start", sv.progress.Text)
	}
}

// TestSearchScreenshot writes the picture of the Search tab for the
// README when AJI_SHOT_SEARCH names a PNG file: "Search every move" over
// the sample professional game from its first move, then move 100
// searched to 10,000 playouts with the ownership overlay, on every core,
// all through the tab's own controls.
//
//	AJI_SHOT_SEARCH=$PWD/docs/search.png go test ./ui/workbench/ -run SearchScreenshot -timeout 30m
func TestSearchScreenshot(t *testing.T) {
	path := os.Getenv("AJI_SHOT_SEARCH")
	if path == "" {
		t.Skip("set AJI_SHOT_SEARCH=FILE.png to write the screenshot")
	}
	h, sv := searchGame(t, 1, -1)
	fyne.CurrentApp().Settings().SetTheme(Theme())
	sv.opts = searchOptions(searchChoices{prior: mcts.DefaultPriorName, selection: mcts.RAVE, limit: searchLimits[0]})
	sv.opts.Seed = 1
	h.w.Resize(fyne.NewSize(1200, 900))
	// The search alone on the board: heat map and predictor labels off,
	// through the panel's own controls so that they say so.
	for _, o := range test.LaidOutObjects(h.w.Canvas().Content()) {
		switch w := o.(type) {
		case *widget.Check:
			if w.Text == "Heat map" {
				w.SetChecked(false)
			}
		case *widget.Select:
			if slices.Equal(w.Options, []string{"0", "1", "3", "5", "10", "20"}) {
				w.SetSelected("0")
			}
		}
	}
	if h.wb.settings.heat || h.wb.settings.topK != 0 {
		t.Fatal("could not turn the heat map and labels off")
	}
	h.selectTab(tabSearch)
	sv.prior.SetSelected(mcts.DefaultPriorName)
	sv.selection.SetSelected(mcts.RAVE.String())
	sv.limit.SetSelected("10,000 playouts")
	sv.ownership.SetChecked(true)
	sv.everyPlayouts = 500 // the strip of the screenshot: 500 playouts a move, 261 moves in a minute
	test.Tap(sv.everyB)
	for sv.every != nil {
		(<-h.ui)()
	}
	t.Logf("%s", sv.progress.Text)
	h.wb.move(h.wb.doc.cursor.Forward(99))
	test.Tap(sv.startB)
	h.awaitSearch("the search to finish", func() bool { return !sv.running })
	h.ended(sv.runner.Done())
	h.drain()
	if r := sv.current(); r == nil || r.Playouts != 10000 || sv.owners == nil {
		t.Fatalf("search ended with %+v", r)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, h.w.Canvas().Capture()); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %s · %s · %s", path, sv.progress.Text, sv.summary.Text, sv.stripNote.Text)
}

// TestSearchSetUpSmallBoards searches positions set up with AB/AW on 9x9
// and 13x13 boards: the candidates are legal moves of that board; a setup
// stone added on the searched node drops the result, which no longer
// fits the board, and a new search sees the stone.
func TestSearchSetUpSmallBoards(t *testing.T) {
	for _, sgf := range []string{
		"(;GM[1]FF[4]SZ[9]KM[6.5]AB[cc][gg][cg]AW[gc][ee][ec])",
		"(;GM[1]FF[4]SZ[13]KM[6.5]AB[dd][jj][dj][gg]AW[jd][gd][dg])",
	} {
		h := newHarness(t, sgf)
		sv := tabOf[*searchView](h.wb)
		sv.opts.Threads, sv.opts.Playouts, sv.opts.Seed = 1, 300, 7
		h.selectTab(tabSearch)
		pos := h.wb.doc.cursor.Position()
		size := pos.Board.Size()
		test.Tap(sv.startB)
		r := h.searched()
		for _, c := range r.Candidates {
			if c.Visits > 0 && c.Move != board.Pass && !pos.Board.Legal(c.Move, pos.ToPlay) {
				t.Errorf("%dx%d: candidate %s is not a legal move", size, size, c.Move.GTP(size))
			}
		}
		h.awaitSearch("the end of the search", func() bool { return !sv.running })
		best := r.Candidates[0].Move
		if best == board.Pass {
			t.Fatalf("%dx%d: the search passes on a board with room to play", size, size)
		}
		h.editMode(modeAddBlack)
		h.wb.tapped(goPoint(best))
		if h.wb.doc.cursor.Position().Board.At(best) != board.Black {
			t.Fatalf("%dx%d: the setup stone on %s was not added", size, size, best.GTP(size))
		}
		if sv.current() != nil || sv.drawn != nil {
			t.Errorf("%dx%d: the search of the position before the edit is still shown", size, size)
		}
		h.selectTab(tabSearch)
		test.Tap(sv.startB)
		for _, c := range h.searched().Candidates {
			if c.Move == best && c.Visits > 0 {
				t.Errorf("%dx%d: the new search plays on the setup stone %s", size, size, best.GTP(size))
			}
		}
		h.awaitSearch("the end of the second search", func() bool { return !sv.running })
	}
}

// TestSearchChoices: the pickers offer no prior and every predictor, every
// rule mcts.Selections gives and the limits; each choice is saved, and a
// change while a search runs ends the old runner's goroutine and searches
// on with the new options.
func TestSearchChoices(t *testing.T) {
	h, sv := searchGame(t, 60, -1)
	h.selectTab(tabSearch)
	if want := searchPriors(); !slices.Equal(sv.prior.Options, want) || want[0] != searchNoPrior || !slices.Contains(want, mcts.DefaultPriorName) {
		t.Errorf("priors offered %v", sv.prior.Options)
	}
	var rules []string
	for _, s := range mcts.Selections() {
		rules = append(rules, s.String())
	}
	if !slices.Equal(sv.selection.Options, rules) {
		t.Errorf("rules offered %v, want %v", sv.selection.Options, rules)
	}
	if !slices.Equal(sv.limit.Options, searchLimitNames()) {
		t.Errorf("limits offered %v", sv.limit.Options)
	}

	test.Tap(sv.startB)
	h.searched()
	old := sv.runner
	oldDone := old.Done()
	// No prior and UCT: the old run goes, a new one searches the same
	// position with every move's prior alike.
	stale := sv.result
	sv.prior.SetSelected(searchNoPrior)
	sv.selection.SetSelected(mcts.UCT.String())
	if sv.runner == old || !sv.running {
		t.Fatal("a change of choice did not restart the search with a new runner")
	}
	h.ended(oldDone)
	h.awaitSearch("the new runner's snapshot", func() bool { return sv.result != stale })
	if sv.opts.Selection != mcts.UCT || sv.opts.NewPrior != nil || sv.opts.Prior != nil {
		t.Errorf("options after the change: selection %v, a prior set: %v", sv.opts.Selection, sv.opts.NewPrior != nil)
	}
	r := h.searched()
	for _, c := range r.Candidates {
		if c.Prior != r.Candidates[0].Prior {
			t.Fatalf("without a prior, %s has prior %.4f and %s %.4f", c.Move.GTP(19), c.Prior, r.Candidates[0].Move.GTP(19), r.Candidates[0].Prior)
		}
	}
	// A limit of playouts ends the restarted search by itself.
	sv.limit.SetSelected("1,000 playouts")
	h.awaitSearch("the limited search to end", func() bool { return !sv.running })
	h.ended(sv.runner.Done())
	h.drain()
	if r := sv.current(); r == nil || r.Playouts != 1000 || !strings.HasPrefix(sv.progress.Text, "Done · 1,000 playouts") {
		t.Errorf("after the 1,000-playout limit: progress %q", sv.progress.Text)
	}
	// A time limit ends it too.
	sv.limit.SetSelected("1 s a move")
	test.Tap(sv.startB)
	h.awaitSearch("the timed search to end", func() bool { return !sv.running })
	h.ended(sv.runner.Done())
	h.drain()
	if r := sv.current(); r == nil || !r.Final || !strings.HasPrefix(sv.progress.Text, "Done") {
		t.Errorf("after the 1 s limit: progress %q", sv.progress.Text)
	}

	p := h.wb.opts.Preferences
	got := loadSearchChoices(p)
	if got.prior != searchNoPrior || got.selection != mcts.UCT || got.limit.name != "1 s a move" || got.ownership {
		t.Errorf("saved choices load as %+v", got)
	}
	sv.ownership.SetChecked(true)
	if !loadSearchChoices(p).ownership || !sv.opts.Ownership {
		t.Error("the ownership choice was not saved or applied")
	}
	// A choice no longer offered loads as the default.
	p.SetString(prefSearchSelection, "no-such-rule")
	p.SetString(prefSearchPrior, "no-such-predictor")
	p.SetString(prefSearchLimit, "forever and a day")
	if got := loadSearchChoices(p); got.selection != mcts.RAVE || got.prior != mcts.DefaultPriorName || got.limit.name != "Until stopped" {
		t.Errorf("unknown saved choices load as %+v", got)
	}
}

// TestSearchOwnershipOverlay: with Ownership ticked, the search's own
// estimate is on the board, point for point the snapshot's, each settled
// area of a late professional position painted in its owner's colour;
// unticked, it goes.
func TestSearchOwnershipOverlay(t *testing.T) {
	h, sv := searchGame(t, 240, 2000)
	h.selectTab(tabSearch)
	if sv.owners != nil {
		t.Fatal("an ownership layer before a search")
	}
	sv.ownership.SetChecked(true)
	test.Tap(sv.startB)
	h.awaitSearch("the search to end", func() bool { return !sv.running })
	h.ended(sv.runner.Done())
	h.drain()
	r := sv.current()
	if r == nil || len(r.Ownership) != 19*19 {
		t.Fatalf("no ownership in the final snapshot %+v", r)
	}
	l := sv.owners
	if l == nil || len(l.Owner) != len(r.Ownership) || !l.MarkDead {
		t.Fatal("no ownership layer on the board")
	}
	if under, _ := sv.underLayer(); under != goban.Layer(l) {
		t.Fatal("the ownership layer is not the tab's layer under the heat map")
	}
	pos := h.wb.doc.cursor.Position()
	regions := enclosed(&pos.Board, 3)
	_, pixel := h.boardPixels()
	candidate := map[goban.Point]bool{}
	for _, m := range sv.drawn.Moves {
		candidate[m.Point] = true
	}
	for _, c := range []board.Color{board.Black, board.White} {
		if len(regions[c]) == 0 {
			t.Fatalf("no area enclosed by %s alone at move 240", colorName(c))
		}
		points, theirs, checked := 0, 0, 0
		for _, region := range regions[c] {
			for _, p := range region {
				i := gp(p).Y*19 + gp(p).X
				if l.Owner[i] != r.Ownership[i] {
					t.Errorf("%s: the overlay shows %+.3f, the snapshot %+.3f", p.GTP(19), l.Owner[i], r.Ownership[i])
				}
				v := r.Ownership[i]
				if c == board.White {
					v = -v
				}
				points++
				if v > 0 {
					theirs++
				}
				if v < 0.6 || candidate[gp(p)] {
					continue // a candidate's disc covers the point
				}
				px := pixel(gp(p))
				lum := (int(px.R) + int(px.G) + int(px.B)) / 3
				if c == board.Black && lum > 70 || c == board.White && lum < 215 {
					t.Errorf("%s's point %s (owner %+.2f) painted %v", colorName(c), p.GTP(19), v, px)
				}
				checked++
			}
		}
		// The playouts may still break into a wall, so a point or two may
		// be in doubt; most of what is walled off is the waller's.
		if theirs < points*9/10 {
			t.Errorf("the search gives %s only %d of the %d points it walled off", colorName(c), theirs, points)
		}
		if checked == 0 {
			t.Errorf("no settled point of %s's checked", colorName(c))
		}
	}
	sv.ownership.SetChecked(false)
	if sv.owners != nil {
		t.Error("the ownership layer stays with the box unticked")
	}
	if under, _ := sv.underLayer(); under != nil {
		t.Error("the tab still has a layer under the heat map")
	}
}
