// Package layering checks the import graph against the README: the packages in the order its section
// "Packages in dependency order" lists them, each importing only those listed before it; nothing under
// analysis/ reaching Fyne or ui/; cmd/ never reaching ui/.
package layering

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const module = "aji"

// pkg is what `go list -json` says of one package.
type pkg struct {
	ImportPath string
	GoFiles    []string
	CgoFiles   []string
	Imports    []string // direct, non-test imports
	Deps       []string // every package it depends on, transitively (go list -deps)
}

func TestReadmeOrder(t *testing.T) {
	pkgs := listPackages(t)
	order, err := readmeOrder(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := checkOrder(pkgs, order); err != nil {
		t.Error(err)
	}
}

func TestAnalysisIsUIFree(t *testing.T) {
	for _, p := range listPackages(t) {
		switch {
		case under(p.ImportPath, "analysis"):
			if err := forbid(p, "fyne.io/", module+"/ui/", module+"/app"); err != nil {
				t.Error(err)
			}
		case under(p.ImportPath, "cmd"):
			if err := forbid(p, module+"/ui/", module+"/app"); err != nil {
				t.Error(err)
			}
		}
	}
}

// checkOrder reports every package of the module that the order leaves out, every listed package that
// does not exist, and every import of a package listed at or after the importer.
func checkOrder(pkgs []pkg, order []string) error {
	rank := map[string]int{}
	var errs []string
	for i, path := range order {
		if _, dup := rank[path]; dup {
			errs = append(errs, fmt.Sprintf("README lists %s twice", path))
		}
		rank[path] = i
	}
	known := map[string]bool{}
	for _, p := range pkgs {
		known[p.ImportPath] = true
		r, listed := rank[p.ImportPath]
		if !listed {
			errs = append(errs, fmt.Sprintf("%s is not in the README's package order", p.ImportPath))
			continue
		}
		for _, imp := range p.Imports {
			if !under(imp, "") {
				continue
			}
			if ri, ok := rank[imp]; ok && ri >= r {
				errs = append(errs, fmt.Sprintf("%s imports %s, which the README lists after it", p.ImportPath, imp))
			}
		}
	}
	for _, path := range order {
		if !known[path] {
			errs = append(errs, fmt.Sprintf("README lists %s, which is not a package of the module", path))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("package order:\n\t%s", strings.Join(errs, "\n\t"))
	}
	return nil
}

// forbid reports the first dependency of p, direct or not, that starts with one of the prefixes.
func forbid(p pkg, prefixes ...string) error {
	for _, d := range p.Deps {
		for _, pre := range prefixes {
			if d == strings.TrimSuffix(pre, "/") || strings.HasPrefix(d, pre) {
				return fmt.Errorf("%s depends on %s", p.ImportPath, d)
			}
		}
	}
	return nil
}

// under reports whether path is the module's folder dir or below it ("" for anything in the module).
func under(path, dir string) bool {
	root := module
	if dir != "" {
		root += "/" + dir
	}
	return path == root || strings.HasPrefix(path, root+"/")
}

// listPackages runs `go list -json` over the module: the packages with non-test Go files.
func listPackages(t *testing.T) []pkg {
	t.Helper()
	watchSources(t)
	cmd := exec.Command("go", "list", "-json", module+"/...")
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if len(p.GoFiles)+len(p.CgoFiles) > 0 {
			pkgs = append(pkgs, p)
		}
	}
	if len(pkgs) == 0 {
		t.Fatal("go list found no packages")
	}
	return pkgs
}

// watchSources stats every Go file of the module so that `go test` caches the result only while none
// changes: the files go list reads in its own process are invisible to the test cache.
func watchSources(t *testing.T) {
	t.Helper()
	err := filepath.WalkDir(filepath.Join("..", ".."), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != filepath.Join("..", "..") && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			// Opening a folder records its entries, so a new file or package counts too.
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			_, err = f.ReadDir(-1)
			f.Close()
			return err
		}
		if strings.HasSuffix(path, ".go") {
			_, err = os.Stat(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// bulletPackages matches a README bullet's packages: the back-quoted paths before its first colon.
var bulletPackages = regexp.MustCompile("^- ((?:`[a-z0-9/]+`(?:, | and )?)+):")

// readmeOrder returns the module's packages in the order the README's "Packages in dependency order"
// section lists them, one bullet per line that starts with back-quoted paths and a colon.
func readmeOrder(readme string) ([]string, error) {
	f, err := os.Open(readme)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var order []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			in = line == "## Packages in dependency order"
			continue
		}
		if !in {
			continue
		}
		m := bulletPackages.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, f := range strings.Split(m[1], "`") {
			if f != "" && f != ", " && f != " and " {
				order = append(order, module+"/"+f)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("%s: no section \"Packages in dependency order\" with bullets of back-quoted packages", readme)
	}
	return order, nil
}

// The checks themselves must be able to fail: an upward import, an unlisted package and a listed ghost.
func TestCheckOrderCatchesViolations(t *testing.T) {
	pkgs := []pkg{
		{ImportPath: "aji/analysis/board"},
		{ImportPath: "aji/analysis/game", Imports: []string{"aji/analysis/board", "fmt"}},
		{ImportPath: "aji/analysis/feature", Imports: []string{"aji/analysis/game"}},
	}
	if err := checkOrder(pkgs, []string{"aji/analysis/board", "aji/analysis/game", "aji/analysis/feature"}); err != nil {
		t.Fatalf("a good order: %v", err)
	}
	for _, tc := range []struct {
		order []string
		want  string
	}{
		{[]string{"aji/analysis/game", "aji/analysis/board", "aji/analysis/feature"}, "game imports aji/analysis/board, which the README lists after it"},
		{[]string{"aji/analysis/board", "aji/analysis/game"}, "feature is not in the README"},
		{[]string{"aji/analysis/board", "aji/analysis/game", "aji/analysis/feature", "aji/ghost"}, "aji/ghost, which is not a package"},
	} {
		err := checkOrder(pkgs, tc.order)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("order %v: got %v, want an error with %q", tc.order, err, tc.want)
		}
	}
	ui := pkg{ImportPath: "aji/analysis/live", Deps: []string{"aji/analysis/board", "fyne.io/fyne/v2"}}
	if err := forbid(ui, "fyne.io/", "aji/ui/"); err == nil || !strings.Contains(err.Error(), "fyne.io/fyne/v2") {
		t.Errorf("forbid: got %v, want the Fyne dependency named", err)
	}
	if err := forbid(pkg{ImportPath: "aji/cmd/aji", Deps: []string{"aji/uiish"}}, "aji/ui/"); err != nil {
		t.Errorf("forbid matched a prefix that is not a folder: %v", err)
	}
}

func TestReadmeOrderParses(t *testing.T) {
	readme := filepath.Join(t.TempDir(), "README.md")
	text := "# X\n## Packages in dependency order\n\nIntro.\n\n" +
		"- `analysis/board`: the rules.\n  wrapped `not/this`: line\n" +
		"- `analysis/gtp` and `analysis/label`: GTP.\n- `ui/goban`, `ui/workbench`: UI.\n## Next\n- `cmd/aji`: after the section.\n"
	if err := os.WriteFile(readme, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readmeOrder(readme)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"aji/analysis/board", "aji/analysis/gtp", "aji/analysis/label", "aji/ui/goban", "aji/ui/workbench"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("got %v, want %v", got, want)
	}
}
