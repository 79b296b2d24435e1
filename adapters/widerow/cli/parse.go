package cli

import (
	"fmt"
	"strconv"
	"strings"
)

// Stmt is one parsed statement.
type Stmt interface{ stmt() }

// ShowKeyspaces is "show keyspaces".
type ShowKeyspaces struct{}

// Describe is "describe keyspace K".
type Describe struct{ Keyspace string }

// Help is "help" or "help <topic>".
type Help struct{ Topic string }

// Quit is "quit" or "exit".
type Quit struct{}

// Set is "set <path> = <term>".
type Set struct {
	Path  Path
	Value Term
}

// Get is "get <path> [slice]".
type Get struct {
	Path  Path
	Slice *Slice
}

// Del is "del <path>".
type Del struct{ Path Path }

// Count is "count <path>".
type Count struct{ Path Path }

// List is "list K.CF [limit N]".
type List struct {
	Keyspace, CF string
	// Limit is the statement's limit, or DefaultListLimit when HasLimit is false.
	Limit    int
	HasLimit bool
	Pos      int
}

// DefaultListLimit is the rows a list shows when the statement gives no limit.
const DefaultListLimit = 100

func (ShowKeyspaces) stmt() {}
func (Describe) stmt()      {}
func (Help) stmt()          {}
func (Quit) stmt()          {}
func (Set) stmt()           {}
func (Get) stmt()           {}
func (Del) stmt()           {}
func (Count) stmt()         {}
func (List) stmt()          {}

// Path is K.CF['key'] followed by up to two names: ['column'], or ['super']['column'].
type Path struct {
	Keyspace, CF string
	Key          Term
	Names        []Term
	Pos          int
}

// TermKind tells literals from type function calls.
type TermKind uint8

// The kinds of Term.
const (
	TermString TermKind = iota + 1
	TermNumber
	TermFunc
)

// Term is a name, key or value: a literal, or a type function like long(123).
type Term struct {
	Kind TermKind
	Text string // the literal, or the function's name
	Arg  *Term  // the function's argument, nil when called without one
	Pos  int
}

func (t Term) String() string {
	switch t.Kind {
	case TermString:
		return "'" + strings.ReplaceAll(t.Text, "'", "''") + "'"
	case TermFunc:
		if t.Arg == nil {
			return t.Text + "()"
		}
		return t.Text + "(" + t.Arg.String() + ")"
	}
	return t.Text
}

// Slice is the slice range of a get: start, finish, reversed, limit.
type Slice struct {
	Start, Finish *Term
	Reversed      bool
	Limit         int
	HasLimit      bool
}

// MaxLimit bounds a limit given in a statement.
const MaxLimit = 1_000_000

type parser struct {
	toks []token
	i    int
}

// Parse reads every statement of src. Empty statements are skipped.
func Parse(src string) ([]Stmt, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	var out []Stmt
	for {
		for p.peek().kind == tokEnd {
			p.i++
		}
		if p.peek().kind == tokEOF {
			return out, nil
		}
		s, err := p.statement()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
		if t := p.peek(); t.kind != tokEnd && t.kind != tokEOF {
			return nil, p.errf(t, "unexpected %s after the statement", t)
		}
	}
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

func (p *parser) errf(t token, format string, args ...any) error {
	return &SyntaxError{Pos: t.pos, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) isWord(word string) bool {
	t := p.peek()
	return t.kind == tokIdent && strings.EqualFold(t.text, word)
}

func (p *parser) word(word string) error {
	if !p.isWord(word) {
		return p.errf(p.peek(), "want %q, got %s", word, p.peek())
	}
	p.i++
	return nil
}

func (p *parser) punct(s string) error {
	t := p.peek()
	if t.kind != tokPunct || t.text != s {
		return p.errf(t, "want %q, got %s", s, t)
	}
	p.i++
	return nil
}

func (p *parser) isPunct(s string) bool {
	t := p.peek()
	return t.kind == tokPunct && t.text == s
}

func (p *parser) ident(what string) (token, error) {
	t := p.peek()
	if t.kind != tokIdent {
		return t, p.errf(t, "want %s, got %s", what, t)
	}
	p.i++
	return t, nil
}

func (p *parser) statement() (Stmt, error) {
	t, err := p.ident("a command (try help)")
	if err != nil {
		return nil, err
	}
	switch strings.ToLower(t.text) {
	case "show":
		if err := p.word("keyspaces"); err != nil {
			return nil, err
		}
		return ShowKeyspaces{}, nil
	case "describe", "desc":
		if p.isWord("keyspace") {
			p.i++
		}
		ks, err := p.ident("a keyspace name")
		if err != nil {
			return nil, err
		}
		return Describe{Keyspace: ks.text}, nil
	case "help", "?":
		if n := p.peek(); n.kind == tokIdent {
			p.i++
			return Help{Topic: strings.ToLower(n.text)}, nil
		}
		return Help{}, nil
	case "quit", "exit":
		return Quit{}, nil
	case "set":
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		if err := p.punct("="); err != nil {
			return nil, err
		}
		v, err := p.term()
		if err != nil {
			return nil, err
		}
		return Set{Path: path, Value: v}, nil
	case "get":
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		sl, err := p.slice()
		if err != nil {
			return nil, err
		}
		return Get{Path: path, Slice: sl}, nil
	case "del", "delete":
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		return Del{Path: path}, nil
	case "count":
		path, err := p.path()
		if err != nil {
			return nil, err
		}
		return Count{Path: path}, nil
	case "list":
		ks, cf, err := p.cfName()
		if err != nil {
			return nil, err
		}
		l := List{Keyspace: ks, CF: cf, Limit: DefaultListLimit, Pos: t.pos}
		bracket := p.isPunct("[")
		if bracket {
			p.i++
		}
		if p.isWord("limit") {
			p.i++
			if l.Limit, err = p.limit(); err != nil {
				return nil, err
			}
			l.HasLimit = true
		}
		if bracket {
			if err := p.punct("]"); err != nil {
				return nil, err
			}
		}
		return l, nil
	}
	return nil, p.errf(t, "unknown command %q (try help)", t.text)
}

func (p *parser) cfName() (string, string, error) {
	ks, err := p.ident("a keyspace name")
	if err != nil {
		return "", "", err
	}
	if err := p.punct("."); err != nil {
		return "", "", err
	}
	cf, err := p.ident("a column family name")
	if err != nil {
		return "", "", err
	}
	return ks.text, cf.text, nil
}

func (p *parser) path() (Path, error) {
	pos := p.peek().pos
	ks, cf, err := p.cfName()
	if err != nil {
		return Path{}, err
	}
	path := Path{Keyspace: ks, CF: cf, Pos: pos}
	for p.isPunct("[") && !p.sliceAhead() {
		open := p.next()
		t, err := p.term()
		if err != nil {
			return Path{}, err
		}
		if err := p.punct("]"); err != nil {
			return Path{}, err
		}
		if path.Key.Kind == 0 {
			path.Key = t
			continue
		}
		if len(path.Names) == 2 {
			return Path{}, p.errf(open, "a path has at most a key and two names: K.CF['key']['super']['column']")
		}
		path.Names = append(path.Names, t)
	}
	if path.Key.Kind == 0 {
		return Path{}, p.errf(p.peek(), "want ['row key'] after %s.%s", ks, cf)
	}
	return path, nil
}

// sliceAhead reports whether the '[' at the cursor opens a slice clause, not a path element.
func (p *parser) sliceAhead() bool {
	if p.i+1 >= len(p.toks) {
		return false
	}
	t := p.toks[p.i+1]
	if t.kind != tokIdent {
		return false
	}
	switch strings.ToLower(t.text) {
	case "start", "finish", "reversed", "limit":
		return true
	}
	return false
}

// slice reads: { start <term> | finish <term> | reversed | limit N }, optionally in [ ].
func (p *parser) slice() (*Slice, error) {
	bracket := false
	if p.isPunct("[") && p.sliceAhead() {
		bracket = true
		p.i++
	}
	var sl *Slice
	for {
		t := p.peek()
		if t.kind != tokIdent {
			break
		}
		if sl == nil {
			sl = &Slice{}
		}
		switch strings.ToLower(t.text) {
		case "start", "finish":
			p.i++
			v, err := p.term()
			if err != nil {
				return nil, err
			}
			if strings.EqualFold(t.text, "start") {
				sl.Start = &v
			} else {
				sl.Finish = &v
			}
		case "reversed":
			p.i++
			sl.Reversed = true
		case "limit":
			p.i++
			n, err := p.limit()
			if err != nil {
				return nil, err
			}
			sl.Limit, sl.HasLimit = n, true
		default:
			return nil, p.errf(t, "want start, finish, reversed or limit, got %s", t)
		}
	}
	if bracket {
		if err := p.punct("]"); err != nil {
			return nil, err
		}
	}
	return sl, nil
}

func (p *parser) limit() (int, error) {
	t := p.peek()
	if t.kind != tokNumber {
		return 0, p.errf(t, "want a number after limit, got %s", t)
	}
	p.i++
	n, err := strconv.Atoi(t.text)
	if err != nil || n < 0 || n > MaxLimit {
		return 0, p.errf(t, "limit must be 0 to %d", MaxLimit)
	}
	return n, nil
}

// term reads 'text', 123, -5, or fn(), fn('arg'), fn(123).
func (p *parser) term() (Term, error) {
	t := p.next()
	switch t.kind {
	case tokString:
		return Term{Kind: TermString, Text: t.text, Pos: t.pos}, nil
	case tokNumber:
		return Term{Kind: TermNumber, Text: t.text, Pos: t.pos}, nil
	case tokIdent:
		if !p.isPunct("(") {
			return Term{}, p.errf(t, "bare word %q: quote text ('%s') or call a type function like long(1)", t.text, t.text)
		}
		p.i++
		fn := Term{Kind: TermFunc, Text: strings.ToLower(t.text), Pos: t.pos}
		if !p.isPunct(")") {
			a := p.next()
			switch a.kind {
			case tokString:
				fn.Arg = &Term{Kind: TermString, Text: a.text, Pos: a.pos}
			case tokNumber:
				fn.Arg = &Term{Kind: TermNumber, Text: a.text, Pos: a.pos}
			default:
				return Term{}, p.errf(a, "the argument of %s() must be a quoted string or a number, got %s", fn.Text, a)
			}
		}
		if err := p.punct(")"); err != nil {
			return Term{}, err
		}
		return fn, nil
	}
	return Term{}, p.errf(t, "want a quoted string, a number or a type function, got %s", t)
}
