package game

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

func TestCharsets(t *testing.T) {
	encode := func(enc encoding.Encoding, s string) string {
		b, err := enc.NewEncoder().String(s)
		if err != nil {
			t.Fatalf("encode %q: %v", s, err)
		}
		return b
	}
	tests := []struct {
		name   string
		input  string
		player string // PB
		text   string // C
	}{
		{"UTF-8 without CA", "(;PB[Cho Chikun 趙治勲]C[é])", "Cho Chikun 趙治勲", "é"},
		{"UTF-8 with BOM", "\xEF\xBB\xBF(;CA[UTF-8]PB[李昌鎬])", "李昌鎬", ""},
		{"Latin-1", "(;CA[ISO-8859-1]PB[Jos\xe9]C[\xbd point])", "José", "½ point"},
		{"Latin-1 by name latin1", "(;CA[latin1]PB[Jos\xe9])", "José", ""},
		{"no CA and not UTF-8 is Latin-1 (the SGF default)", "(;PB[Jos\xe9])", "José", ""},
		{"GB2312", encode(simplifiedchinese.GBK, "(;CA[gb2312]PB[黄龙士]C[棋\\]])"), "黄龙士", "棋]"},
		{"GBK", encode(simplifiedchinese.GBK, "(;CA[GBK]PB[聂卫平])"), "聂卫平", ""},
		{"GB18030", encode(simplifiedchinese.GB18030, "(;CA[GB18030]PB[柯洁])"), "柯洁", ""},
		// 表, ソ and 能 end in the byte 0x5C ('\'): read before decoding, the ']' after them would be escaped.
		{"Shift_JIS with 0x5C trail bytes", encode(japanese.ShiftJIS, "(;CA[Shift_JIS]PB[本因坊秀策]C[表ソ能])"), "本因坊秀策", "表ソ能"},
		{"Shift_JIS after the text", encode(japanese.ShiftJIS, "(;PB[表]C[能]CA[SJIS])"), "表", "能"},
		{"EUC-KR", encode(korean.EUCKR, "(;CA[EUC-KR]PB[이창호])"), "이창호", ""},
		// 許 is 0xB3 0x5C in Big5.
		{"Big5 with a 0x5C trail byte", encode(traditionalchinese.Big5, "(;CA[Big5]PB[許家元]C[許])"), "許家元", "許"},
		{"ISO-2022-JP, 7-bit with '\\' and ']' inside characters", encode(japanese.ISO2022JP, "(;CA[ISO-2022-JP]PB[坂田栄男]C[丸倍保])"), "坂田栄男", "丸倍保"},
		{"other sets by their web names", encode(charmap.KOI8R, "(;CA[KOI8-R]PB[Дмитрий])"), "Дмитрий", ""},
		{"CA in an otherwise ASCII file", "(;CA[Shift_JIS]PB[Go Seigen]C[a\\\\b\\]c~])", "Go Seigen", "a\\b]c~"},
		{"UTF-16 with BOM", encode(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "(;PB[芮乃伟])"), "芮乃伟", ""},
		{"unknown CA on valid UTF-8", "(;CA[Klingon]PB[José])", "José", ""},
		{"invalid UTF-8 under CA[UTF-8]", "(;CA[UTF-8]PB[a\xffb])", "a\uFFFDb", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := parseOne(t, tc.input)
			if g.Info.Black != tc.player || g.Root.Comment != tc.text {
				t.Errorf("PB %q C %q, want %q %q", g.Info.Black, g.Root.Comment, tc.player, tc.text)
			}
			if g.Root.Property("CA") != nil {
				t.Error("CA kept: the text is UTF-8 now")
			}
			// Saved as UTF-8, it reads back the same.
			var buf bytes.Buffer
			if err := g.Save(&buf); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(buf.String(), "(;FF[4]CA[UTF-8]") || !strings.Contains(buf.String(), tc.player) {
				t.Errorf("saved %q", buf.String())
			}
			if d := diffGames(g, roundTrip(t, g)); d != "" {
				t.Error(d)
			}
		})
	}
}

func TestShiftJISTrailByteIsInTheInput(t *testing.T) {
	// The test above is only meaningful if the encoded text really has '\' bytes inside characters.
	for _, s := range []struct {
		enc  encoding.Encoding
		char string
	}{{japanese.ShiftJIS, "表"}, {japanese.ShiftJIS, "ソ"}, {japanese.ShiftJIS, "能"}, {traditionalchinese.Big5, "許"}} {
		b, _ := s.enc.NewEncoder().String(s.char)
		if len(b) != 2 || b[1] != '\\' {
			t.Errorf("%s encodes as % x", s.char, b)
		}
	}
}
