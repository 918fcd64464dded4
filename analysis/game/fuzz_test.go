package game

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse checks that Parse never panics, and that whatever it accepts replays without panicking and
// survives Save and Parse unchanged.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"(;GM[1]FF[4]SZ[9]KM[6.5]PB[a]PW[b];B[ee];W[cc](;B[gg])(;B[];W[tt]))",
		"(;GaMe[1]SiZe[9]CoPyright[x];Black[ee];White[cc])",
		"\xEF\xBB\xBFheader (x)\n(;SZ [9]AB[aa:cc]AW[dd]AE[bb]PL[W]LB[ee:x]TR[ff];W[gg])\x1a",
		"(;B[aa](;W[bb])C[x])",
		"(;B[aa](;W[bb]);W[cc])",
		"(;C[a\\]b\\\\c\\\nd\r\ne])",
		"(;CA[Shift_JIS]C[\x95\x5c\x83\x5c])",
		"(;CA[gb2312]PB[\xbb\xc6])",
		"(;SZ[9]AB[ba][ab][bc]AW[bb][ca][db][cc];B[cb];W[bb])",
		"(;SZ[25];B[yy])(;SZ[2];B[aa];W[bb])",
		"(;HA[2]AB[dd][pp];W[pd])",
		"",
	} {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("../../assets/games/*.sgf")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := Parse(data)
		if err != nil {
			if games != nil {
				t.Fatalf("games returned with error %v", err)
			}
			return
		}
		for _, g := range games {
			_ = g.WalkMainLine(func(*Position, Move) error { return nil })
			var buf bytes.Buffer
			if err := g.Save(&buf); err != nil {
				t.Fatalf("Save: %v", err)
			}
			again, err := Parse(buf.Bytes())
			if err != nil {
				t.Fatalf("Parse(Save()): %v\n%q", err, buf.String())
			}
			if d := diffGames(g, again[0]); d != "" {
				t.Fatalf("round trip: %s\n%q", d, buf.String())
			}
		}
	})
}
