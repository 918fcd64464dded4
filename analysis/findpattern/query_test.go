package findpattern_test

import (
	"errors"
	"strings"
	"testing"

	"aji/analysis/board"
	"aji/analysis/feature"
	"aji/analysis/findpattern"
	"aji/analysis/findpattern/findtest"
)

func TestParseShape(t *testing.T) {
	for _, c := range []struct {
		in   string
		want findpattern.Query
	}{
		{"8:00000a3f5c2e9b71", findpattern.Query{Kind: findpattern.Coulom, Size: 8, Key: 0xa3f5c2e9b71}},
		{" 3 : 0xFF ", findpattern.Query{Kind: findpattern.Coulom, Size: 3, Key: 0xff}},
		{"12:ffffffffffffffff", findpattern.Query{Kind: findpattern.Coulom, Size: 12, Key: ^uint64(0)}},
		{"T1:1", findpattern.Query{Kind: findpattern.Stern, Size: 1, Key: 1}},
		{"t14:0X10", findpattern.Query{Kind: findpattern.Stern, Size: 14, Key: 16}},
	} {
		got, err := findpattern.ParseShape(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseShape(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"", "8", "8:", ":ff", "2:ff", "13:ff", "T0:ff", "T15:ff", "8:1ffffffffffffffff",
		"8:xyz", "8:-1", "+8:ff", "T+8:ff", "8:0x", "8:f f", "88888888888888888888:1"} {
		if q, err := findpattern.ParseShape(in); !errors.Is(err, findpattern.ErrQuery) {
			t.Errorf("ParseShape(%q) = %+v, %v; want an ErrQuery", in, q, err)
		}
	}
}

// FuzzParseShape: the parser never panics, and what it accepts prints as text it reads back the same.
func FuzzParseShape(f *testing.F) {
	for _, s := range []string{"8:00000a3f5c2e9b71", "T8:0x1", "3:ff", " t14 : 0XFFFFFFFFFFFFFFFF", "8:", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := findpattern.ParseShape(s)
		if err != nil {
			if !errors.Is(err, findpattern.ErrQuery) {
				t.Fatalf("ParseShape(%q): error %v is not an ErrQuery", s, err)
			}
			return
		}
		back, err := findpattern.ParseShape(q.String())
		if err != nil || back != q {
			t.Fatalf("ParseShape(%q) = %+v prints %q, which reads back as %+v, %v", s, q, q.String(), back, err)
		}
	})
}

func TestFeatureQuery(t *testing.T) {
	q, err := findpattern.FeatureQuery("  Atari:   ladder atari ")
	if err != nil || q.Feature != feature.Atari || q.Level != feature.AtariLadder || q.String() != "atari: ladder atari" {
		t.Fatalf("%+v, %v", q, err)
	}
	for _, name := range []string{"pass: previous move is a pass", "Monte Carlo owner: 0-7 of 63", "atari", "nonsense"} {
		if _, err := findpattern.FeatureQuery(name); !errors.Is(err, findpattern.ErrQuery) {
			t.Errorf("FeatureQuery(%q): %v, want an ErrQuery", name, err)
		}
	}
	if _, err := findpattern.FeatureQuery("ladder atari"); err == nil || !strings.Contains(err.Error(), "did you mean: atari: ladder atari?") {
		t.Errorf("a near miss: %v", err)
	}
	names := findpattern.FeatureNames()
	for _, n := range names {
		if q, err := findpattern.FeatureQuery(n); err != nil || q.String() != n {
			t.Errorf("listed feature %q: %+v, %v", n, q, err)
		}
		if strings.HasPrefix(n, "pass") || strings.HasPrefix(n, "Monte Carlo") {
			t.Errorf("listed %q, which cannot be searched", n)
		}
	}
	if len(names) != feature.NumIndices-2-feature.OwnerBins {
		t.Errorf("%d names listed", len(names))
	}
}

func TestShapeAtRefuses(t *testing.T) {
	p := findtest.Plants()[0]
	pos, err := parse(t, p.SGF()).PositionAfter(p.Move())
	if err != nil {
		t.Fatal(err)
	}
	stone := pos.Moves[0].Point
	for _, c := range []struct {
		p    board.Point
		tmpl string
	}{{stone, "8"}, {board.Pass, "8"}, {p.Point(), "2"}, {p.Point(), "T15"}, {p.Point(), "big"}} {
		if _, err := findpattern.ShapeAt(pos, c.p, c.tmpl); !errors.Is(err, findpattern.ErrQuery) {
			t.Errorf("ShapeAt(%v, %q): %v, want an ErrQuery", c.p, c.tmpl, err)
		}
	}
}
