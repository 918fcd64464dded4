package game

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxInputSize is the largest SGF input, in bytes, that Parse and Load accept.
const MaxInputSize = 64 << 20

// More limits on one input. Beyond them Parse fails with ErrTooLarge instead of exhausting memory: a real
// game record is far smaller (a long commented game has a few thousand nodes).
const (
	maxNodes    = 2_000_000 // nodes over all the games of an input
	maxValues   = 4_000_000 // property values over all the games of an input
	maxIdentLen = 64        // letters of a property identifier, lower case included
	// Points that the point lists of an input expand to ("AB[aa:yy]" is 625): each setup stone costs a
	// board rebuild when replayed.
	maxPoints = 1_000_000
)

// rawTree is one game tree of the input, reduced to what the sgf library needs to build its structure.
type rawTree struct {
	skeleton string   // the tree with canonical identifiers and every value emptied, e.g. "(;SZ[]B[])"
	values   []string // the unescaped values, in document order
	lines    []int    // the input line of each node, in document order
}

// scanner is the pre-pass over the decoded text. It checks the SGF grammar, which the library does not
// fully do, and copes with what real files contain around it.
type scanner struct {
	src       string
	pos       int
	line      int // 1-based line of pos
	lineStart int // offset of the first byte of line
	nodes     int // nodes seen so far
	values    int // values seen so far
}

func newScanner(src string) *scanner { return &scanner{src: src, line: 1} }

// nextTree moves to the start of the next game tree and reports whether there is one. It skips what lies
// before the first tree, between trees and after the last one (file headers, mail text, a trailing
// Ctrl-Z): a '(' starts a tree only when a ';' follows it.
func (s *scanner) nextTree() bool {
	for {
		i := strings.IndexByte(s.src[s.pos:], '(')
		if i < 0 {
			return false
		}
		s.skip(s.pos + i)
		j := s.pos + 1
		for j < len(s.src) && isSpace(s.src[j]) {
			j++
		}
		if j < len(s.src) && s.src[j] == ';' {
			return true
		}
		s.skip(s.pos + 1)
	}
}

// Grammar states of tree.
const (
	wantNode   = iota // after '(': only a node may follow
	inSequence        // after a node: a node, a property, a variation or the end of the tree
	afterTree         // after a nested tree: only another variation or the end of the enclosing tree
)

// tree reads one game tree starting at a '(' (SGF: GameTree = "(" Sequence { GameTree } ")"). It loops
// instead of recursing, so deep nesting costs no stack.
func (s *scanner) tree() (rawTree, error) {
	var t rawTree
	var sk strings.Builder
	depth, state := 0, afterTree
	for {
		s.skipSpace()
		if s.pos == len(s.src) {
			return t, s.errorf("unexpected end of input: %d game tree(s) not closed with ')'", depth)
		}
		c := s.src[s.pos]
		switch {
		case c == '(':
			if state == wantNode {
				return t, s.errorf("'(' where a node ';' must start the game tree")
			}
			depth++
			state = wantNode
		case c == ')':
			if state == wantNode {
				return t, s.errorf("empty game tree: '(' must be followed by a node ';'")
			}
			depth--
			state = afterTree
		case c == ';':
			if state == afterTree {
				// The library would silently append this node to the sequence before the variations.
				return t, s.errorf("node after a variation: the nodes of a game tree must come before its variations")
			}
			if s.nodes++; s.nodes > maxNodes {
				return t, fmt.Errorf("%w: more than %d nodes", ErrTooLarge, maxNodes)
			}
			t.lines = append(t.lines, s.line)
			state = inSequence
		case isLetter(c):
			if state != inSequence {
				return t, s.errorf("property outside a node")
			}
			if err := s.property(&sk, &t); err != nil {
				return t, err
			}
			continue
		case c == '[':
			return t, s.errorf("property value without a property identifier")
		default:
			r, _ := utf8.DecodeRuneInString(s.src[s.pos:])
			return t, s.errorf("unexpected character %q", r)
		}
		sk.WriteByte(c)
		s.pos++
		if depth == 0 {
			t.skeleton = sk.String()
			return t, nil
		}
	}
}

// property reads a property: an identifier and one or more values.
func (s *scanner) property(sk *strings.Builder, t *rawTree) error {
	start := s.pos
	for s.pos < len(s.src) && isLetter(s.src[s.pos]) {
		s.pos++
	}
	raw := s.src[start:s.pos]
	if len(raw) > maxIdentLen {
		return s.errorf("property identifier of %d letters (at most %d)", len(raw), maxIdentLen)
	}
	// FF[3] and older allowed lower-case letters in identifiers and ignored them: "CoPyright" is CP.
	id := strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r
		}
		return -1
	}, raw)
	if id == "" {
		return s.errorf("property identifier %q has no upper-case letter", raw)
	}
	sk.WriteString(id)
	n := 0
	for {
		s.skipSpace() // "SZ [19]" and "AB[aa] [bb]" are legal
		if s.pos == len(s.src) || s.src[s.pos] != '[' {
			break
		}
		v, err := s.value()
		if err != nil {
			return err
		}
		if s.values++; s.values > maxValues {
			return fmt.Errorf("%w: more than %d property values", ErrTooLarge, maxValues)
		}
		sk.WriteString("[]")
		t.values = append(t.values, v)
		n++
	}
	if n == 0 {
		return s.errorf("property %s has no value", raw)
	}
	return nil
}

// value reads a bracketed value and unescapes it: "\]" is "]", "\\" is "\", a backslash before a line
// break removes both (a soft line break), and every line break (\n, \r, \r\n, \n\r) becomes "\n".
func (s *scanner) value() (string, error) {
	start := *s // for the error: columns are counted only when needed, or one long line costs quadratic time
	unclosed := func() error { return start.errorf("value not closed with ']'") }
	s.pos++ // '['
	// Most values (moves, names) need no unescaping: share the text rather than copy it.
	if i := strings.IndexAny(s.src[s.pos:], "]\\\r\n"); i >= 0 && s.src[s.pos+i] == ']' {
		v := s.src[s.pos : s.pos+i]
		s.pos += i + 1
		return v, nil
	}
	var v strings.Builder
	for {
		i := strings.IndexAny(s.src[s.pos:], "]\\\r\n")
		if i < 0 {
			return "", unclosed()
		}
		v.WriteString(s.src[s.pos : s.pos+i])
		s.pos += i
		switch s.src[s.pos] {
		case ']':
			s.pos++
			return v.String(), nil
		case '\\':
			s.pos++
			if s.pos == len(s.src) {
				return "", unclosed()
			}
			if c := s.src[s.pos]; c == '\r' || c == '\n' {
				s.lineBreak()
			} else {
				v.WriteByte(c) // a multi-byte character's other bytes follow with the next run
				s.pos++
			}
		default:
			s.lineBreak()
			v.WriteByte('\n')
		}
	}
}

// skipSpace moves past white space and control characters.
func (s *scanner) skipSpace() {
	for s.pos < len(s.src) && isSpace(s.src[s.pos]) {
		if c := s.src[s.pos]; c == '\r' || c == '\n' {
			s.lineBreak()
		} else {
			s.pos++
		}
	}
}

// skip moves to offset end, counting lines.
func (s *scanner) skip(end int) {
	for s.pos < end {
		if c := s.src[s.pos]; c == '\r' || c == '\n' {
			s.lineBreak()
		} else {
			s.pos++
		}
	}
}

// lineBreak moves past one line break: \n, \r, \r\n or \n\r.
func (s *scanner) lineBreak() {
	c := s.src[s.pos]
	s.pos++
	if s.pos < len(s.src) && (s.src[s.pos] == '\r' || s.src[s.pos] == '\n') && s.src[s.pos] != c {
		s.pos++
	}
	s.line++
	s.lineStart = s.pos
}

// col returns the 1-based column of pos in characters.
func (s *scanner) col() int { return utf8.RuneCountInString(s.src[s.lineStart:s.pos]) + 1 }

func (s *scanner) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: line %d, column %d: %s", ErrSyntax, s.line, s.col(), fmt.Sprintf(format, args...))
}
