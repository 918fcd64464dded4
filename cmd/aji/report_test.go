package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotutil"

	"aji/analysis/eval"
)

// reportGames is how many real games the report's tests read: one has over 25 positions, and the
// race detector makes the predictors ten times slower.
const reportGames = 1

// writeReport runs `aji report` on the first validation games into a new folder and returns it.
func writeReport(t *testing.T, predictors string) string {
	t.Helper()
	if _, err := os.Stat(validationGames); err != nil {
		t.Skipf("validation data absent (%v); it lives in ../shared/data", err)
	}
	dir := filepath.Join(t.TempDir(), "report")
	if _, err := run(t, "report", "--predictors", predictors, "--games", validationGames,
		"--max-games", fmt.Sprint(reportGames), "--out", dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// metricsRe reads a row of the page's metrics table: the predictor, positions, the four top-k rates
// (each followed by its interval), the log-evidence and the mean rank.
var metricsRe = regexp.MustCompile(`<tr><td>([^<]+)</td><td>(\d+)</td>` + strings.Repeat(`<td>([0-9.]+) <span class="ci">([0-9.]+)–([0-9.]+)</span></td>`, 4) + `<td>(-?[0-9.]+)</td><td>([0-9.]+)</td></tr>`)

// TestReportMatchesEval checks the page against `aji eval --json` on the same games and predictors:
// every figure of the metrics table, the intervals around the top-k rates, the figures, and 25
// worst positions per predictor, each with its board image, worst first.
func TestReportMatchesEval(t *testing.T) {
	skipUnderRace(t)
	dir := writeReport(t, "mm,cnn")
	out, err := run(t, "eval", "--predictor", "mm,cnn", "--games", validationGames, "--max-games", fmt.Sprint(reportGames), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var ev struct{ Results []eval.Result }
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, reportIndex))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	rows := metricsRe.FindAllStringSubmatch(html, -1)
	if len(rows) != len(ev.Results) {
		t.Fatalf("%d rows in the metrics table, want %d", len(rows), len(ev.Results))
	}
	for i, r := range ev.Results {
		row := rows[i]
		want := []string{r.Predictor, fmt.Sprint(r.Positions)}
		for _, p := range []float64{r.Top1, r.Top5, r.Top10, r.Top20} {
			lo, hi := eval.Wilson(p, r.Positions)
			want = append(want, fmt.Sprintf("%.3f", p), fmt.Sprintf("%.3f", lo), fmt.Sprintf("%.3f", hi))
		}
		want = append(want, fmt.Sprintf("%.3f", r.MeanLogEvidence), fmt.Sprintf("%.1f", r.MeanRank))
		if got := row[1:]; strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("row %d:\n got %v\nwant %v (aji eval)", i, got, want)
		}
		if lo, hi := eval.Wilson(r.Top1, r.Positions); !(lo < r.Top1 && r.Top1 < hi) {
			t.Errorf("%s: top-1 %v outside its interval %v–%v", r.Predictor, r.Top1, lo, hi)
		}
	}
	for _, f := range []string{reportRankCDFPNG, reportPhasePNG, reportPatternsPNG} {
		if w, _ := pngSize(t, filepath.Join(dir, f)); w < 1000 || !strings.Contains(html, `src="`+f+`"`) {
			t.Errorf("%s: %d pixels wide, or not on the page", f, w)
		}
	}
	// mm explains itself with shapes; cnn does not, and is left out of the pattern-size figure.
	if flat := strings.Join(strings.Fields(html), " "); !strings.Contains(flat, "that use patterns (mm)") || !strings.Contains(flat, "cnn does not explain its moves") {
		t.Error("the pattern-size figure's predictors or the note on cnn are wrong")
	}
	posRe := regexp.MustCompile(`<img src="(worst-([a-z]+)-\d\d\.png)"[^>]*>\s*<div><b>[^<]*</b>, move \d+ \((?:Black|White)\)</div>\s*<div>played [A-T]\d+: rank (\d+)`)
	ranks := map[string][]int{}
	for _, m := range posRe.FindAllStringSubmatch(html, -1) {
		if w, h := pngSize(t, filepath.Join(dir, m[1])); w != reportBoardPx || h != reportBoardPx {
			t.Errorf("%s is %dx%d", m[1], w, h)
		}
		var rank int
		fmt.Sscan(m[3], &rank)
		ranks[m[2]] = append(ranks[m[2]], rank)
	}
	for _, name := range []string{"mm", "cnn"} {
		rs := ranks[name]
		if len(rs) != reportWorst {
			t.Errorf("%s: %d worst positions shown, want %d", name, len(rs), reportWorst)
		}
		for k := 1; k < len(rs); k++ {
			if rs[k] > rs[k-1] {
				t.Errorf("%s: rank %d shown after %d", name, rs[k], rs[k-1])
			}
		}
	}
	if n := strings.Count(html, "<li>"); n < 2*reportWorst {
		t.Errorf("%d factors listed for mm's %d positions", n, reportWorst)
	}
}

// TestReportFolder checks the folder's life: a folder holding files is refused without --force and
// left as it was, --force replaces it whole, and a cancelled run leaves neither a report nor its
// temporary folder.
func TestReportFolder(t *testing.T) {
	if _, err := os.Stat(validationGames); err != nil {
		t.Skipf("validation data absent (%v); it lives in ../shared/data", err)
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "r")
	os.Mkdir(dir, 0o755)
	keep := filepath.Join(dir, "notes.txt")
	os.WriteFile(keep, []byte("mine"), 0o644)
	args := []string{"report", "--predictors", "uniform", "--games", validationGames, "--max-games", "1", "--out", dir}
	if _, err := run(t, args...); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("a folder with files: %v", err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Fatal("the refused run touched the folder")
	}
	if _, err := run(t, append(args, "--force")...); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(keep); err == nil {
		t.Error("--force kept an old file in the report's folder")
	}
	if _, err := os.Stat(filepath.Join(dir, reportIndex)); err != nil {
		t.Error(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	other := filepath.Join(parent, "cancelled")
	var sb strings.Builder
	if err := dispatch(ctx, []string{"report", "--predictors", "mm", "--games", validationGames, "--max-games", "2", "--out", other}, &sb); err == nil {
		t.Error("a cancelled report succeeded")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 || entries[0].Name() != "r" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("after a cancelled run the folder holds %v, want only r", names)
	}
	for _, bad := range [][]string{
		{"report", "--games", validationGames},
		{"report", "--out", other},
		{"report", "--predictors", "mm,nosuch", "--games", validationGames, "--out", other},
		{"report", "--predictors", "mm,mm", "--games", validationGames, "--out", other},
		{"report", "--games", filepath.Join(parent, "none.tar.xz"), "--out", other},
		{"report", "--games", validationGames, "--out", keep + "x"},
	} {
		if bad[len(bad)-1] == keep+"x" {
			os.WriteFile(keep+"x", nil, 0o644) // a file, not a folder
		}
		if _, err := run(t, bad...); err == nil {
			t.Errorf("%v succeeded", bad)
		}
	}
}

// chromium finds a Chromium to run headless, or skips: scripts/deps.sh test installs Debian's.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	t.Skip("no chromium on PATH: scripts/deps.sh test installs it (Debian's chromium)")
	return ""
}

// screenshotPage opens a page in headless Chromium and returns its screenshot, width × height pixels.
// --no-sandbox: Chromium refuses to run as root with its sandbox, and as another user the sandbox needs
// user namespaces that containers often lack; the page is our own local file, not web content.
// --user-data-dir: a fresh profile, since HOME may be unwritable and a running Chromium's profile is
// locked.
func screenshotPage(t *testing.T, bin, page, shot string, width, height int) image.Image {
	t.Helper()
	abs, err := filepath.Abs(page)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--force-device-scale-factor=1", "--no-first-run", "--user-data-dir="+t.TempDir(),
		fmt.Sprintf("--window-size=%d,%d", width, height), "--screenshot="+shot, "file://"+abs)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, _, err := image.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// figureBand is a horizontal band of a screenshot where a figure shows: rows top..bottom, and how many
// of its pixels have the first two curves' colours.
type figureBand struct {
	top, bottom    int
	curve0, curve1 int
}

// figureBands finds the figures in a screenshot of the report. The page is tinted and its tables
// off-white, so pure white comes only from the figures' backgrounds (white stones are shaded, and a
// row of boards holds little of their highlight): a row with many white pixels crosses a figure. Rows
// a few apart belong to one figure (its grid lines break the white); a figure that did not load is
// no band at all, and a band with no pixel of the curves' colours is a figure without its plot.
func figureBands(img image.Image) []figureBand {
	const minWhite, maxGap = 600, 8
	b := img.Bounds()
	near := func(c color.Color, want color.Color) bool {
		r, g, bl, _ := c.RGBA()
		wr, wg, wb, _ := want.RGBA()
		d := func(a, b uint32) int { return int(a>>8) - int(b>>8) }
		return abs(d(r, wr)) <= 12 && abs(d(g, wg)) <= 12 && abs(d(bl, wb)) <= 12
	}
	var bands []figureBand
	last := -maxGap - 1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		white, c0, c1 := 0, 0, 0
		for x := b.Min.X; x < b.Max.X; x++ {
			c := img.At(x, y)
			r, g, bl, _ := c.RGBA()
			if r>>8 >= 253 && g>>8 >= 253 && bl>>8 >= 253 {
				white++
			}
			if near(c, plotutil.Color(0)) {
				c0++
			}
			if near(c, plotutil.Color(1)) {
				c1++
			}
		}
		if white < minWhite {
			continue
		}
		if y-last > maxGap {
			bands = append(bands, figureBand{top: y})
		}
		band := &bands[len(bands)-1]
		band.bottom = y
		last = y
		// Colours count only inside a band; the rows between a band's grid lines add theirs below.
		band.curve0 += c0
		band.curve1 += c1
	}
	return bands
}

// checkFigures says what is wrong with a screenshot of a report with two predictors: it must show the
// three figures at their sizes on the page (rank CDF 1300×550, phase 900×550, pattern sizes 1300×500),
// each with the first two curves drawn.
func checkFigures(img image.Image) error {
	bands := figureBands(img)
	heights := []int{550, 550, 500}
	if len(bands) != len(heights) {
		return fmt.Errorf("%d figures shown (%+v), want %d", len(bands), bands, len(heights))
	}
	for i, bd := range bands {
		if h := bd.bottom - bd.top + 1; h < heights[i]-20 || h > heights[i]+2 {
			return fmt.Errorf("figure %d is %d pixels high (rows %d–%d), want about %d", i+1, h, bd.top, bd.bottom, heights[i])
		}
		if bd.curve0 < 150 || bd.curve1 < 150 {
			return fmt.Errorf("figure %d (rows %d–%d) has %d and %d pixels of the first two curves' colours", i+1, bd.top, bd.bottom, bd.curve0, bd.curve1)
		}
	}
	return nil
}

// TestReportInChromium opens a report in a real browser, headless Chromium, and checks from its
// screenshot that the three figures are shown with their curves; then breaks the first figure's path
// and checks that the same test sees it missing.
func TestReportInChromium(t *testing.T) {
	skipUnderRace(t)
	bin := chromium(t)
	dir := writeReport(t, "mm,cfg")
	shots := t.TempDir()
	page := filepath.Join(dir, reportIndex)
	img := screenshotPage(t, bin, page, filepath.Join(shots, "report.png"), 1400, 2600)
	if err := checkFigures(img); err != nil {
		t.Errorf("the report in Chromium: %v", err)
	}

	if err := os.Rename(filepath.Join(dir, reportRankCDFPNG), filepath.Join(dir, "moved.png")); err != nil {
		t.Fatal(err)
	}
	broken := screenshotPage(t, bin, page, filepath.Join(shots, "broken.png"), 1400, 2600)
	if err := checkFigures(broken); err == nil {
		t.Error("the check passed a page whose rank-CDF image is missing")
	} else {
		t.Logf("with the rank CDF's image missing: %v", err)
	}
}
