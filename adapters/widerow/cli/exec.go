// Package cli is the language of the cassandra-cli of 0.6/0.7 over the widerow engine: show and
// describe the keyspaces, set, get, del and count columns and super columns, slice rows and list
// column families, with names and values typed by the column family's comparator. Output uses
// the seed articles' notation (package notation). The cli subcommand (its terminal is package
// tools/cli) and the widerow console of the teaching room both speak it.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"twissandra/adapters/widerow/engine"
	"twissandra/internal/notation"
)

// consistency is the level of every request; one emulated node treats them alike.
const consistency = engine.ONE

// ErrQuit is returned by Exec when a statement asks to leave the shell.
var ErrQuit = errors.New("quit")

// Shell runs statements against one engine node.
type Shell struct {
	Node *engine.Node
	Out  io.Writer
	// Now gives write timestamps and timeuuid(); nil means time.Now.
	Now func() time.Time
	// ShowSecrets prints password hashes and emails as stored; by default they show as what they
	// are ("<bcrypt hash, 60 bytes>", "<email, hidden>").
	ShowSecrets bool
	// Places, when set, says where each keyspace a statement names is held (a node, and its
	// name there) and whether its secrets show, or refuses it; nil holds every keyspace on Node
	// under its own name. It is asked before anything reaches the engine.
	Places func(keyspace string) (Place, error)
	// Writes, when set, is given each write a statement makes, resolved to its cells, with
	// apply, which sends it to the engine: it may refuse it (and not call apply), or keep an
	// account of what was written once apply returns.
	Writes func(w Write, apply func() error) error
	// MaxCount, when positive, is the most columns (or rows, for list) one read returns: a read
	// without a limit asks for no more, and a larger limit is refused.
	MaxCount int

	last int64 // the last write timestamp, so two writes never share one
}

// style writes columns as the triples every seed defines them to be: name, value, timestamp
// (cassandra-cli printed the timestamp too), so that last-write-wins can be seen.
func (s *Shell) style() notation.Style { return notation.Style{Timestamps: true} }

// Place is where a keyspace a statement names is held.
type Place struct {
	Node *engine.Node
	// Keyspace is the keyspace's name on Node.
	Keyspace string
	// Secrets shows its password hashes and emails as stored.
	Secrets bool
}

// Write is one write of a statement, as the engine receives it: a column (set), or the
// deletion of a row, a super column or a column (del).
type Write struct {
	// Keyspace is the keyspace as the statement names it, Place its place.
	Keyspace string
	Place    Place
	CF       *engine.ColumnFamilyDef
	Key      string
	// Super is the super column (super column families), Column the column or subcolumn; nil
	// where the path stops above them (a del of a row or a super column).
	Super, Column []byte
	Value         []byte
	Delete        bool
}

func (s *Shell) place(keyspace string) (Place, error) {
	if s.Places != nil {
		return s.Places(keyspace)
	}
	if _, ok := s.Node.Schema().Keyspace(keyspace); !ok {
		return Place{}, statementErrorf("unknown keyspace %q (show keyspaces lists them)", keyspace)
	}
	return Place{Node: s.Node, Keyspace: keyspace, Secrets: s.ShowSecrets}, nil
}

func (s *Shell) write(w Write, apply func() error) error {
	if s.Writes != nil {
		return s.Writes(w, apply)
	}
	return apply()
}

// count is the count a read asks for: limit when the statement gives one, else the default,
// within MaxCount.
func (s *Shell) count(limit int, given bool, def int) (int, error) {
	switch {
	case !given && s.MaxCount > 0:
		return min(def, s.MaxCount), nil
	case !given:
		return def, nil
	case s.MaxCount > 0 && limit > s.MaxCount:
		return 0, statementErrorf("limit %d: one read shows at most %d", limit, s.MaxCount)
	}
	return limit, nil
}

// redact hides the secrets of cols unless their place shows them.
func redact(p Place, cols []engine.ColumnOrSuperColumn) []engine.ColumnOrSuperColumn {
	if p.Secrets {
		return cols
	}
	return notation.Redact(cols)
}

func (s *Shell) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// timestamp is a write timestamp in microseconds, strictly increasing within the shell, so a set
// after a del in the same microsecond is not hidden by the tombstone (a tombstone wins a tie).
func (s *Shell) timestamp() int64 {
	t := s.now().UnixMicro()
	if t <= s.last {
		t = s.last + 1
	}
	s.last = t
	return t
}

// Do runs one parsed statement.
func (s *Shell) Do(ctx context.Context, st Stmt) error { return s.run(ctx, st) }

// Exec parses src and runs its statements in order. Nothing runs if any statement does not
// parse; execution stops at the first failing statement. Quit stops with ErrQuit.
func (s *Shell) Exec(ctx context.Context, src string) error {
	stmts, err := Parse(src)
	if err != nil {
		return err
	}
	for _, st := range stmts {
		if err := s.run(ctx, st); err != nil {
			return err
		}
	}
	return nil
}

func (s *Shell) printf(format string, args ...any) error {
	_, err := fmt.Fprintf(s.Out, format, args...)
	return err
}

func (s *Shell) run(ctx context.Context, st Stmt) error {
	switch st := st.(type) {
	case Quit:
		return ErrQuit
	case Help:
		return s.help(st.Topic)
	case ShowKeyspaces:
		names, err := s.Node.DescribeKeyspaces(ctx)
		if err != nil {
			return err
		}
		return s.printf("%s\n", strings.Join(names, "\n"))
	case Describe:
		return s.describe(st.Keyspace)
	case Set:
		return s.set(ctx, st)
	case Get:
		return s.get(ctx, st)
	case Del:
		return s.del(ctx, st)
	case Count:
		return s.countCols(ctx, st)
	case List:
		return s.list(ctx, st)
	}
	return statementErrorf("statement %T is not supported", st)
}

func (s *Shell) describe(ksName string) error {
	p, err := s.place(ksName)
	if err != nil {
		return err
	}
	ks, ok := p.Node.Schema().Keyspace(p.Keyspace)
	if !ok {
		return statementErrorf("unknown keyspace %q (show keyspaces lists them)", ksName)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "Keyspace: %s (replication factor %d)\n", ksName, ks.ReplicationFactor)
	for _, cf := range ks.ColumnFamilies {
		fmt.Fprintf(&sb, "  ColumnFamily: %s\n    Type: %s\n    CompareWith: %s\n", cf.Name, cf.ColumnType(), cf.CompareWith)
		if cf.Super {
			fmt.Fprintf(&sb, "    CompareSubcolumnsWith: %s\n", cf.CompareSubcolumnsWith)
		}
		if cf.RowsCached > 0 {
			fmt.Fprintf(&sb, "    RowsCached: %d\n", cf.RowsCached)
		}
		if cf.Comment != "" {
			fmt.Fprintf(&sb, "    Comment: %s\n", cf.Comment)
		}
	}
	return s.printf("%s", sb.String())
}

// target is a path resolved against the schema, with its names turned into bytes.
type target struct {
	ks     string // as the statement names it
	place  Place
	cf     *engine.ColumnFamilyDef
	key    string
	super  []byte // the super column, super CFs only
	column []byte // the column (a subcolumn in a super CF)
}

func (s *Shell) cfDef(ksName, cfName string) (Place, *engine.ColumnFamilyDef, error) {
	p, err := s.place(ksName)
	if err != nil {
		return Place{}, nil, err
	}
	ks, ok := p.Node.Schema().Keyspace(p.Keyspace)
	if !ok {
		return Place{}, nil, statementErrorf("unknown keyspace %q (show keyspaces lists them)", ksName)
	}
	cf, ok := ks.ColumnFamily(cfName)
	if !ok {
		var names []string
		for _, c := range ks.ColumnFamilies {
			names = append(names, c.Name)
		}
		return Place{}, nil, statementErrorf("unknown column family %q in keyspace %s (have %s)", cfName, ksName, strings.Join(names, ", "))
	}
	return p, cf, nil
}

func (s *Shell) resolve(p Path) (target, error) {
	place, cf, err := s.cfDef(p.Keyspace, p.CF)
	if err != nil {
		return target{}, err
	}
	t := target{ks: p.Keyspace, place: place, cf: cf}
	if p.Key.Kind == TermFunc {
		return target{}, typeErr(p.Key, "row keys are text: write the key quoted, not %s", p.Key)
	}
	if p.Key.Text == "" {
		return target{}, typeErr(p.Key, "the row key must not be empty")
	}
	t.key = p.Key.Text
	switch {
	case len(p.Names) == 2 && !cf.Super:
		return target{}, statementErrorf("%s.%s is a standard column family: a path names a key and one column, like %s.%s['key']['column']", p.Keyspace, p.CF, p.Keyspace, p.CF)
	case cf.Super && len(p.Names) >= 1:
		if t.super, err = nameBytes(p.Names[0], cf.CompareWith, s.now); err != nil {
			return target{}, err
		}
		if len(p.Names) == 2 {
			if t.column, err = nameBytes(p.Names[1], cf.CompareSubcolumnsWith, s.now); err != nil {
				return target{}, err
			}
		}
	case len(p.Names) == 1:
		if t.column, err = nameBytes(p.Names[0], cf.CompareWith, s.now); err != nil {
			return target{}, err
		}
	}
	return t, nil
}

func nonEmpty(what string, b []byte) error {
	if len(b) == 0 {
		return statementErrorf("a %s name must not be empty", what)
	}
	return nil
}

func (s *Shell) set(ctx context.Context, st Set) error {
	t, err := s.resolve(st.Path)
	if err != nil {
		return err
	}
	if t.column == nil {
		if t.cf.Super {
			return statementErrorf("set needs a super column and a column: %s.%s['key']['super']['column'] = value", st.Path.Keyspace, st.Path.CF)
		}
		return statementErrorf("set needs a column: %s.%s['key']['column'] = value", st.Path.Keyspace, st.Path.CF)
	}
	if err := nonEmpty("column", t.column); err != nil {
		return err
	}
	if t.cf.Super {
		if err := nonEmpty("super column", t.super); err != nil {
			return err
		}
	}
	v, err := valueBytes(st.Value, s.now)
	if err != nil {
		return err
	}
	path := engine.ColumnPath{ColumnFamily: t.cf.Name, SuperColumn: t.super, Column: t.column}
	w := Write{Keyspace: t.ks, Place: t.place, CF: t.cf, Key: t.key, Super: t.super, Column: t.column, Value: v}
	if err := s.write(w, func() error {
		return t.place.Node.Insert(ctx, t.place.Keyspace, t.key, path, v, s.timestamp(), consistency)
	}); err != nil {
		return err
	}
	return s.printf("Value inserted.\n")
}

func (s *Shell) get(ctx context.Context, st Get) error {
	t, err := s.resolve(st.Path)
	if err != nil {
		return err
	}
	if t.column != nil {
		if st.Slice != nil {
			return statementErrorf("a slice (start, finish, reversed, limit) applies to a row or a super column, not to one column")
		}
		c, err := t.place.Node.Get(ctx, t.place.Keyspace, t.key, engine.ColumnPath{ColumnFamily: t.cf.Name, SuperColumn: t.super, Column: t.column}, consistency)
		if errors.Is(err, engine.ErrNotFound) {
			return s.printf("Column not found.\n")
		}
		if err != nil {
			return err
		}
		cmp := t.cf.CompareWith
		if t.cf.Super {
			cmp = t.cf.CompareSubcolumnsWith
		}
		return s.printf("%s\n", s.style().ColumnText(cmp, *redact(t.place, []engine.ColumnOrSuperColumn{c})[0].Column))
	}
	pred, err := s.predicate(t, st.Slice)
	if err != nil {
		return err
	}
	parent := engine.ColumnParent{ColumnFamily: t.cf.Name, SuperColumn: t.super}
	cols, err := t.place.Node.GetSlice(ctx, t.place.Keyspace, t.key, parent, pred, consistency)
	if err != nil {
		return err
	}
	cols = redact(t.place, cols)
	var sb strings.Builder
	if t.super != nil {
		sub := make([]engine.Column, len(cols))
		for i, c := range cols {
			sub[i] = *c.Column
		}
		sb.WriteString(notation.Key(t.key) + " : {\n")
		if len(sub) == 0 {
			sb.WriteString(notation.Indent + notation.Name(t.cf.CompareWith, t.super) + " : {}")
		} else {
			s.style().WriteSuperColumn(&sb, t.cf, engine.SuperColumn{Name: t.super, Columns: sub}, 1)
		}
		sb.WriteString("\n}\n")
		fmt.Fprintf(&sb, "Returned %d columns.\n", len(cols))
		return s.printf("%s", sb.String())
	}
	if err := s.style().WriteCF(&sb, t.cf, []notation.Row{{Key: t.key, Columns: cols}}); err != nil {
		return err
	}
	what := "columns"
	if t.cf.Super {
		what = "super columns"
	}
	fmt.Fprintf(&sb, "Returned %d %s.\n", len(cols), what)
	return s.printf("%s", sb.String())
}

func (s *Shell) predicate(t target, sl *Slice) (engine.SlicePredicate, error) {
	n, err := s.count(0, false, engine.DefaultCount)
	if sl != nil && sl.HasLimit {
		n, err = s.count(sl.Limit, true, engine.DefaultCount)
	}
	if err != nil {
		return engine.SlicePredicate{}, err
	}
	r := &engine.SliceRange{Count: int32(n)}
	if sl != nil {
		cmp := t.cf.CompareWith
		if t.super != nil {
			cmp = t.cf.CompareSubcolumnsWith
		}
		var err error
		if sl.Start != nil {
			if r.Start, err = nameBytes(*sl.Start, cmp, s.now); err != nil {
				return engine.SlicePredicate{}, err
			}
		}
		if sl.Finish != nil {
			if r.Finish, err = nameBytes(*sl.Finish, cmp, s.now); err != nil {
				return engine.SlicePredicate{}, err
			}
		}
		r.Reversed = sl.Reversed
	}
	return engine.SlicePredicate{SliceRange: r}, nil
}

func (s *Shell) del(ctx context.Context, st Del) error {
	t, err := s.resolve(st.Path)
	if err != nil {
		return err
	}
	path := engine.ColumnPath{ColumnFamily: t.cf.Name, SuperColumn: t.super, Column: t.column}
	w := Write{Keyspace: t.ks, Place: t.place, CF: t.cf, Key: t.key, Super: t.super, Column: t.column, Delete: true}
	if err := s.write(w, func() error {
		return t.place.Node.Remove(ctx, t.place.Keyspace, t.key, path, s.timestamp(), consistency)
	}); err != nil {
		return err
	}
	switch {
	case t.column != nil:
		return s.printf("Column removed.\n")
	case t.super != nil:
		return s.printf("Super column removed.\n")
	}
	return s.printf("Row removed.\n")
}

func (s *Shell) countCols(ctx context.Context, st Count) error {
	t, err := s.resolve(st.Path)
	if err != nil {
		return err
	}
	if t.column != nil {
		return statementErrorf("count takes a row (K.CF['key']) or, in a super column family, a super column")
	}
	n, err := t.place.Node.GetCount(ctx, t.place.Keyspace, t.key, engine.ColumnParent{ColumnFamily: t.cf.Name, SuperColumn: t.super}, consistency)
	if err != nil {
		return err
	}
	what := "columns"
	if t.cf.Super && t.super == nil {
		what = "super columns"
	}
	return s.printf("%d %s\n", n, what)
}

func (s *Shell) list(ctx context.Context, st List) error {
	p, cf, err := s.cfDef(st.Keyspace, st.CF)
	if err != nil {
		return err
	}
	limit, err := s.count(st.Limit, st.HasLimit, DefaultListLimit)
	if err != nil {
		return err
	}
	cols, _ := s.count(0, false, engine.DefaultCount)
	var rows []notation.Row
	if limit > 0 {
		ks, err := p.Node.GetRangeSlices(ctx, p.Keyspace, engine.ColumnParent{ColumnFamily: cf.Name},
			engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: int32(cols)}},
			engine.KeyRange{Count: int32(limit)}, consistency)
		if err != nil {
			return err
		}
		for _, k := range ks {
			rows = append(rows, notation.Row{Key: k.Key, Columns: redact(p, k.Columns)})
		}
	}
	var sb strings.Builder
	if err := s.style().WriteCF(&sb, cf, rows); err != nil {
		return err
	}
	fmt.Fprintf(&sb, "%d rows (in %s token order; range ghosts, rows of tombstones only, show as {}).\n", len(rows), p.Node.Partitioner())
	return s.printf("%s", sb.String())
}

func (s *Shell) help(topic string) error {
	if topic == "types" || topic == "functions" {
		keys := make([]string, 0, len(typeFuncs))
		for k := range typeFuncs {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var sb strings.Builder
		for _, k := range keys {
			sb.WriteString("  " + typeFuncs[k] + "\n")
		}
		return s.printf("Type functions:\n%s", sb.String())
	}
	return s.printf("%s", HelpText)
}

// HelpText is what help prints.
const HelpText = `Statements (one per line, or separated by ';'; keywords in any case):
  show keyspaces
  describe keyspace <Keyspace>
  set <Keyspace>.<CF>['key']['column'] = <value>
  set <Keyspace>.<CF>['key']['super']['column'] = <value>          (super column families)
  get <Keyspace>.<CF>['key'] [<slice>]                              a row
  get <Keyspace>.<CF>['key']['column']                              one column
  get <Keyspace>.<CF>['key']['super'] [<slice>]                     one super column
  get <Keyspace>.<CF>['key']['super']['column']                     one subcolumn
  del <Keyspace>.<CF>['key'] | ['key']['column'] | ['key']['super'] | ['key']['super']['column']
  count <Keyspace>.<CF>['key'] | <Keyspace>.<CF>['key']['super']
  list <Keyspace>.<CF> [limit N]                                    rows in token order (default 100)
  help [types]
  quit

A slice is any of these words after the path, optionally inside [ ]:
  start <name>  finish <name>  reversed  limit <N>
  e.g.  get Scratch.Longs['row'] start 100 finish 1000 reversed limit 10
        get Scratch.UTF8s['row'] [start 'a' finish 'z' limit 10]
Both bounds are inclusive; with reversed, start is the high end. The default limit is 100.

Names are typed by the column family's comparator (describe keyspace shows it):
  'text' or 123 is read as the comparator's type: a number for LongType, UUID text for
  TimeUUIDType and LexicalUUIDType, text for UTF8Type, AsciiType and BytesType.
  Type functions give exact bytes: long(123), timeuuid(), timeuuid('uuid'), lexicaluuid(),
  lexicaluuid('uuid'), utf8('x'), ascii('x'), bytes('cafe') (hex). The comparator still checks
  them: a LongType name must be 8 bytes, so bytes('abcdef') is refused there.
Values have no type in 0.6: 'text' and 123 store their text; long(123) stores 8 bytes.
Row keys are quoted text. Strings use single quotes; write a quote inside as '' or \'.

Try the sorting example of "WTF is a SuperColumn":
  set Scratch.Longs['sorting'][123] = 'hello there'
  set Scratch.Longs['sorting'][832416] = 'kjjkbcjkcbbd'
  set Scratch.Longs['sorting'][3] = '101010101010'
  set Scratch.Longs['sorting'][976] = 'kjjkbcjkcbbd'
  get Scratch.Longs['sorting']
and the same four names in Scratch.UTF8s.
`

// StatementError is a statement the shell will not run as it is written: a keyspace or column
// family it does not know, a path that does not fit its column family, a limit past MaxCount.
// A TypeError or a SyntaxError says the same of a term or of the text; an error of any other type
// is the engine's, or the request's.
type StatementError struct{ Msg string }

func (e *StatementError) Error() string { return e.Msg }

func statementErrorf(format string, args ...any) error {
	return &StatementError{Msg: fmt.Sprintf(format, args...)}
}
