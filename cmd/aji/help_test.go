package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the README's command reference from the code")

// helpTargets are every command and every kind of train and plot, as argument lists.
func helpTargets() [][]string {
	var out [][]string
	for n := range commands {
		out = append(out, []string{n})
		if kinds, ok := kindGroups[n]; ok {
			for _, k := range kinds() {
				out = append(out, []string{n, k})
			}
		}
	}
	return out
}

// TestHelpOutput: aji help, aji help CMD [KIND] and aji CMD [KIND] --help give the usage, every
// flag and an example, and succeed (exit 0).
func TestHelpOutput(t *testing.T) {
	top, err := run(t, "help")
	if err != nil {
		t.Fatal(err)
	}
	for n := range commands {
		if !strings.Contains(top, "\n  "+n+" ") {
			t.Errorf("aji help does not list %s:\n%s", n, top)
		}
	}
	for _, args := range helpTargets() {
		name := strings.Join(args, " ")
		viaHelp, err := run(t, append([]string{"help"}, args...)...)
		if err != nil {
			t.Errorf("aji help %s: %v", name, err)
			continue
		}
		for _, h := range []string{"--help", "-h"} {
			out, err := run(t, append(slices.Clone(args), h)...)
			if err != nil && errors.Is(err, flag.ErrHelp) && exitCode(err) == 0 {
				out, err = err.Error(), nil // main prints it to stdout and exits 0
			}
			if err != nil {
				t.Errorf("aji %s %s: %v", name, h, err)
			}
			if out != viaHelp {
				t.Errorf("aji %s %s differs from aji help %s:\n%s\n---\n%s", name, h, name, out, viaHelp)
			}
		}
		for _, want := range []string{"aji " + name + ": ", "usage: aji " + name, "example:\n  aji "} {
			if !strings.Contains(viaHelp, want) {
				t.Errorf("aji help %s lacks %q:\n%s", name, want, viaHelp)
			}
		}
		if _, example, _ := strings.Cut(viaHelp, "example:"); strings.Contains(example, "shared/data") {
			t.Errorf("aji help %s's example uses the project's data, not a user's path:\n%s", name, viaHelp)
		}
		if _, grouped := kindGroups[name]; grouped {
			for _, k := range kindGroups[name]() {
				if !strings.Contains(viaHelp, "\n  "+k+" ") {
					t.Errorf("aji help %s does not list %s:\n%s", name, k, viaHelp)
				}
			}
			continue
		}
		if !strings.Contains(viaHelp, "\nflags:\n") {
			t.Errorf("aji help %s lists no flags:\n%s", name, viaHelp)
		}
	}
	if _, err := run(t, "help", "nosuch"); !errors.Is(err, errUsage) {
		t.Errorf("aji help nosuch: %v, want a usage error", err)
	}
	// Every flag the command parses is listed: the FlagSet is the one the command runs with.
	out, _ := run(t, "help", "replay")
	if !strings.Contains(out, "  --move int\n") || !strings.Contains(out, "aji replay game.sgf") {
		t.Errorf("aji help replay:\n%s", out)
	}
}

// TestHelpCoversEveryCommand keeps the help table in step with the commands: an entry with a usage
// and an example for every command and kind, none for a command that is gone, and the train kinds
// the ones runTrain knows.
func TestHelpCoversEveryCommand(t *testing.T) {
	want := map[string]bool{}
	for _, args := range helpTargets() {
		if _, grouped := kindGroups[args[0]]; grouped && len(args) == 1 {
			continue
		}
		want[strings.Join(args, " ")] = true
	}
	for name := range want {
		if e, ok := helpEntries[name]; !ok || e.usage == "" || len(e.examples) == 0 {
			t.Errorf("helpEntries[%q]: no usage or example", name)
		}
		if summaryOf(name) == "" {
			t.Errorf("%s has no summary", name)
		}
	}
	for name := range helpEntries {
		if !want[name] {
			t.Errorf("helpEntries[%q]: no such command", name)
		}
	}
	_, err := run(t, "train", "nosuch")
	m := regexp.MustCompile(`\(([a-z0-9, -]+)\)`).FindStringSubmatch(err.Error())
	if m == nil {
		t.Fatalf("aji train nosuch: %v", err)
	}
	if got := strings.Split(m[1], ", "); !slices.Equal(got, trainKinds) {
		t.Errorf("runTrain knows %v, the help %v", got, trainKinds)
	}
}

const (
	refBegin = "<!-- aji-flags:begin -->\n"
	refEnd   = "<!-- aji-flags:end -->"
)

// TestReadmeReference: the README's command reference is what the commands print. With -update
// (go generate ./cmd/aji) it rewrites that part of README.md, and only that part.
func TestReadmeReference(t *testing.T) {
	path := filepath.Join("..", "..", "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	i, j := strings.Index(readme, refBegin), strings.Index(readme, refEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", strings.TrimSpace(refBegin), refEnd)
	}
	want, err := reference(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := readme[i+len(refBegin) : j]
	if got == want {
		return
	}
	if !*update {
		t.Fatalf("README.md's command reference differs from the code; run go generate ./cmd/aji")
	}
	// Read again just before writing: others edit other parts of the README.
	data, err = os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme = string(data)
	i, j = strings.Index(readme, refBegin), strings.Index(readme, refEnd)
	readme = readme[:i+len(refBegin)] + want + readme[j:]
	if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote the command reference in %s", path)
}

// TestMissingCollectionPointsToReadme: a --games or --validation path that does not exist gives
// the one-line error with the pointer to the README; other missing files do not.
func TestMissingCollectionPointsToReadme(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "games.tar.xz")
	for _, args := range [][]string{
		{"eval", "--predictor", "uniform", "--games", missing},
		{"eval", "--predictor", "uniform", "--games=" + missing},
		{"harvest", "--games", missing, "--out", filepath.Join(t.TempDir(), "p.ajim")},
	} {
		_, err := run(t, args...)
		if err == nil || !strings.HasSuffix(oneLine(err), collectionsPointer) || strings.Contains(oneLine(err), "\n") {
			t.Errorf("aji %s: %v", strings.Join(args, " "), err)
		}
	}
	_, err := run(t, "replay", missing)
	if err == nil || strings.Contains(err.Error(), collectionsPointer) {
		t.Errorf("a missing record is not a collection: %v", err)
	}
}

// TestInstall installs into a temporary prefix with make install, as a user would, and finds the
// binaries working and the desktop entry valid; then make uninstall removes them. It builds the app
// (cached by go build after the first time) and so needs the Fyne build packages, which make run
// and make test install.
func TestInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the desktop app")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	prefix := t.TempDir()
	mk := func(target string) {
		t.Helper()
		cmd := exec.Command("make", "-C", filepath.Join("..", ".."), target, "PREFIX="+prefix, "SKIP_DEPS=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			if bytes.Contains(out, []byte("fatal error:")) && bytes.Contains(out, []byte(".h: No such file")) {
				t.Skipf("the app needs the Fyne build packages (make run installs them):\n%s", out)
			}
			t.Fatalf("make %s: %v\n%s", target, err, out)
		}
	}
	mk("install")
	aji := filepath.Join(prefix, "bin", "aji")
	for _, args := range [][]string{{"help"}, {"help", "train"}, {"replay", "--help"}} {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(aji, args...)
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 || !strings.Contains(stdout.String(), "usage: aji") {
			t.Errorf("installed aji %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, &stdout, &stderr)
		}
	}
	if fi, err := os.Stat(filepath.Join(prefix, "bin", "aji-app")); err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("aji-app: %v", err)
	}
	if _, err := os.Stat(filepath.Join(prefix, "share", "icons", "hicolor", "256x256", "apps", "dev.aji.workbench.png")); err != nil {
		t.Error(err)
	}
	entry := filepath.Join(prefix, "share", "applications", "dev.aji.workbench.desktop")
	data, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"[Desktop Entry]\n", "Type=Application\n", "Name=Aji\n",
		"Exec=" + filepath.Join(prefix, "bin", "aji-app") + " %f\n", "Icon=dev.aji.workbench\n",
		"MimeType=application/x-go-sgf;\n", "Categories=Game;BoardGame;\n",
	} {
		if !strings.Contains(string(data), want) {
			t.Errorf("%s lacks %q:\n%s", entry, want, data)
		}
	}
	if v, err := exec.LookPath("desktop-file-validate"); err == nil {
		if out, err := exec.Command(v, entry).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("desktop-file-validate: %v\n%s", err, out)
		}
	}
	mk("uninstall")
	for _, p := range []string{aji, entry} {
		if _, err := os.Stat(p); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("after make uninstall %s: %v", p, err)
		}
	}
}
