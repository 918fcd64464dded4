package gtp

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
)

func TestReadResponse(t *testing.T) {
	tests := []struct {
		name, in string
		want     []Response
	}{
		{"success with id", "=1 2\n\n", []Response{{ID: 1, HasID: true, OK: true, Text: "2"}}},
		{"failure with id", "?12 unknown command\n\n", []Response{{ID: 12, HasID: true, Text: "unknown command"}}},
		{"no id", "= B19 R19\n\n", []Response{{OK: true, Text: "B19 R19"}}},
		{"empty result", "=3\n\n", []Response{{ID: 3, HasID: true, OK: true}}},
		{"empty result, trailing blank", "=7 \n\n", []Response{{ID: 7, HasID: true, OK: true}}},
		{"multi-line", "=5 F17\nS16 S15\nQ4\n\n", []Response{{ID: 5, HasID: true, OK: true, Text: "F17\nS16 S15\nQ4"}}},
		{"board after empty first line", "=7 \n   A B\n 2 . . 2\n\n",
			[]Response{{ID: 7, HasID: true, OK: true, Text: "\n   A B\n 2 . . 2"}}},
		{"CRLF", "=1 x\r\ny\r\n\r\n", []Response{{ID: 1, HasID: true, OK: true, Text: "x\ny"}}},
		{"blank lines between", "\n=1 a\n\n\n\n?2 b\n\n", []Response{
			{ID: 1, HasID: true, OK: true, Text: "a"},
			{ID: 2, HasID: true, Text: "b"},
		}},
		{"tab separator", "=4\tblack\n\n", []Response{{ID: 4, HasID: true, OK: true, Text: "black"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := bufio.NewReader(strings.NewReader(tt.in))
			for i, want := range tt.want {
				got, err := ReadResponse(r)
				if err != nil || got != want {
					t.Fatalf("response %d = %+v, %v; want %+v", i, got, err, want)
				}
			}
			if _, err := ReadResponse(r); err != io.EOF {
				t.Errorf("after the last response: %v, want io.EOF", err)
			}
		})
	}
}

func TestReadResponseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		want     error
	}{
		{"no marker", "hello\n\n", ErrMalformed},
		{"letter after marker", "=x\n\n", ErrMalformed},
		{"id too large", "=99999999999999999999999 x\n\n", ErrMalformed},
		{"indented marker", " =1\n\n", ErrMalformed},
		{"cut before the empty line", "=1 x\n", io.ErrUnexpectedEOF},
		{"cut in the first line", "=1 x", io.ErrUnexpectedEOF},
		{"cut in a blank end line", "=1 x\n  ", io.ErrUnexpectedEOF},
		{"too long", "=1 " + strings.Repeat("x", MaxResponseSize) + "\n\n", ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadResponse(bufio.NewReader(strings.NewReader(tt.in)))
			if !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// FuzzReadResponse checks that any engine output gives responses or an
// error, never a panic, and that every response read survives a round trip
// through String.
func FuzzReadResponse(f *testing.F) {
	for _, s := range []string{
		"=1 2\n\n", "?2 unknown command\n\n", "= A1 B2\nC3\n\n", "=7 \n   A B\n 2 . . 2\n\n",
		"=1 x\r\n\r\n", "\n\n=3\n\n?4 no\n\n", "=x\n\n", "=1 x", "=1\t\ty \t\n z\n \n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(strings.NewReader(string(data)))
		for range 100 {
			resp, err := ReadResponse(r)
			if err != nil {
				return
			}
			again, err := ReadResponse(bufio.NewReader(strings.NewReader(resp.String())))
			if err != nil || again != resp {
				t.Fatalf("round trip of %+v via %q: %+v, %v", resp, resp.String(), again, err)
			}
			if strings.Contains(resp.Text, "\r") {
				t.Fatalf("carriage return kept in %q", resp.Text)
			}
		}
	})
}
