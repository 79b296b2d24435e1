package cli

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tokEOF    tokKind = iota
	tokIdent          // a bare word: keyword, keyspace or column family name
	tokString         // 'quoted text' ('' or \' inside is a quote)
	tokNumber         // -?[0-9]+
	tokPunct          // one of . [ ] ( ) = ;
	tokEnd            // end of a statement: ';' or a new line
)

type token struct {
	kind tokKind
	text string // the word, the unquoted string, the digits or the punctuation
	pos  int    // byte offset in the input, for error messages
}

func (t token) String() string {
	switch t.kind {
	case tokEOF:
		return "end of input"
	case tokEnd:
		return "end of statement"
	case tokString:
		return fmt.Sprintf("'%s'", strings.ReplaceAll(t.text, "'", "''"))
	}
	return fmt.Sprintf("%q", t.text)
}

// SyntaxError is a statement the parser cannot read.
type SyntaxError struct {
	Pos int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("syntax error at %d: %s", e.Pos+1, e.Msg) }

func isIdentStart(r rune) bool {
	return r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
}

func isIdentPart(r rune) bool { return isIdentStart(r) || ('0' <= r && r <= '9') || r == '-' }

// lex splits src into tokens. Comments run from "--" or "#" to the end of the line.
func lex(src string) ([]token, error) {
	var toks []token
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return nil, &SyntaxError{Pos: i, Msg: "invalid UTF-8"}
		case r == '\n' || r == ';':
			toks = append(toks, token{kind: tokEnd, text: string(r), pos: i})
			i += size
		case r == ' ' || r == '\t' || r == '\r':
			i += size
		case r == '#' || strings.HasPrefix(src[i:], "--"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case r == '\'':
			s, n, err := lexString(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, token{kind: tokString, text: s, pos: i})
			i += n
		case r == '-' || ('0' <= r && r <= '9'):
			j := i + 1
			for j < len(src) && '0' <= src[j] && src[j] <= '9' {
				j++
			}
			if r == '-' && j == i+1 {
				return nil, &SyntaxError{Pos: i, Msg: "'-' must start a number"}
			}
			toks = append(toks, token{kind: tokNumber, text: src[i:j], pos: i})
			i = j
		case isIdentStart(r):
			j := i
			for j < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[j:])
				if !isIdentPart(r2) {
					break
				}
				j += s2
			}
			toks = append(toks, token{kind: tokIdent, text: src[i:j], pos: i})
			i = j
		case strings.ContainsRune(".[]()=,", r):
			toks = append(toks, token{kind: tokPunct, text: string(r), pos: i})
			i += size
		default:
			return nil, &SyntaxError{Pos: i, Msg: fmt.Sprintf("unexpected character %q", r)}
		}
	}
	return append(toks, token{kind: tokEOF, pos: len(src)}), nil
}

// lexString reads a quoted string starting at src[start] == '\”. A quote inside is written ”
// (as in SQL) or \'; \\ is a backslash.
func lexString(src string, start int) (string, int, error) {
	var sb strings.Builder
	i := start + 1
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\'' && i+1 < len(src) && src[i+1] == '\'':
			sb.WriteByte('\'')
			i += 2
		case c == '\'':
			return sb.String(), i + 1 - start, nil
		case c == '\\' && i+1 < len(src) && (src[i+1] == '\'' || src[i+1] == '\\'):
			sb.WriteByte(src[i+1])
			i += 2
		case c == '\n':
			return "", 0, &SyntaxError{Pos: start, Msg: "unterminated string"}
		default:
			sb.WriteByte(c)
			i++
		}
	}
	return "", 0, &SyntaxError{Pos: start, Msg: "unterminated string"}
}
