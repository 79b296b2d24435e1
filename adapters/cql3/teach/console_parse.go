package teach

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The CQL console's parser: a lexer of CQL's tokens (Cassandra's Lexer.g: identifiers, quoted
// names, strings with '' and $$, integers, floats, UUIDs, blobs, comments) and a
// recursive-descent parser of the statements the console allows, after Cassandra's Parser.g.
//
// Why a parser of our own: antlr/grammars-v4's CQL3 grammar would need the ANTLR tool to
// generate some ten thousand lines of Go for a whole language the console mostly refuses, and
// it is a community grammar that trails Cassandra's own (5.0's reserved words, its terms);
// datastax/cql-proxy's parser only finds a statement's kind, keyspace and table for routing and
// skips the rest, so it checks nothing of a statement's syntax and cannot say which column a
// statement names. The console needs both: what is outside its subset refused with a message
// naming what is allowed, and every table and column the statement names, to map them into the
// sandbox and keep hidden columns out. So the parser is of that subset only, and it does not
// hand back the learner's text: it builds the statement anew from its parsed pieces (pieces),
// each table a reference the sandbox maps, each column a name it quotes, each literal
// re-quoted, so no text of the learner's reaches the node but as a value or a quoted name.
// TestConsoleParserAgreesWithTheNode holds it to the node: what it takes the node parses, what
// it calls a syntax error the node calls one too.

// cqlTok is a token of CQL.
type cqlTok struct {
	kind byte   // see tok*
	text string // as written (an identifier's or a literal's text)
	val  string // a string's or a quoted name's value
	pos  int    // byte offset in the line
}

const (
	tokEOF    = 0
	tokIdent  = 'i' // unquoted identifier or keyword
	tokQuoted = 'q' // "quoted name"
	tokString = 's' // 'string' or $$string$$
	tokInt    = 'n'
	tokFloat  = 'f'
	tokUUID   = 'u'
	tokHex    = 'x' // 0x...
	tokPunct  = 'p'
)

// cqlSyntaxError is a statement that is not CQL: the console shows it as cqlsh shows the node's
// SyntaxException.
type cqlSyntaxError struct {
	pos int
	msg string
}

func (e *cqlSyntaxError) Error() string { return fmt.Sprintf("line 1:%d %s", e.pos, e.msg) }

// notAllowedError is CQL the console does not run: Message names what it allows instead.
type notAllowedError struct{ msg string }

func (e *notAllowedError) Error() string { return e.msg }

func isIdentStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isIdentPart(c byte) bool  { return isIdentStart(c) || c >= '0' && c <= '9' || c == '_' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isHex(c byte) bool        { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// uuidAt reports the length of a UUID at s[i:], or 0.
func uuidAt(s string, i int) int {
	groups := []int{8, 4, 4, 4, 12}
	j := i
	for g, n := range groups {
		for range n {
			if j >= len(s) || !isHex(s[j]) {
				return 0
			}
			j++
		}
		if g < 4 {
			if j >= len(s) || s[j] != '-' {
				return 0
			}
			j++
		}
	}
	if j < len(s) && isIdentPart(s[j]) {
		return 0
	}
	return j - i
}

// lexCQL splits a line into CQL's tokens.
func lexCQL(s string) ([]cqlTok, error) {
	var out []cqlTok
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-', c == '/' && i+1 < len(s) && s[i+1] == '/':
			// Cassandra's Lexer.g ends a line comment with its newline: one at the end of the
			// text, without it, is a syntax error there too.
			end := strings.IndexAny(s[i:], "\r\n")
			if end < 0 {
				return nil, &cqlSyntaxError{len(s), "mismatched character '<EOF>': a comment with -- or // ends with a new line"}
			}
			i += end
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return nil, &cqlSyntaxError{i, "unterminated comment"}
			}
			i += end + 4
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return nil, &cqlSyntaxError{i, "unterminated string"}
				}
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, cqlTok{kind: tokString, text: s[i : j+1], val: b.String(), pos: i})
			i = j + 1
		case c == '$' && i+1 < len(s) && s[i+1] == '$':
			end := strings.Index(s[i+2:], "$$")
			if end < 0 {
				return nil, &cqlSyntaxError{i, "unterminated string"}
			}
			out = append(out, cqlTok{kind: tokString, text: s[i : i+end+4], val: s[i+2 : i+2+end], pos: i})
			i += end + 4
		case c == '"':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(s) {
					return nil, &cqlSyntaxError{i, "unterminated quoted name"}
				}
				if s[j] == '"' {
					if j+1 < len(s) && s[j+1] == '"' {
						b.WriteByte('"')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			if b.Len() == 0 {
				return nil, &cqlSyntaxError{i, "empty quoted name"}
			}
			out = append(out, cqlTok{kind: tokQuoted, text: s[i : j+1], val: b.String(), pos: i})
			i = j + 1
		case isHex(c) && uuidAt(s, i) > 0:
			n := uuidAt(s, i)
			out = append(out, cqlTok{kind: tokUUID, text: strings.ToLower(s[i : i+n]), pos: i})
			i += n
		case c == '0' && i+1 < len(s) && (s[i+1] == 'x' || s[i+1] == 'X'):
			j := i + 2
			for j < len(s) && isHex(s[j]) {
				j++
			}
			if j < len(s) && isIdentPart(s[j]) {
				return nil, &cqlSyntaxError{i, "malformed blob literal"}
			}
			out = append(out, cqlTok{kind: tokHex, text: "0x" + strings.ToLower(s[i+2:j]), pos: i})
			i = j
		case isDigit(c) || c == '-' && i+1 < len(s) && isDigit(s[i+1]):
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			kind := byte(tokInt)
			if j+1 < len(s) && s[j] == '.' && isDigit(s[j+1]) {
				kind = tokFloat
				j++
				for j < len(s) && isDigit(s[j]) {
					j++
				}
			}
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
				k := j + 1
				if k < len(s) && (s[k] == '+' || s[k] == '-') {
					k++
				}
				if k < len(s) && isDigit(s[k]) {
					kind = tokFloat
					j = k
					for j < len(s) && isDigit(s[j]) {
						j++
					}
				}
			}
			if j < len(s) && isIdentPart(s[j]) {
				return nil, &cqlSyntaxError{i, fmt.Sprintf("malformed number near '%s'", s[i:min(len(s), j+1)])}
			}
			out = append(out, cqlTok{kind: kind, text: s[i:j], pos: i})
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < len(s) && isIdentPart(s[j]) {
				j++
			}
			out = append(out, cqlTok{kind: tokIdent, text: s[i:j], pos: i})
			i = j
		default:
			for _, p := range []string{"<=", ">=", "!=", "+=", "-=", "(", ")", ",", ";", ".", "*", "=", "<", ">", "[", "]", "{", "}", ":", "?", "+", "-"} {
				if strings.HasPrefix(s[i:], p) {
					out = append(out, cqlTok{kind: tokPunct, text: p, pos: i})
					i += len(p)
					goto next
				}
			}
			if r, _ := utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError {
				return nil, &cqlSyntaxError{i, fmt.Sprintf("token recognition error at: '%c'", r)}
			}
			return nil, &cqlSyntaxError{i, "token recognition error"}
		next:
		}
	}
	return append(out, cqlTok{kind: tokEOF, pos: len(s)}), nil
}

// reservedCQL are Cassandra 5.0's reserved keywords (its documentation's appendix A, and
// Parser.g's basic_unreserved_keyword for the rest): none is an identifier unless quoted.
var reservedCQL = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`ADD ALLOW ALTER AND APPLY ASC AUTHORIZE BATCH BEGIN BY COLUMNFAMILY CREATE
		DELETE DESC DESCRIBE DROP ENTRIES EXECUTE FROM FULL GRANT IF IN INDEX INFINITY INSERT INTO IS
		KEYSPACE LIMIT MODIFY NAN NORECURSIVE NOT NULL OF ON OR ORDER PRIMARY RENAME REPLACE REVOKE
		SCHEMA SELECT SET TABLE TO TOKEN TRUNCATE UNLOGGED UPDATE USE USING VIEW WHERE WITH
		MBEAN MBEANS DEFAULT UNSET`) {
		reservedCQL[w] = true
	}
}

// pieceKind is what a piece of a rebuilt statement is.
type pieceKind byte

const (
	pWord  pieceKind = iota // a keyword, an operator or punctuation: the parser's own text
	pTable                  // the statement's table: the sandbox maps it
	pCol                    // a column of the statement's table
	pName                   // another name (a selector's alias): quoted as needed
	pLit                    // a literal, re-quoted by the lexer's reading
	pIndex                  // an index's name: the sandbox maps it as a table's
)

type piece struct {
	kind pieceKind
	text string // pWord, pLit: the text; pCol, pName, pIndex: the name's value
	// glue: no space before it; stick: none after it.
	glue, stick bool
}

// tableRef is a table as a statement names it.
type tableRef struct {
	Keyspace string // "" when not named
	Name     string
	Quoted   bool // the name was quoted
}

func (t tableRef) String() string {
	if t.Keyspace == "" {
		return quoteName(t.Name)
	}
	return quoteName(t.Keyspace) + "." + quoteName(t.Name)
}

// cqlStmt is one parsed statement.
type cqlStmt struct {
	Verb   string   // SELECT, INSERT, UPDATE, DELETE, BATCH, CREATE TABLE, ALTER TABLE, DROP TABLE, TRUNCATE, CREATE INDEX, DROP INDEX, USE, TRACING, CONSISTENCY, DESCRIBE
	Table  tableRef // the table it names (none for BATCH, TRACING, CONSISTENCY, DESCRIBE TABLES)
	Index  string   // CREATE INDEX's and DROP INDEX's name, as typed ("" when CREATE INDEX names none)
	Pieces []piece
	// Star is the index in Pieces of SELECT's "*", or -1.
	Star int
	// Cols are the columns the statement names (pCol pieces), without repeats.
	Cols []string
	// Batch are a BATCH's statements.
	Batch []*cqlStmt
	// Arg is TRACING's ON or OFF, CONSISTENCY's level, DESCRIBE's "TABLES", "TABLE" or "KEYSPACE"
	// ("" when none is given), USE's keyspace.
	Arg string
	// Writes is how many rows a write statement names at most (a BATCH's sum).
	Writes int
}

// quoteName writes a name as CQL reads it back: bare when it is lower case and no keyword,
// else quoted.
func quoteName(n string) string {
	plain := n != "" && n[0] >= 'a' && n[0] <= 'z' && !reservedCQL[strings.ToUpper(n)]
	for i := 0; plain && i < len(n); i++ {
		plain = n[i] >= 'a' && n[i] <= 'z' || isDigit(n[i]) || n[i] == '_'
	}
	if plain {
		return n
	}
	return `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
}

// render writes the statement with table as its table's name and index as its index's.
func (st *cqlStmt) render(table, index string) string {
	var b strings.Builder
	for i, p := range st.Pieces {
		var t string
		switch p.kind {
		case pWord, pLit:
			t = p.text
		case pTable:
			t = table
		case pIndex:
			t = index
		case pCol, pName:
			t = quoteName(p.text)
		}
		if i > 0 && !p.glue && !st.Pieces[i-1].stick {
			b.WriteByte(' ')
		}
		b.WriteString(t)
	}
	return b.String()
}

// cqlParser parses the tokens of a line.
type cqlParser struct {
	toks []cqlTok
	i    int
	st   *cqlStmt
}

func (p *cqlParser) peek() cqlTok { return p.toks[p.i] }

func (p *cqlParser) errf(format string, args ...any) error {
	t := p.peek()
	near := t.text
	if t.kind == tokEOF {
		near = "<EOF>"
	}
	return &cqlSyntaxError{t.pos, fmt.Sprintf(format, args...) + fmt.Sprintf(" at input '%s'", near)}
}

// isKw reports whether the next token is keyword w (unquoted, any case).
func (p *cqlParser) isKw(w string) bool {
	t := p.peek()
	return t.kind == tokIdent && strings.EqualFold(t.text, w)
}

func (p *cqlParser) isKwAt(k int, w string) bool {
	if p.i+k >= len(p.toks) {
		return false
	}
	t := p.toks[p.i+k]
	return t.kind == tokIdent && strings.EqualFold(t.text, w)
}

func (p *cqlParser) isP(s string) bool { t := p.peek(); return t.kind == tokPunct && t.text == s }

func (p *cqlParser) emit(k pieceKind, text string) {
	pc := piece{kind: k, text: text}
	if k == pWord {
		pc.glue = text == "," || text == ")" || text == "]" || text == "}" || text == ":" || text == ";"
		pc.stick = text == "(" || text == "[" || text == "{"
	}
	p.st.Pieces = append(p.st.Pieces, pc)
}

// glueLast writes the last piece right after the one before it (a call's "(", a type's "<").
func (p *cqlParser) glueLast() { p.st.Pieces[len(p.st.Pieces)-1].glue = true }

// kw consumes keyword w and emits it.
func (p *cqlParser) kw(w string) error {
	if !p.isKw(w) {
		return p.errf("mismatched input, expecting %s", w)
	}
	p.i++
	p.emit(pWord, w)
	return nil
}

// optKw consumes keyword w when it is next.
func (p *cqlParser) optKw(w string) bool {
	if p.isKw(w) {
		p.i++
		p.emit(pWord, w)
		return true
	}
	return false
}

// optIfExists reads an optional IF EXISTS, or IF NOT EXISTS when not: a DDL statement's
// condition.
func (p *cqlParser) optIfExists(not bool) error {
	if !p.optKw("IF") {
		return nil
	}
	if not {
		if err := p.kw("NOT"); err != nil {
			return err
		}
	}
	return p.kw("EXISTS")
}

func (p *cqlParser) punct(s string) error {
	if !p.isP(s) {
		return p.errf("mismatched input, expecting '%s'", s)
	}
	p.i++
	p.emit(pWord, s)
	return nil
}

func (p *cqlParser) optP(s string) bool {
	if p.isP(s) {
		p.i++
		p.emit(pWord, s)
		return true
	}
	return false
}

// ident reads an identifier: unquoted (lower-cased, never a reserved keyword) or quoted.
func (p *cqlParser) ident() (string, bool, error) {
	t := p.peek()
	switch {
	case t.kind == tokIdent && !reservedCQL[strings.ToUpper(t.text)]:
		p.i++
		return strings.ToLower(t.text), false, nil
	case t.kind == tokQuoted:
		p.i++
		return t.val, true, nil
	}
	return "", false, p.errf("no viable alternative, expecting an identifier")
}

// col reads a column name and emits it.
func (p *cqlParser) col() (string, error) {
	n, _, err := p.ident()
	if err != nil {
		return "", err
	}
	p.emit(pCol, n)
	for _, c := range p.st.Cols {
		if c == n {
			return n, nil
		}
	}
	p.st.Cols = append(p.st.Cols, n)
	return n, nil
}

// table reads [keyspace.]table and emits it.
func (p *cqlParser) table() error {
	a, q, err := p.ident()
	if err != nil {
		return err
	}
	ref := tableRef{Name: a, Quoted: q}
	if p.isP(".") {
		p.i++
		b, q2, err := p.ident()
		if err != nil {
			return err
		}
		ref = tableRef{Keyspace: a, Name: b, Quoted: q2}
	}
	p.st.Table = ref
	p.emit(pTable, "")
	return nil
}

// consoleFunctions are the functions a statement may call: CQL's native ones on values and
// time, and the aggregates.
var consoleFunctions = map[string]bool{}

func init() {
	for _, f := range strings.Fields(`now uuid currenttimestamp currentdate currenttime currenttimeuuid
		mintimeuuid maxtimeuuid totimestamp todate tounixtimestamp dateof unixtimestampof
		writetime maxwritetime minwritetime ttl token count min max sum avg
		blobastext textasblob blobasbigint bigintasblob blobasint intasblob tojson`) {
		consoleFunctions[f] = true
	}
}

// term reads a value: a literal, a collection or a tuple of terms, or a function's call.
func (p *cqlParser) term() error {
	t := p.peek()
	switch t.kind {
	case tokString:
		p.i++
		p.emit(pLit, "'"+strings.ReplaceAll(t.val, "'", "''")+"'")
		return nil
	case tokInt, tokFloat, tokUUID, tokHex:
		p.i++
		p.emit(pLit, t.text)
		return nil
	case tokPunct:
		switch t.text {
		case "?":
			return &notAllowedError{"the console takes values, not bind markers (?)"}
		case "[":
			p.i++
			p.emit(pWord, "[")
			return p.termsUntil("]")
		case "(":
			p.i++
			p.emit(pWord, "(")
			return p.termsUntil(")")
		case "{":
			p.i++
			p.emit(pWord, "{")
			if p.optP("}") {
				return nil
			}
			if err := p.term(); err != nil {
				return err
			}
			isMap := p.optP(":")
			if isMap {
				if err := p.term(); err != nil {
					return err
				}
			}
			for p.optP(",") {
				if err := p.term(); err != nil {
					return err
				}
				if isMap {
					if err := p.punct(":"); err != nil {
						return err
					}
					if err := p.term(); err != nil {
						return err
					}
				}
			}
			return p.punct("}")
		case "-":
			if p.isKwAt(1, "NaN") || p.isKwAt(1, "Infinity") {
				p.i += 2
				p.emit(pLit, "-"+strings.ToLower(p.toks[p.i-1].text))
				return nil
			}
		}
	case tokIdent:
		w := strings.ToUpper(t.text)
		switch w {
		case "TRUE", "FALSE", "NULL", "NAN", "INFINITY":
			p.i++
			p.emit(pLit, map[string]string{"TRUE": "true", "FALSE": "false", "NULL": "null", "NAN": "NaN", "INFINITY": "Infinity"}[w])
			return nil
		}
		if p.i+1 < len(p.toks) && p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == "(" {
			return p.call(false)
		}
	}
	return p.errf("no viable alternative, expecting a value")
}

// termsUntil reads terms separated by commas up to end.
func (p *cqlParser) termsUntil(end string) error {
	if p.optP(end) {
		return nil
	}
	for {
		if err := p.term(); err != nil {
			return err
		}
		if !p.optP(",") {
			return p.punct(end)
		}
	}
}

// call reads a function's call: its arguments are terms, or, in a selection, selectors.
func (p *cqlParser) call(selection bool) error {
	t := p.peek()
	name := strings.ToLower(t.text)
	if t.kind != tokIdent || p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == "." {
		return p.errf("no viable alternative, expecting a function")
	}
	if !consoleFunctions[name] {
		return &notAllowedError{fmt.Sprintf("the console calls CQL's native functions only (now, uuid, minTimeuuid, maxTimeuuid, toTimestamp, toDate, toUnixTimestamp, writetime, ttl, token, count, min, max, sum, avg, ...), not %s", t.text)}
	}
	p.i++
	p.emit(pWord, name) // one of consoleFunctions
	if err := p.punct("("); err != nil {
		return err
	}
	p.glueLast()
	if p.optP(")") {
		return nil
	}
	if selection && name == "count" && p.optP("*") {
		return p.punct(")")
	}
	for {
		var err error
		if selection {
			err = p.selector()
		} else {
			err = p.term()
		}
		if err != nil {
			return err
		}
		if !p.optP(",") {
			return p.punct(")")
		}
	}
}

// selector reads one selector of a SELECT: a column, or a function of selectors.
func (p *cqlParser) selector() error {
	t := p.peek()
	if t.kind == tokIdent && p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == "(" {
		if strings.EqualFold(t.text, "CAST") {
			return &notAllowedError{"the console's SELECT takes columns and functions of them, not CAST"}
		}
		return p.call(true)
	}
	if t.kind == tokIdent || t.kind == tokQuoted {
		_, err := p.col()
		return err
	}
	return p.errf("no viable alternative, expecting a column or a function")
}

// relation reads one relation of a WHERE (or a condition of an IF when cond).
func (p *cqlParser) relation(cond bool) error {
	if !cond && p.isKw("TOKEN") {
		p.i++
		p.emit(pWord, "TOKEN")
		if err := p.punct("("); err != nil {
			return err
		}
		p.glueLast()
		for {
			if _, err := p.col(); err != nil {
				return err
			}
			if !p.optP(",") {
				break
			}
		}
		if err := p.punct(")"); err != nil {
			return err
		}
		if err := p.op(false); err != nil {
			return err
		}
		return p.term()
	}
	if !cond && p.isP("(") { // (a, b) > (1, 2)
		p.i++
		p.emit(pWord, "(")
		for {
			if _, err := p.col(); err != nil {
				return err
			}
			if !p.optP(",") {
				break
			}
		}
		if err := p.punct(")"); err != nil {
			return err
		}
		if p.optKw("IN") {
			return p.term()
		}
		if err := p.op(false); err != nil {
			return err
		}
		return p.term()
	}
	if _, err := p.col(); err != nil {
		return err
	}
	if p.optP("[") {
		p.glueLast()
		if err := p.term(); err != nil {
			return err
		}
		if err := p.punct("]"); err != nil {
			return err
		}
	}
	switch {
	case p.optKw("IN"):
		return p.term()
	case !cond && p.isKw("CONTAINS"):
		p.i++
		p.emit(pWord, "CONTAINS")
		p.optKw("KEY")
		return p.term()
	}
	if err := p.op(cond); err != nil {
		return err
	}
	return p.term()
}

// op reads a relation's operator.
func (p *cqlParser) op(cond bool) error {
	for _, o := range []string{"=", "<", ">", "<=", ">=", "!="} {
		if p.isP(o) {
			if o == "!=" && !cond {
				return &notAllowedError{"!= is for the conditions of an IF, not a WHERE"}
			}
			return p.punct(o)
		}
	}
	if p.isKw("LIKE") {
		return &notAllowedError{"LIKE needs a SASI index, which the console does not make"}
	}
	return p.errf("no viable alternative, expecting an operator (=, <, >, <=, >=, IN, CONTAINS)")
}

// where reads WHERE relation (AND relation)*.
func (p *cqlParser) where() error {
	if err := p.kw("WHERE"); err != nil {
		return err
	}
	for {
		if err := p.relation(false); err != nil {
			return err
		}
		if !p.optKw("AND") {
			return nil
		}
	}
}

// using reads USING TTL n | TIMESTAMP n [AND ...].
func (p *cqlParser) using(ttl bool) error {
	if !p.optKw("USING") {
		return nil
	}
	for {
		switch {
		case ttl && p.optKw("TTL"), p.optKw("TIMESTAMP"):
			t := p.peek()
			if t.kind != tokInt {
				return p.errf("mismatched input, expecting an integer")
			}
			p.i++
			p.emit(pLit, t.text)
		default:
			return p.errf("mismatched input, expecting TTL or TIMESTAMP")
		}
		if !p.optKw("AND") {
			return nil
		}
	}
}

// conditions reads IF EXISTS | IF NOT EXISTS (when notExists) | IF cond (AND cond)*.
func (p *cqlParser) conditions(notExists bool) error {
	if !p.optKw("IF") {
		return nil
	}
	if notExists {
		if err := p.kw("NOT"); err != nil {
			return err
		}
		return p.kw("EXISTS")
	}
	if p.optKw("EXISTS") {
		return nil
	}
	for {
		if err := p.relation(true); err != nil {
			return err
		}
		if !p.optKw("AND") {
			return nil
		}
	}
}

func (p *cqlParser) selectStmt() error {
	p.st.Verb = "SELECT"
	if err := p.kw("SELECT"); err != nil {
		return err
	}
	if p.isKw("JSON") {
		return &notAllowedError{"the console's SELECT shows rows as cqlsh does, not SELECT JSON"}
	}
	if p.isKw("DISTINCT") && !(p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == ",") && !p.isKwAt(1, "FROM") {
		p.optKw("DISTINCT")
	}
	if p.isP("*") {
		p.st.Star = len(p.st.Pieces)
		p.punct("*")
	} else {
		for {
			if err := p.selector(); err != nil {
				return err
			}
			if p.optKw("AS") {
				n, _, err := p.ident()
				if err != nil {
					return err
				}
				p.emit(pName, n)
			}
			if !p.optP(",") {
				break
			}
		}
	}
	if err := p.kw("FROM"); err != nil {
		return err
	}
	if err := p.table(); err != nil {
		return err
	}
	if p.isKw("WHERE") {
		if err := p.where(); err != nil {
			return err
		}
	}
	if p.isKw("GROUP") {
		p.optKw("GROUP")
		if err := p.kw("BY"); err != nil {
			return err
		}
		for {
			if _, err := p.col(); err != nil {
				return err
			}
			if !p.optP(",") {
				break
			}
		}
	}
	if p.optKw("ORDER") {
		if err := p.kw("BY"); err != nil {
			return err
		}
		for {
			if _, err := p.col(); err != nil {
				return err
			}
			if !p.optKw("ASC") {
				p.optKw("DESC")
			}
			if !p.optP(",") {
				break
			}
		}
	}
	if p.optKw("PER") {
		if err := p.kw("PARTITION"); err != nil {
			return err
		}
		if err := p.limitValue(); err != nil {
			return err
		}
	}
	if p.isKw("LIMIT") {
		if err := p.limitValue(); err != nil {
			return err
		}
	}
	if p.optKw("ALLOW") {
		return p.kw("FILTERING")
	}
	return nil
}

func (p *cqlParser) limitValue() error {
	if err := p.kw("LIMIT"); err != nil {
		return err
	}
	t := p.peek()
	if t.kind != tokInt {
		return p.errf("mismatched input, expecting an integer")
	}
	p.i++
	p.emit(pLit, t.text)
	return nil
}

func (p *cqlParser) insertStmt() error {
	p.st.Verb, p.st.Writes = "INSERT", 1
	if err := p.kw("INSERT"); err != nil {
		return err
	}
	if err := p.kw("INTO"); err != nil {
		return err
	}
	if err := p.table(); err != nil {
		return err
	}
	if p.isKw("JSON") {
		return &notAllowedError{"the console's INSERT takes (columns) VALUES (values), not INSERT JSON"}
	}
	if err := p.punct("("); err != nil {
		return err
	}
	n := 0
	for {
		if _, err := p.col(); err != nil {
			return err
		}
		n++
		if !p.optP(",") {
			break
		}
	}
	if err := p.punct(")"); err != nil {
		return err
	}
	if err := p.kw("VALUES"); err != nil {
		return err
	}
	if err := p.punct("("); err != nil {
		return err
	}
	if err := p.termsUntil(")"); err != nil {
		return err
	}
	if err := p.conditions(true); err != nil {
		return err
	}
	return p.using(true)
}

func (p *cqlParser) updateStmt() error {
	p.st.Verb, p.st.Writes = "UPDATE", 1
	if err := p.kw("UPDATE"); err != nil {
		return err
	}
	if err := p.table(); err != nil {
		return err
	}
	if err := p.using(true); err != nil {
		return err
	}
	if err := p.kw("SET"); err != nil {
		return err
	}
	for {
		c, err := p.col()
		if err != nil {
			return err
		}
		switch {
		case p.optP("["):
			p.glueLast()
			if err := p.term(); err != nil {
				return err
			}
			if err := p.punct("]"); err != nil {
				return err
			}
			if err := p.punct("="); err != nil {
				return err
			}
			err = p.term()
		case p.optP("+="), p.optP("-="):
			err = p.term()
		default:
			if err := p.punct("="); err != nil {
				return err
			}
			// c = c + term, c = c - term, c = term + c, or c = term
			if t := p.peek(); (t.kind == tokIdent || t.kind == tokQuoted) && !(p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == "(") &&
				!map[string]bool{"TRUE": true, "FALSE": true, "NULL": true, "NAN": true, "INFINITY": true}[strings.ToUpper(t.text)] {
				c2, err := p.col()
				if err != nil {
					return err
				}
				if c2 != c {
					return &notAllowedError{fmt.Sprintf("SET %s = %s ...: a column is set from itself only (%s = %s + value)", c, c2, c, c)}
				}
				if !p.optP("+") {
					if err := p.punct("-"); err != nil {
						return err
					}
				}
				if err := p.term(); err != nil {
					return err
				}
			} else {
				err = p.term()
				if err == nil && p.optP("+") {
					c2, err := p.col()
					if err != nil {
						return err
					}
					if c2 != c {
						return &notAllowedError{fmt.Sprintf("SET %s = value + %s: a column is set from itself only", c, c2)}
					}
				}
			}
		}
		if err != nil {
			return err
		}
		if !p.optP(",") {
			break
		}
	}
	if err := p.where(); err != nil {
		return err
	}
	return p.conditions(false)
}

func (p *cqlParser) deleteStmt() error {
	p.st.Verb, p.st.Writes = "DELETE", 1
	if err := p.kw("DELETE"); err != nil {
		return err
	}
	if !p.isKw("FROM") {
		for {
			if _, err := p.col(); err != nil {
				return err
			}
			if p.optP("[") {
				p.glueLast()
				if err := p.term(); err != nil {
					return err
				}
				if err := p.punct("]"); err != nil {
					return err
				}
			}
			if !p.optP(",") {
				break
			}
		}
	}
	if err := p.kw("FROM"); err != nil {
		return err
	}
	if err := p.table(); err != nil {
		return err
	}
	if err := p.using(false); err != nil {
		return err
	}
	if err := p.where(); err != nil {
		return err
	}
	return p.conditions(false)
}

// cqlType reads a column's type: a native type, or a collection, tuple or frozen one of them.
func (p *cqlParser) cqlType() error {
	t := p.peek()
	if t.kind != tokIdent {
		return p.errf("no viable alternative, expecting a type")
	}
	name := strings.ToLower(t.text)
	switch name {
	case "ascii", "bigint", "blob", "boolean", "counter", "date", "decimal", "double", "duration", "float",
		"inet", "int", "smallint", "text", "time", "timestamp", "timeuuid", "tinyint", "uuid", "varchar", "varint":
		p.i++
		p.emit(pWord, name) // a native type
		return nil
	case "list", "set", "frozen", "map", "tuple":
		p.i++
		p.emit(pWord, name)
		if err := p.punct("<"); err != nil {
			return err
		}
		p.glueLast()
		p.st.Pieces[len(p.st.Pieces)-1].stick = true
		args := 0
		for {
			if err := p.cqlType(); err != nil {
				return err
			}
			args++
			if !p.optP(",") {
				break
			}
		}
		if want := map[string]int{"list": 1, "set": 1, "frozen": 1, "map": 2}[name]; want > 0 && args != want {
			return p.errf("%s takes %d types", name, want)
		}
		if err := p.punct(">"); err != nil {
			return err
		}
		p.glueLast()
		return nil
	}
	return &notAllowedError{fmt.Sprintf("the console's tables take CQL's native types and their collections (text, int, bigint, uuid, timeuuid, timestamp, date, boolean, double, blob, counter, list<>, set<>, map<,>, tuple<>, frozen<>), not %s", t.text)}
}

// consoleTableOptions are the options a CREATE TABLE may set beside CLUSTERING ORDER BY.
var consoleTableOptions = map[string]bool{"comment": true, "default_time_to_live": true, "gc_grace_seconds": true}

func (p *cqlParser) createTableStmt() error {
	p.st.Verb = "CREATE TABLE"
	if err := p.kw("CREATE"); err != nil {
		return err
	}
	if !p.optKw("TABLE") {
		if err := p.kw("COLUMNFAMILY"); err != nil {
			return err
		}
	}
	if err := p.optIfExists(true); err != nil {
		return err
	}
	if err := p.table(); err != nil {
		return err
	}
	if err := p.punct("("); err != nil {
		return err
	}
	keyed := false
	for {
		if p.isKw("PRIMARY") {
			if keyed {
				return &cqlSyntaxError{p.peek().pos, "multiple PRIMARY KEYs specified"}
			}
			keyed = true
			p.optKw("PRIMARY")
			if err := p.kw("KEY"); err != nil {
				return err
			}
			if err := p.punct("("); err != nil {
				return err
			}
			if p.optP("(") {
				for {
					if _, err := p.col(); err != nil {
						return err
					}
					if !p.optP(",") {
						break
					}
				}
				if err := p.punct(")"); err != nil {
					return err
				}
			} else if _, err := p.col(); err != nil {
				return err
			}
			for p.optP(",") {
				if _, err := p.col(); err != nil {
					return err
				}
			}
			if err := p.punct(")"); err != nil {
				return err
			}
		} else {
			if _, err := p.col(); err != nil {
				return err
			}
			if err := p.cqlType(); err != nil {
				return err
			}
			p.optKw("STATIC")
			if p.optKw("PRIMARY") {
				if err := p.kw("KEY"); err != nil {
					return err
				}
				keyed = true
			}
		}
		if !p.optP(",") {
			break
		}
		if p.isP(")") { // a trailing comma, as Parser.g allows
			break
		}
	}
	if err := p.punct(")"); err != nil {
		return err
	}
	if !p.optKw("WITH") {
		return nil
	}
	for {
		switch {
		case p.optKw("CLUSTERING"):
			if err := p.kw("ORDER"); err != nil {
				return err
			}
			if err := p.kw("BY"); err != nil {
				return err
			}
			if err := p.punct("("); err != nil {
				return err
			}
			for {
				if _, err := p.col(); err != nil {
					return err
				}
				if !p.optKw("ASC") {
					if err := p.kw("DESC"); err != nil {
						return err
					}
				}
				if !p.optP(",") {
					break
				}
			}
			if err := p.punct(")"); err != nil {
				return err
			}
		case p.isKw("COMPACT"):
			return &notAllowedError{"COMPACT STORAGE is gone from Cassandra 4.0 on; the console's tables take WITH CLUSTERING ORDER BY, comment, default_time_to_live and gc_grace_seconds"}
		default:
			if err := p.tableOption(); err != nil {
				return err
			}
		}
		if !p.optKw("AND") {
			return nil
		}
	}
}

// tableOption reads one option = value of a table's WITH, one of consoleTableOptions.
func (p *cqlParser) tableOption() error {
	n, _, err := p.ident()
	if err != nil {
		return err
	}
	if !consoleTableOptions[n] {
		return &notAllowedError{fmt.Sprintf("the console's tables take WITH CLUSTERING ORDER BY (CREATE TABLE), comment, default_time_to_live and gc_grace_seconds, not %s", n)}
	}
	p.emit(pWord, n) // one of consoleTableOptions
	if err := p.punct("="); err != nil {
		return err
	}
	t := p.peek()
	if t.kind != tokInt && t.kind != tokString {
		return p.errf("mismatched input, expecting a value")
	}
	return p.term()
}

// alterTableStmt reads ALTER TABLE t ADD col type [STATIC] | ADD (col type, ...) | DROP col |
// DROP (col, ...) | WITH option = value [AND ...].
func (p *cqlParser) alterTableStmt() error {
	p.st.Verb = "ALTER TABLE"
	if err := p.kw("ALTER"); err != nil {
		return err
	}
	if !p.optKw("TABLE") {
		if err := p.kw("COLUMNFAMILY"); err != nil {
			return err
		}
	}
	if err := p.table(); err != nil {
		return err
	}
	switch {
	case p.optKw("ADD"):
		def := func() error {
			if _, err := p.col(); err != nil {
				return err
			}
			if err := p.cqlType(); err != nil {
				return err
			}
			p.optKw("STATIC")
			return nil
		}
		if !p.optP("(") {
			return def()
		}
		for {
			if err := def(); err != nil {
				return err
			}
			if !p.optP(",") {
				return p.punct(")")
			}
		}
	case p.optKw("DROP"):
		if !p.optP("(") {
			_, err := p.col()
			return err
		}
		for {
			if _, err := p.col(); err != nil {
				return err
			}
			if !p.optP(",") {
				return p.punct(")")
			}
		}
	case p.optKw("WITH"):
		for {
			if err := p.tableOption(); err != nil {
				return err
			}
			if !p.optKw("AND") {
				return nil
			}
		}
	case p.isKw("RENAME") || p.isKw("ALTER"):
		return &notAllowedError{"the console's ALTER TABLE takes ADD, DROP and WITH"}
	}
	return p.errf("no viable alternative, expecting ADD, DROP or WITH")
}

func (p *cqlParser) dropTableStmt() error {
	p.st.Verb = "DROP TABLE"
	if err := p.kw("DROP"); err != nil {
		return err
	}
	if !p.optKw("TABLE") {
		if err := p.kw("COLUMNFAMILY"); err != nil {
			return err
		}
	}
	if err := p.optIfExists(false); err != nil {
		return err
	}
	return p.table()
}

func (p *cqlParser) truncateStmt() error {
	p.st.Verb = "TRUNCATE"
	if err := p.kw("TRUNCATE"); err != nil {
		return err
	}
	if !p.optKw("TABLE") {
		p.optKw("COLUMNFAMILY")
	}
	return p.table()
}

// indexName reads an index's name (no keyspace: an index is its table's keyspace's).
func (p *cqlParser) indexName() error {
	n, _, err := p.ident()
	if err != nil {
		return err
	}
	if p.isP(".") { // DROP INDEX ks.name
		p.i++
		ks := n
		if n, _, err = p.ident(); err != nil {
			return err
		}
		p.st.Table.Keyspace = ks
	}
	p.st.Index = n
	p.emit(pIndex, "")
	return nil
}

func (p *cqlParser) createIndexStmt() error {
	p.st.Verb = "CREATE INDEX"
	if err := p.kw("CREATE"); err != nil {
		return err
	}
	if p.isKw("CUSTOM") {
		return &notAllowedError{"the console makes CQL's own indexes: CREATE INDEX [name] ON table (column) [USING 'sai']"}
	}
	if err := p.kw("INDEX"); err != nil {
		return err
	}
	if err := p.optIfExists(true); err != nil {
		return err
	}
	if !p.isKw("ON") {
		if err := p.indexName(); err != nil {
			return err
		}
		if p.st.Table.Keyspace != "" {
			return &notAllowedError{"an index is named without a keyspace: it is its table's"}
		}
	}
	if err := p.kw("ON"); err != nil {
		return err
	}
	if err := p.table(); err != nil {
		return err
	}
	if err := p.punct("("); err != nil {
		return err
	}
	for _, w := range []string{"KEYS", "VALUES", "ENTRIES", "FULL"} {
		if p.isKw(w) && p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == "(" {
			p.optKw(w)
			if err := p.punct("("); err != nil {
				return err
			}
			p.glueLast()
			if _, err := p.col(); err != nil {
				return err
			}
			if err := p.punct(")"); err != nil {
				return err
			}
			goto closed
		}
	}
	if _, err := p.col(); err != nil {
		return err
	}
closed:
	if err := p.punct(")"); err != nil {
		return err
	}
	if p.optKw("USING") {
		t := p.peek()
		if t.kind != tokString {
			return p.errf("mismatched input, expecting a string")
		}
		if !strings.EqualFold(t.val, "sai") && t.val != "StorageAttachedIndex" {
			return &notAllowedError{"the console makes CQL's own indexes, or USING 'sai'"}
		}
		if err := p.term(); err != nil {
			return err
		}
	}
	return nil
}

func (p *cqlParser) dropIndexStmt() error {
	p.st.Verb = "DROP INDEX"
	if err := p.kw("DROP"); err != nil {
		return err
	}
	if err := p.kw("INDEX"); err != nil {
		return err
	}
	if err := p.optIfExists(false); err != nil {
		return err
	}
	return p.indexName()
}

func (p *cqlParser) batchStmt() error {
	p.st.Verb = "BATCH"
	if err := p.kw("BEGIN"); err != nil {
		return err
	}
	if !p.optKw("UNLOGGED") {
		p.optKw("COUNTER")
	}
	if err := p.kw("BATCH"); err != nil {
		return err
	}
	if err := p.using(false); err != nil {
		return err
	}
	outer := p.st
	for !p.isKw("APPLY") {
		inner := &cqlStmt{Star: -1}
		p.st = inner
		var err error
		switch {
		case p.isKw("INSERT"):
			err = p.insertStmt()
		case p.isKw("UPDATE"):
			err = p.updateStmt()
		case p.isKw("DELETE"):
			err = p.deleteStmt()
		case p.peek().kind == tokEOF:
			err = p.errf("mismatched input, expecting APPLY BATCH")
		default:
			err = &notAllowedError{"a BATCH of the console holds INSERT, UPDATE and DELETE statements"}
		}
		p.st = outer
		if err != nil {
			return err
		}
		outer.Batch = append(outer.Batch, inner)
		outer.Writes += inner.Writes
		if p.isP(";") {
			p.i++
		}
	}
	if err := p.kw("APPLY"); err != nil {
		return err
	}
	return p.kw("BATCH")
}

// consistencyLevels are the levels CONSISTENCY sets, as cqlsh takes them.
var consistencyLevels = []string{"ANY", "ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_QUORUM", "EACH_QUORUM", "SERIAL", "LOCAL_SERIAL", "LOCAL_ONE"}

// consoleAllowed is what the console takes, as the first words of its statements.
var consoleAllowed = []string{"SELECT", "INSERT", "UPDATE", "DELETE", "BEGIN BATCH", "CREATE TABLE", "ALTER TABLE", "DROP TABLE", "TRUNCATE",
	"CREATE INDEX", "DROP INDEX", "DESCRIBE", "USE", "TRACING", "CONSISTENCY"}

// notAllowed is the refusal of a statement outside consoleAllowed.
func notAllowed(what string) error {
	return &notAllowedError{fmt.Sprintf("the console does not run %s: it takes %s", what, strings.Join(consoleAllowed, ", "))}
}

// statement reads one statement.
func (p *cqlParser) statement() error {
	t := p.peek()
	if t.kind != tokIdent {
		return p.errf("no viable alternative")
	}
	w := strings.ToUpper(t.text)
	switch w {
	case "SELECT":
		return p.selectStmt()
	case "INSERT":
		return p.insertStmt()
	case "UPDATE":
		return p.updateStmt()
	case "DELETE":
		return p.deleteStmt()
	case "BEGIN":
		return p.batchStmt()
	case "TRUNCATE":
		return p.truncateStmt()
	case "CREATE", "DROP", "ALTER":
		next := ""
		if n := p.toks[p.i+1]; n.kind == tokIdent {
			next = strings.ToUpper(n.text)
		}
		switch {
		case w == "CREATE" && (next == "TABLE" || next == "COLUMNFAMILY"):
			return p.createTableStmt()
		case w == "DROP" && (next == "TABLE" || next == "COLUMNFAMILY"):
			return p.dropTableStmt()
		case w == "CREATE" && (next == "INDEX" || next == "CUSTOM"):
			return p.createIndexStmt()
		case w == "DROP" && next == "INDEX":
			return p.dropIndexStmt()
		case w == "ALTER" && (next == "TABLE" || next == "COLUMNFAMILY"):
			return p.alterTableStmt()
		case next == "KEYSPACE" || next == "SCHEMA":
			return &notAllowedError{fmt.Sprintf("the console does not run %s %s: your tables are in your own keyspace, %s, already (it takes %s)",
				w, next, ConsoleSandboxKeyspace, strings.Join(consoleAllowed, ", "))}
		}
		return notAllowed(strings.TrimSpace(w + " " + next))
	case "USE":
		p.i++
		p.st.Verb = "USE"
		n, _, err := p.ident()
		if err != nil {
			return err
		}
		p.st.Arg = n
		return nil
	case "TRACING":
		p.i++
		p.st.Verb = "TRACING"
		for _, a := range []string{"ON", "OFF"} {
			if p.isKw(a) {
				p.i++
				p.st.Arg = a
			}
		}
		return nil
	case "CONSISTENCY":
		p.i++
		p.st.Verb = "CONSISTENCY"
		if t := p.peek(); t.kind == tokIdent {
			l := strings.ToUpper(t.text)
			for _, c := range consistencyLevels {
				if c == l {
					p.i++
					p.st.Arg = l
					return nil
				}
			}
			return &notAllowedError{fmt.Sprintf("Improper CONSISTENCY command: the levels are %s", strings.Join(consistencyLevels, ", "))}
		}
		return nil
	case "DESCRIBE", "DESC":
		p.i++
		p.st.Verb = "DESCRIBE"
		switch {
		case p.isKw("TABLES") || p.isKw("COLUMNFAMILIES"):
			p.i++
			p.st.Arg = "TABLES"
			return nil
		case p.isKw("TABLE") || p.isKw("COLUMNFAMILY"):
			p.i++
			p.st.Arg = "TABLE"
			return p.table()
		case p.isKw("KEYSPACE"):
			p.i++
			p.st.Arg = "KEYSPACE"
			if p.peek().kind == tokIdent || p.peek().kind == tokQuoted {
				n, _, err := p.ident()
				if err != nil {
					return err
				}
				p.st.Table = tableRef{Keyspace: n}
			}
			return nil
		}
		return &notAllowedError{"the console describes TABLES, TABLE <name> and KEYSPACE (the sandbox)"}
	}
	return notAllowed(w)
}

// parseCQL parses a line of statements separated by ';'.
func parseCQL(line string) ([]*cqlStmt, error) {
	toks, err := lexCQL(line)
	if err != nil {
		return nil, err
	}
	p := &cqlParser{toks: toks}
	var out []*cqlStmt
	for {
		for p.isP(";") {
			p.i++
		}
		if p.peek().kind == tokEOF {
			break
		}
		p.st = &cqlStmt{Star: -1}
		if err := p.statement(); err != nil {
			return nil, err
		}
		out = append(out, p.st)
		if p.peek().kind != tokEOF && !p.isP(";") {
			return nil, p.errf("extraneous input, expecting ';'")
		}
	}
	if len(out) == 0 {
		return nil, &notAllowedError{"an empty line: type a statement (" + strings.Join(consoleAllowed, ", ") + ")"}
	}
	return out, nil
}
