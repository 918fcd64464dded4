package game

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

var (
	bomUTF8    = []byte{0xEF, 0xBB, 0xBF}
	bomUTF16LE = []byte{0xFF, 0xFE}
	bomUTF16BE = []byte{0xFE, 0xFF}
)

// decode returns the SGF text of data as valid UTF-8. It must run before any tokenizing: in Shift_JIS,
// GBK and Big5 the second byte of a character can be '\' or ']', which would otherwise end or escape a
// value. A byte-order mark decides the encoding; otherwise the CA property does; a file without CA is UTF-8
// when it is valid UTF-8 and ISO-8859-1 (the SGF default) when not.
func decode(data []byte) (string, error) {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		return strings.ToValidUTF8(string(data[len(bomUTF8):]), "\uFFFD"), nil
	case bytes.HasPrefix(data, bomUTF16LE), bytes.HasPrefix(data, bomUTF16BE):
		text, err := unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder().Bytes(data)
		if err != nil {
			return "", fmt.Errorf("%w: decode UTF-16: %v", ErrInvalid, err)
		}
		return string(text), nil
	}
	if plainASCII(data) {
		return string(data), nil // every character set that CA may name reads this as ASCII
	}
	ca := findCharset(data)
	enc, err := charset(ca)
	if err != nil {
		if !utf8.Valid(data) {
			return "", err
		}
		enc = nil // an unknown name on valid UTF-8: the text is readable as it is
	}
	if enc == nil {
		if ca == "" && !utf8.Valid(data) {
			enc = charmap.ISO8859_1
		} else {
			return strings.ToValidUTF8(string(data), "\uFFFD"), nil
		}
	}
	text, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return "", fmt.Errorf("%w: decode CA[%s]: %v", ErrInvalid, ca, err)
	}
	return strings.ToValidUTF8(string(text), "\uFFFD"), nil
}

// findCharset returns the value of the first CA property in data, or "". It looks at the raw bytes,
// because the text cannot be tokenized before it is decoded; the value itself is always ASCII.
func findCharset(data []byte) string {
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("CA"))
		if j < 0 {
			return ""
		}
		j += i
		i = j + 2
		if j > 0 && isLetter(data[j-1]) {
			continue // the end of another identifier, such as "PCA"
		}
		k := i
		for k < len(data) && isSpace(data[k]) {
			k++
		}
		if k == len(data) || data[k] != '[' {
			continue
		}
		end := bytes.IndexByte(data[k+1:], ']')
		if end < 0 || end > 64 {
			continue
		}
		return strings.TrimSpace(string(data[k+1 : k+1+end]))
	}
}

// charset returns the decoder for the character set named by a CA value: nil for UTF-8 (and ASCII, an
// empty value or UTF-16, which a file whose CA is readable as ASCII cannot be), or an error naming an
// unknown set.
func charset(name string) (encoding.Encoding, error) {
	key := strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ', '.':
			return -1
		}
		return r
	}, strings.ToLower(name))
	switch key {
	case "", "utf8", "ascii", "usascii", "utf16", "utf16le", "utf16be":
		return nil, nil
	case "iso88591", "latin1", "l1", "cp819", "ibm819", "iso885911987":
		// Exactly ISO-8859-1 as the file says, not the windows-1252 that web browsers substitute.
		return charmap.ISO8859_1, nil
	case "gb2312", "gbk", "gb18030", "cp936", "windows936", "euccn", "xgbk", "csgb2312", "chinese":
		return simplifiedchinese.GB18030, nil // a superset of GBK, which is a superset of GB2312
	case "shiftjis", "sjis", "xsjis", "mskanji", "cp932", "windows31j", "csshiftjis":
		return japanese.ShiftJIS, nil
	case "euckr", "cp949", "windows949", "uhc", "ksc5601", "ksc56011987", "korean", "cseuckr":
		return korean.EUCKR, nil
	case "big5", "big5hkscs", "cp950", "windows950", "xxbig5", "csbig5":
		return traditionalchinese.Big5, nil
	}
	// Other names as web browsers know them: EUC-JP, KOI8-R, windows-125x, ISO-8859-x, ... The WHATWG
	// "replacement" encoding would turn the whole file into one U+FFFD, so it counts as unknown.
	if enc, err := htmlindex.Get(name); err == nil {
		if canon, _ := htmlindex.Name(enc); canon != "replacement" {
			return enc, nil
		}
	}
	return nil, fmt.Errorf("%w: unknown character set CA[%s]", ErrUnsupported, name)
}

// plainASCII reports whether data is 7-bit text without ESC, which starts the multi-byte characters of
// the 7-bit ISO-2022 encodings (ISO-2022-JP).
func plainASCII(data []byte) bool {
	for _, c := range data {
		if c >= utf8.RuneSelf || c == 0x1B {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

// isSpace reports whether c may separate SGF tokens: white space and the other control characters, which
// some editors leave in files.
func isSpace(c byte) bool { return c <= ' ' }
