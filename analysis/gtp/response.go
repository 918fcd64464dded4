package gtp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// MaxResponseSize bounds one response, so a runaway engine cannot make the
// client buffer without limit.
const MaxResponseSize = 1 << 20

// ErrMalformed marks engine output that is not a GTP response.
var ErrMalformed = errors.New("malformed GTP response")

// Response is one GTP response: "=[id] result" or "?[id] error", possibly
// spanning several lines, ended by an empty line.
type Response struct {
	ID    int  // the command id echoed by the engine; meaningful when HasID
	HasID bool // the engine echoed an id
	OK    bool // '=' (success) rather than '?' (failure)
	// Text is the result or error message: the rest of the first line with
	// surrounding blanks removed, then each further line as sent (carriage
	// returns removed), joined by "\n". When the first line carries nothing
	// and more lines follow (GNU Go's showboard), Text starts with "\n".
	Text string
}

// String formats r as the engine sends it, terminating empty line included.
func (r Response) String() string {
	var b strings.Builder
	if r.OK {
		b.WriteByte('=')
	} else {
		b.WriteByte('?')
	}
	if r.HasID {
		b.WriteString(strconv.Itoa(r.ID))
	}
	b.WriteByte(' ')
	b.WriteString(r.Text)
	b.WriteString("\n\n")
	return b.String()
}

// isBlank reports whether a line ends a response. The protocol says an empty
// line; a line of blanks is taken as one too, since it can carry no result.
func isBlank(line string) bool {
	return strings.Trim(line, " \t\r\n") == ""
}

// ReadResponse reads one response from r. Blank lines before it are
// skipped. Output that does not start with '=' or '?' gives an error
// wrapping ErrMalformed; input ending inside a response gives one wrapping
// io.ErrUnexpectedEOF; input ending before any response gives io.EOF.
func ReadResponse(r *bufio.Reader) (Response, error) {
	var (
		resp  Response
		lines []string
		size  int
	)
	for {
		line, err := readLine(r, MaxResponseSize-size)
		if errors.Is(err, errTooLong) {
			return Response{}, fmt.Errorf("%w: longer than %d bytes", ErrMalformed, MaxResponseSize)
		}
		size += len(line)
		switch {
		case lines == nil && isBlank(line):
			// Nothing started yet: skip.
		case lines == nil:
			first, err := parseHeader(strings.TrimRight(line, "\r\n"), &resp)
			if err != nil {
				return Response{}, err
			}
			lines = append(lines, first)
		case isBlank(line):
			// An empty line ends the response; one cut short by the end
			// of input does not.
			if strings.HasSuffix(line, "\n") {
				resp.Text = strings.Join(lines, "\n")
				return resp, nil
			}
		default:
			// Carriage returns are line-end noise from the engine's
			// platform, not content.
			lines = append(lines, strings.ReplaceAll(strings.TrimRight(line, "\n"), "\r", ""))
		}
		if err == io.EOF {
			if lines == nil {
				return Response{}, io.EOF
			}
			return Response{}, fmt.Errorf("gtp response %.40q: %w", strings.Join(lines, "\n"), io.ErrUnexpectedEOF)
		}
		if err != nil {
			return Response{}, err
		}
	}
}

var errTooLong = errors.New("line too long")

// readLine reads up to and including the next '\n', or to the end of input,
// failing with errTooLong once more than limit bytes are read.
func readLine(r *bufio.Reader, limit int) (string, error) {
	var buf []byte
	for {
		frag, err := r.ReadSlice('\n')
		if len(buf)+len(frag) > limit {
			return "", errTooLong
		}
		buf = append(buf, frag...)
		if err != bufio.ErrBufferFull {
			return string(buf), err
		}
	}
}

// parseHeader parses the first line of a response into resp and returns the
// text on that line.
func parseHeader(line string, resp *Response) (string, error) {
	switch line[0] {
	case '=':
		resp.OK = true
	case '?':
	default:
		return "", fmt.Errorf("%w: %.60q", ErrMalformed, line)
	}
	rest := line[1:]
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits > 0 {
		id, err := strconv.Atoi(rest[:digits])
		if err != nil {
			return "", fmt.Errorf("%w: id in %.60q: %w", ErrMalformed, line, err)
		}
		resp.ID, resp.HasID = id, true
		rest = rest[digits:]
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", fmt.Errorf("%w: no blank after %.60q", ErrMalformed, line[:1+digits])
	}
	return strings.Trim(strings.ReplaceAll(rest, "\r", ""), " \t"), nil
}
