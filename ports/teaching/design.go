package teaching

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"twissandra/domain"
)

// Design exercises: a learner writes a table for an access pattern (a CREATE TABLE) and the
// pattern's query (a SELECT), and the query lab grades them on the node (QueryLab.TryDesign).
// The learner's text never reaches the node: ParseDesign reads it with a small strict parser
// (the pattern's columns only, with their types; a primary key; a clustering order; a SELECT
// with equalities, IN and ranges on those columns, an order and a limit) and the lab composes
// the CQL from the parsed form, under a table name of its own. Anything else is refused with a
// message that says what was expected.

// NewPatterns are the access patterns of features a learner would add to Twissandra, beside the
// seeds' (KeyPatterns): the query lab tries keys on them as on the others.
var NewPatterns = []KeyPattern{
	{ID: "hashtag", What: "the tweets with a hashtag, newest first", Query: "tag", Desc: true, Columns: []KeyColumn{
		{"tag", "text", Given}, {"day", "date", Bucket}, {"time", "timeuuid", Ordered}, {"author", "text", Unknown}, {"body", "text", Unknown}},
		Partition: []string{"tag"}, Clustering: []ClusteringChoice{{"time", true}}},
	{ID: "mentions", What: "the tweets that mention a user, newest first", Query: "mentions", Desc: true, Columns: []KeyColumn{
		{"mentioned", "text", Given}, {"time", "timeuuid", Ordered}, {"tweet_id", "timeuuid", Unknown}, {"author", "text", Unknown}, {"body", "text", Unknown}},
		Partition: []string{"mentioned"}, Clustering: []ClusteringChoice{{"time", true}}},
}

// DesignPatterns are the patterns of the design exercises: the seeds' and the new features'.
func DesignPatterns() []KeyPattern { return slices.Concat(KeyPatterns, NewPatterns) }

// Query is a parsed SELECT of a design: its restrictions, the order it asks for, its limit.
type Query struct {
	Where          []Restriction
	Order          []ClusteringChoice // ORDER BY, in order
	Limit          int                // 0: none
	AllowFiltering bool
}

// Restriction is one relation of a WHERE: a column, an operator (=, IN, <, <=, >, >=) and, for
// IN, how many values it lists. The values are the lab's (the pattern's sample), never the
// learner's.
type Restriction struct {
	Column, Op string
	Values     int
}

// TableDesign is a learner's design, parsed: the pattern, the key of the table, the query.
type TableDesign struct {
	Key   KeyChoice
	Query Query
}

// DesignTrial is what the node made of a design: the trial of its table and query, whether the
// rows came in the order the pattern asks, and how many rows the pattern's page wants (the
// sample's rows of the given values, up to the limit).
type DesignTrial struct {
	KeyTrial
	InOrder bool
	Want    int
}

// knownTypes are the CQL types the parser reads.
var knownTypes = []string{"text", "varchar", "ascii", "int", "bigint", "uuid", "timeuuid", "timestamp", "date", "boolean", "double", "float", "blob"}

// MaxDesignLimit bounds a design's LIMIT.
const MaxDesignLimit = 100

type token struct {
	kind byte // 'i' identifier (lower-cased), 'n' number, 's' string, 'p' punctuation, 0 end
	text string
}

func tokenize(src string) ([]token, error) {
	var out []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case (c == '-' && strings.HasPrefix(src[i:], "--")) || (c == '/' && i+1 < len(src) && (src[i+1] == '*' || src[i+1] == '/')):
			return nil, domain.Invalid("answer", "comments are not allowed")
		case isLetter(c):
			j := i
			for j < len(src) && (isLetter(src[j]) || isDigit(src[j])) {
				j++
			}
			out = append(out, token{'i', strings.ToLower(src[i:j])})
			i = j
		case isDigit(c):
			j := i
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			if j-i > 6 {
				return nil, domain.Invalid("answer", "the number %s is too long", src[i:j])
			}
			out = append(out, token{'n', src[i:j]})
			i = j
		case c == '\'':
			j, closed := i+1, false
			for j < len(src) {
				if src[j] == '\'' {
					if j+1 < len(src) && src[j+1] == '\'' {
						j += 2
						continue
					}
					closed = true
					break
				}
				j++
			}
			if !closed {
				return nil, domain.Invalid("answer", "a string is not closed")
			}
			out = append(out, token{'s', src[i : j+1]})
			i = j + 1
		case c == '.':
			return nil, domain.Invalid("answer", "a qualified name (keyspace.table) is not allowed: the lab chooses the keyspace and the table's name")
		case c == '"':
			return nil, domain.Invalid("answer", "quoted names are not allowed: write the pattern's column names plainly")
		case strings.IndexByte("(),;*=?", c) >= 0:
			out = append(out, token{'p', string(c)})
			i++
		case c == '<' || c == '>':
			if i+1 < len(src) && src[i+1] == '=' {
				out = append(out, token{'p', src[i : i+2]})
				i += 2
			} else {
				out = append(out, token{'p', string(c)})
				i++
			}
		default:
			return nil, domain.Invalid("answer", "unexpected character %q", rune(c))
		}
	}
	return append(out, token{}), nil
}

func isLetter(c byte) bool { return c == '_' || (c|0x20 >= 'a' && c|0x20 <= 'z') }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// parser reads the tokens of one design against its pattern.
type parser struct {
	toks []token
	at   int
	p    KeyPattern
}

func (ps *parser) peek() token { return ps.toks[ps.at] }
func (ps *parser) next() token {
	t := ps.toks[ps.at]
	if t.kind != 0 {
		ps.at++
	}
	return t
}
func (ps *parser) is(kind byte, text string) bool {
	t := ps.peek()
	return t.kind == kind && t.text == text
}
func (ps *parser) accept(kind byte, text string) bool {
	if ps.is(kind, text) {
		ps.next()
		return true
	}
	return false
}
func describe(t token) string {
	if t.kind == 0 {
		return "the end"
	}
	return strconv.Quote(t.text)
}
func (ps *parser) expect(kind byte, text string) error {
	if !ps.accept(kind, text) {
		return domain.Invalid("answer", "expected %q, found %s", strings.ToUpper(text), describe(ps.peek()))
	}
	return nil
}
func (ps *parser) keywords(words ...string) error {
	for _, w := range words {
		if err := ps.expect('i', w); err != nil {
			return err
		}
	}
	return nil
}

// ident reads a name, refusing a function call.
func (ps *parser) ident(what string) (string, error) {
	t := ps.next()
	if t.kind != 'i' {
		return "", domain.Invalid("answer", "expected %s, found %s", what, describe(t))
	}
	if ps.is('p', "(") {
		return "", domain.Invalid("answer", "function calls (%s(…)) are not allowed", t.text)
	}
	return t.text, nil
}

// column reads a column name of the pattern.
func (ps *parser) column() (KeyColumn, error) {
	name, err := ps.ident("a column")
	if err != nil {
		return KeyColumn{}, err
	}
	c, ok := ps.p.Column(name)
	if !ok {
		return c, domain.Invalid("answer", "the table of %q has no column %q: its columns are %s", ps.p.What, name, columnList(ps.p))
	}
	return c, nil
}

func columnList(p KeyPattern) string {
	var s []string
	for _, c := range p.Columns {
		s = append(s, c.Name+" "+c.Type)
	}
	return strings.Join(s, ", ")
}

// ParseDesign reads answer, a CREATE TABLE then a SELECT on it separated by a semicolon, as a
// design for pattern: it returns the parsed design or a domain.ErrInvalid that says what it
// refused. The table must have every column of the pattern, with its type (the lab fills it
// with the pattern's sample rows); the table's name is the learner's, the lab chooses its own.
func ParseDesign(pattern, answer string) (TableDesign, error) {
	p, ok := LookupPattern(pattern)
	if !ok {
		return TableDesign{}, domain.Invalid("pattern", "no access pattern %q", pattern)
	}
	toks, err := tokenize(answer)
	if err != nil {
		return TableDesign{}, err
	}
	ps := &parser{toks: toks, p: p}
	d := TableDesign{Key: KeyChoice{Pattern: p.ID}}
	table, err := ps.create(&d.Key)
	if err != nil {
		return d, err
	}
	if err := ps.expect('p', ";"); err != nil {
		return d, domain.Invalid("answer", "the CREATE TABLE ends with a semicolon, then the SELECT: %v", err)
	}
	if d.Query, err = ps.query(table); err != nil {
		return d, err
	}
	ps.accept('p', ";")
	if t := ps.peek(); t.kind != 0 {
		return d, domain.Invalid("answer", "one CREATE TABLE and one SELECT, nothing after them: found %s", describe(t))
	}
	if _, err := d.Key.Validate(); err != nil {
		return d, err
	}
	return d, nil
}

func (ps *parser) create(k *KeyChoice) (string, error) {
	if err := ps.keywords("create", "table"); err != nil {
		return "", err
	}
	if ps.accept('i', "if") {
		if err := ps.keywords("not", "exists"); err != nil {
			return "", err
		}
	}
	t := ps.next()
	if t.kind != 'i' {
		return "", domain.Invalid("answer", "expected the table's name, found %s", describe(t))
	}
	table := t.text
	if err := ps.expect('p', "("); err != nil {
		return "", err
	}
	declared := map[string]bool{}
	keyed := false
	for {
		if ps.accept('i', "primary") {
			if err := ps.primaryKey(k, keyed); err != nil {
				return "", err
			}
			keyed = true
		} else {
			c, err := ps.column()
			if err != nil {
				return "", err
			}
			if declared[c.Name] {
				return "", domain.Invalid("answer", "column %q is declared twice", c.Name)
			}
			declared[c.Name] = true
			typ, err := ps.ident("a type")
			if err != nil {
				return "", err
			}
			switch {
			case !slices.Contains(knownTypes, typ):
				return "", domain.Invalid("answer", "unknown type %q for column %s", typ, c.Name)
			case typ != c.Type:
				return "", domain.Invalid("answer", "column %s holds %s values in this pattern's rows, not %s", c.Name, c.Type, typ)
			}
			if ps.accept('i', "primary") {
				if keyed {
					return "", domain.Invalid("answer", "the table has two primary keys")
				}
				if err := ps.keywords("key"); err != nil {
					return "", err
				}
				k.Partition, keyed = []string{c.Name}, true
			}
		}
		if ps.accept('p', ")") {
			break
		}
		if err := ps.expect('p', ","); err != nil {
			return "", err
		}
	}
	if !keyed {
		return "", domain.Invalid("answer", "the table has no PRIMARY KEY")
	}
	for _, c := range ps.p.Columns {
		if !declared[c.Name] {
			return "", domain.Invalid("answer", "the table lacks column %s %s: the pattern's rows have it (its columns: %s)", c.Name, c.Type, columnList(ps.p))
		}
	}
	if ps.accept('i', "with") {
		if err := ps.keywords("clustering", "order", "by"); err != nil {
			return "", err
		}
		order, err := ps.orderList(true)
		if err != nil {
			return "", err
		}
		if len(order) > len(k.Clustering) {
			return "", domain.Invalid("answer", "the CLUSTERING ORDER names more columns than the clustering columns")
		}
		for i, o := range order {
			if k.Clustering[i].Column != o.Column {
				return "", domain.Invalid("answer", "the CLUSTERING ORDER lists the clustering columns in the key's order: %s, not %s", k.Clustering[i].Column, o.Column)
			}
			k.Clustering[i].Desc = o.Desc
		}
	}
	return table, nil
}

func (ps *parser) primaryKey(k *KeyChoice, keyed bool) error {
	if keyed {
		return domain.Invalid("answer", "the table has two primary keys")
	}
	if err := ps.keywords("key"); err != nil {
		return err
	}
	if err := ps.expect('p', "("); err != nil {
		return err
	}
	if ps.accept('p', "(") {
		for {
			c, err := ps.column()
			if err != nil {
				return err
			}
			k.Partition = append(k.Partition, c.Name)
			if ps.accept('p', ")") {
				break
			}
			if err := ps.expect('p', ","); err != nil {
				return err
			}
		}
	} else {
		c, err := ps.column()
		if err != nil {
			return err
		}
		k.Partition = []string{c.Name}
	}
	for ps.accept('p', ",") {
		c, err := ps.column()
		if err != nil {
			return err
		}
		if len(k.Clustering) >= MaxClustering {
			return domain.Invalid("clustering", "at most %d clustering columns", MaxClustering)
		}
		k.Clustering = append(k.Clustering, ClusteringChoice{Column: c.Name})
	}
	return ps.expect('p', ")")
}

// orderList reads col [ASC|DESC] {, col [ASC|DESC]}, in parentheses when paren.
func (ps *parser) orderList(paren bool) ([]ClusteringChoice, error) {
	if paren {
		if err := ps.expect('p', "("); err != nil {
			return nil, err
		}
	}
	var out []ClusteringChoice
	for {
		c, err := ps.column()
		if err != nil {
			return nil, err
		}
		o := ClusteringChoice{Column: c.Name}
		if ps.accept('i', "desc") {
			o.Desc = true
		} else if !ps.accept('i', "asc") && paren {
			return nil, domain.Invalid("answer", "the CLUSTERING ORDER says ASC or DESC after %s", c.Name)
		}
		out = append(out, o)
		if len(out) > len(ps.p.Columns) {
			return nil, domain.Invalid("answer", "too many columns in an order")
		}
		if !ps.accept('p', ",") {
			break
		}
	}
	if paren {
		return out, ps.expect('p', ")")
	}
	return out, nil
}

// value reads a value: ?, a string or a number; the lab binds the pattern's sample instead.
func (ps *parser) value() error {
	t := ps.next()
	switch {
	case t.kind == 'p' && t.text == "?", t.kind == 's', t.kind == 'n':
		return nil
	case t.kind == 'i' && ps.is('p', "("):
		return domain.Invalid("answer", "function calls (%s(…)) are not allowed", t.text)
	}
	return domain.Invalid("answer", "expected a value (?, a 'string' or a number), found %s", describe(t))
}

func (ps *parser) query(table string) (Query, error) {
	var q Query
	if err := ps.keywords("select"); err != nil {
		return q, err
	}
	if !ps.accept('p', "*") {
		for {
			if _, err := ps.column(); err != nil {
				return q, err
			}
			if !ps.accept('p', ",") {
				break
			}
		}
	}
	if err := ps.keywords("from"); err != nil {
		return q, err
	}
	name, err := ps.ident("the table's name")
	if err != nil {
		return q, err
	}
	if name != table {
		return q, domain.Invalid("answer", "the SELECT reads %s, not the table %s the CREATE TABLE makes", name, table)
	}
	if ps.accept('i', "where") {
		for {
			c, err := ps.column()
			if err != nil {
				return q, err
			}
			r := Restriction{Column: c.Name, Values: 1}
			switch t := ps.next(); {
			case t.kind == 'p' && slices.Contains([]string{"=", "<", "<=", ">", ">="}, t.text):
				r.Op = t.text
				if err := ps.value(); err != nil {
					return q, err
				}
			case t.kind == 'i' && t.text == "in":
				r.Op, r.Values = "IN", 0
				if err := ps.expect('p', "("); err != nil {
					return q, err
				}
				for {
					if err := ps.value(); err != nil {
						return q, err
					}
					if r.Values++; r.Values > 10 {
						return q, domain.Invalid("answer", "at most 10 values in an IN")
					}
					if !ps.accept('p', ",") {
						break
					}
				}
				if err := ps.expect('p', ")"); err != nil {
					return q, err
				}
			default:
				return q, domain.Invalid("answer", "expected =, IN, <, <=, > or >= after %s, found %s", c.Name, describe(t))
			}
			if slices.ContainsFunc(q.Where, func(o Restriction) bool {
				return o.Column == r.Column && (o.Op == "=" || o.Op == "IN" || r.Op == "=" || r.Op == "IN")
			}) {
				return q, domain.Invalid("answer", "column %s is restricted twice", c.Name)
			}
			q.Where = append(q.Where, r)
			if len(q.Where) > 2*len(ps.p.Columns) {
				return q, domain.Invalid("answer", "too many restrictions")
			}
			if !ps.accept('i', "and") {
				break
			}
		}
	}
	if ps.accept('i', "order") {
		if err := ps.keywords("by"); err != nil {
			return q, err
		}
		if q.Order, err = ps.orderList(false); err != nil {
			return q, err
		}
	}
	if ps.accept('i', "limit") {
		t := ps.next()
		n, err := strconv.Atoi(t.text)
		if t.kind != 'n' || err != nil || n < 1 || n > MaxDesignLimit {
			return q, domain.Invalid("answer", "LIMIT takes a whole number from 1 to %d", MaxDesignLimit)
		}
		q.Limit = n
	}
	if ps.accept('i', "allow") {
		if err := ps.keywords("filtering"); err != nil {
			return q, err
		}
		q.AllowFiltering = true
	}
	return q, nil
}

// RulesKey is the key the method's mapping rules give pattern p: the columns the query names by
// equality make the partition key (a pattern that names none is bucketed, its buckets the
// partition key: the departure of the public line), the column it orders by clusters in that
// order, and the columns that make a row unique (Unique) cluster after it.
func RulesKey(p KeyPattern) KeyChoice {
	k := KeyChoice{Pattern: p.ID}
	for _, role := range []ColumnRole{Given, Bucket} {
		for _, c := range p.Columns {
			if c.Role == role {
				k.Partition = append(k.Partition, c.Name)
			}
		}
		if len(k.Partition) > 0 {
			break
		}
	}
	for _, c := range p.Columns {
		if c.Role == Ordered {
			k.Clustering = append(k.Clustering, ClusteringChoice{c.Name, p.Desc})
		}
	}
	for _, u := range p.Unique {
		k.Clustering = append(k.Clustering, ClusteringChoice{Column: u})
	}
	return k
}

// ParseKeyChoice reads a key written as "partition: a, b; clustering: c desc, d" (clustering
// optional; asc when no order is said) for pattern.
func ParseKeyChoice(pattern, answer string) (KeyChoice, error) {
	k := KeyChoice{Pattern: pattern}
	parts := strings.Split(answer, ";")
	if len(parts) > 2 {
		return k, domain.Invalid("answer", "write partition: …; clustering: …")
	}
	for i, part := range parts {
		label, rest, ok := strings.Cut(part, ":")
		label = strings.ToLower(strings.TrimSpace(label))
		if !ok || (i == 0 && label != "partition") || (i == 1 && label != "clustering") {
			return k, domain.Invalid("answer", "write partition: …; clustering: … (found %q)", strings.TrimSpace(part))
		}
		for _, f := range strings.Split(rest, ",") {
			w := strings.Fields(strings.ToLower(f))
			switch {
			case len(w) == 0 && i == 1 && strings.TrimSpace(rest) == "":
				continue
			case len(w) == 0:
				return k, domain.Invalid("answer", "an empty column name")
			case i == 0 && len(w) == 1:
				k.Partition = append(k.Partition, w[0])
			case i == 1 && len(w) == 1:
				k.Clustering = append(k.Clustering, ClusteringChoice{Column: w[0]})
			case i == 1 && len(w) == 2 && (w[1] == "asc" || w[1] == "desc"):
				k.Clustering = append(k.Clustering, ClusteringChoice{Column: w[0], Desc: w[1] == "desc"})
			default:
				return k, domain.Invalid("answer", "%q is not a column (with asc or desc after a clustering column)", strings.TrimSpace(f))
			}
		}
	}
	_, err := k.Validate()
	return k, err
}

// ChoiceText writes k as ParseKeyChoice reads it.
func (k KeyChoice) ChoiceText() string {
	s := "partition: " + strings.Join(k.Partition, ", ")
	if len(k.Clustering) > 0 {
		var cs []string
		for _, c := range k.Clustering {
			cs = append(cs, c.Column+map[bool]string{true: " desc", false: " asc"}[c.Desc])
		}
		s += "; clustering: " + strings.Join(cs, ", ")
	}
	return s
}

// DesignText writes a design of pattern p with key k and its pattern's query as ParseDesign
// reads it: every column with its type, the key, then the SELECT that names the given values,
// the buckets the key lists, and the pattern's order.
func DesignText(p KeyPattern, k KeyChoice) string {
	cols := make([]string, len(p.Columns))
	for i, c := range p.Columns {
		cols[i] = c.Name + " " + c.Type
	}
	var where []string
	for _, c := range p.Columns {
		inPK := slices.Contains(k.Partition, c.Name)
		switch {
		case c.Role == Given || (c.Role == Constant && inPK):
			where = append(where, c.Name+" = ?")
		case c.Role == Bucket && inPK:
			where = append(where, c.Name+" IN (?, ?, ?)")
		}
	}
	key, opts, _ := strings.Cut(k.String(), " WITH ")
	s := fmt.Sprintf("CREATE TABLE t (%s, %s)", strings.Join(cols, ", "), key)
	if opts != "" {
		s += " WITH " + opts
	}
	s += "; SELECT * FROM t"
	if len(where) > 0 {
		s += " WHERE " + strings.Join(where, " AND ")
	}
	for _, c := range p.Columns {
		if c.Role == Ordered {
			s += " ORDER BY " + c.Name + map[bool]string{true: " DESC", false: " ASC"}[p.Desc]
		}
	}
	return s + " LIMIT 10"
}
