package teach

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The query-first lesson's exercise (teaching.QueryLab) on the real node: a scratch table per
// access pattern and primary key the learners choose, in a keyspace of its own beside the
// application's (LabKeyspace), filled with a few rows and queried with the pattern's query. The
// CQL is composed here, the one place beside createKeyspace: the keyspace comes from validated
// settings, the table's name is a hash, and every column name and value comes from the
// patterns of package teaching, never from the learner, whose choice only picks among them.

const (
	// labMaxTables bounds the scratch keyspace: past it, the least recently used table goes.
	labMaxTables = 24
	// labTrials is how many keys one session may try a minute.
	labTrials = 10
	// labLimit is how many rows the pattern's query returns at most.
	labLimit = 10
	// labSessions bounds the sessions the limiter remembers.
	labSessions = 4096
)

// queryLab is the lab's state in this process: its tables, most recently used last, and the
// day each was last filled; the trials of each session.
type queryLab struct {
	mu       sync.Mutex // serialises the lab's schema changes
	ready    bool       // the keyspace exists, and tables holds what it held at start
	tables   []string
	filled   map[string]string
	maxTable int // labMaxTables unless a test says otherwise
	trials   trialLimiter
}

// trialLimiter allows each session labTrials trials in any minute.
type trialLimiter struct {
	mu   sync.Mutex
	seen map[string][]time.Time
	max  int
}

func (l *trialLimiter) allow(session string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[string][]time.Time{}
	}
	limit := l.max
	if limit == 0 {
		limit = labTrials
	}
	recent := slices.DeleteFunc(l.seen[session], func(t time.Time) bool { return now.Sub(t) >= time.Minute })
	if len(recent) >= limit {
		l.seen[session] = recent
		return false
	}
	if len(l.seen) >= labSessions { // forget the sessions with nothing in the last minute
		for s, ts := range l.seen {
			if len(ts) == 0 || now.Sub(ts[len(ts)-1]) >= time.Minute {
				delete(l.seen, s)
			}
		}
	}
	l.seen[session] = append(recent, now)
	return true
}

// labTableName names a pattern's table for a key: the pattern and a hash of the key, so that
// the same choice finds the same table.
func labTableName(k teaching.KeyChoice) string {
	sum := sha1.Sum([]byte(k.String()))
	return "q_" + k.Pattern + "_" + hex.EncodeToString(sum[:5])
}

// labFixture is the rows of a pattern's table: every value as a CQL literal, by column.
type labFixture struct {
	rows []map[string]string
	// given and buckets are what the query names: the value of each Given and Constant column,
	// and the values of each Bucket column.
	given   map[string]string
	buckets map[string][]string
}

var labUsers = []string{"ann", "bob", "cat"}

// fixtureOf makes the rows of p's table on the day of now: three users, each with two tweets a
// day over three days (the lines), or followers, or a row each (the users).
func fixtureOf(p teaching.KeyPattern, now time.Time) labFixture {
	f := labFixture{given: map[string]string{}, buckets: map[string][]string{}}
	today := now.UTC().Truncate(24 * time.Hour)
	var days []time.Time
	for d := 2; d >= 0; d-- {
		days = append(days, today.AddDate(0, 0, -d))
	}
	lit := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	for _, c := range p.Columns {
		switch c.Role {
		case teaching.Given:
			f.given[c.Name] = lit(labUsers[0])
		case teaching.Constant:
			f.given[c.Name] = lit("public")
		case teaching.Bucket:
			for _, d := range days {
				f.buckets[c.Name] = append(f.buckets[c.Name], lit(d.Format(time.DateOnly)))
			}
		}
	}
	switch p.ID {
	case "userline", "public":
		for ui, u := range labUsers {
			for di, d := range days {
				for i := range 2 {
					at := d.Add(time.Duration(9+ui*3+i) * time.Hour)
					id := gocql.MinTimeUUID(at).String()
					f.rows = append(f.rows, map[string]string{"username": lit(u), "author": lit(u), "line": lit("public"),
						"day": lit(d.Format(time.DateOnly)), "time": id, "tweet_id": id,
						"body": lit(fmt.Sprintf("%s's tweet %d of day %d", u, i+1, di+1))})
				}
			}
		}
	case "followers":
		for ui, u := range labUsers {
			for j := range 3 - ui {
				f.rows = append(f.rows, map[string]string{"username": lit(u), "follower": lit(fmt.Sprintf("fan%d_of_%s", j+1, u)),
					"since": lit(today.Add(time.Duration(j) * time.Hour).Format("2006-01-02T15:04:05Z"))})
			}
		}
	case "user":
		for i, u := range labUsers {
			f.rows = append(f.rows, map[string]string{"username": lit(u), "id": fmt.Sprintf("00000000-0000-4000-8000-%012d", i+1),
				"created_at": lit(today.Format("2006-01-02T15:04:05Z"))})
		}
	}
	return f
}

// labSchema is the CREATE TABLE of p's table under key k.
func labSchema(ks, table string, p teaching.KeyPattern, k teaching.KeyChoice) string {
	cols := make([]string, 0, len(p.Columns)+1)
	for _, c := range p.Columns {
		cols = append(cols, c.Name+" "+c.Type)
	}
	key := strings.TrimPrefix(k.String(), "PRIMARY KEY ")
	options := ""
	if i := strings.Index(key, " WITH "); i >= 0 {
		key, options = key[:i], key[i:]
	}
	return fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s.%s (%s, PRIMARY KEY %s)%s", ks, table, strings.Join(cols, ", "), key, options)
}

// labQuery is p's query on its table under key k: the values it knows restrict their columns
// (a Given column always; a Bucket or Constant one when it is in the partition key, which is
// what it is for), then the order it wants and a limit. It returns how many partitions the
// query names (0: it names none, a scan) and whether it lists them with IN.
func labQuery(ks, table string, p teaching.KeyPattern, k teaching.KeyChoice, f labFixture) (cql string, partitions int, in bool) {
	var where []string
	partitions = 1
	restricted := 0
	for _, c := range p.Columns {
		inPK := slices.Contains(k.Partition, c.Name)
		switch {
		case c.Role == teaching.Given || (c.Role == teaching.Constant && inPK):
			where = append(where, c.Name+" = "+f.given[c.Name])
		case c.Role == teaching.Bucket && inPK:
			where = append(where, c.Name+" IN ("+strings.Join(f.buckets[c.Name], ", ")+")")
			partitions *= len(f.buckets[c.Name])
			in = true
		default:
			continue
		}
		if inPK {
			restricted++
		}
	}
	cql = "SELECT * FROM " + ks + "." + table
	if len(where) > 0 {
		cql += " WHERE " + strings.Join(where, " AND ")
	}
	for _, c := range p.Columns {
		if c.Role == teaching.Ordered {
			cql += " ORDER BY " + c.Name + map[bool]string{true: " DESC", false: " ASC"}[p.Desc]
		}
	}
	cql += fmt.Sprintf(" LIMIT %d", labLimit)
	if restricted < len(k.Partition) {
		partitions = 0
	}
	return cql, partitions, in
}

// TryKey implements teaching.QueryLab.
func (s *Store) TryKey(ctx context.Context, session string, k teaching.KeyChoice) (teaching.KeyTrial, error) {
	p, err := k.Validate()
	if err != nil {
		return teaching.KeyTrial{}, err
	}
	sess, err := s.sess()
	if err != nil {
		return teaching.KeyTrial{}, err
	}
	if !s.lab.trials.allow(session, time.Now()) {
		return teaching.KeyTrial{}, teaching.ErrTooManyTrials
	}
	ks := cql3.LabKeyspace(s.Keyspace())
	t := teaching.KeyTrial{Choice: k, Keyspace: ks, Table: labTableName(k)}
	now := time.Now()
	fix := fixtureOf(p, now)
	if err := s.prepareLabTable(ctx, sess, &t, p, fix, now); err != nil {
		return t, err
	}
	partitions := map[string]bool{}
	for _, r := range fix.rows {
		var key []string
		for _, c := range k.Partition {
			key = append(key, r[c])
		}
		partitions[strings.Join(key, ",")] = true
	}
	t.Held = len(partitions)

	query, named, in := labQuery(ks, t.Table, p, k, fix)
	rows, qerr := labRun(ctx, sess, &t, query, in)
	switch msg, refused := refusal(qerr); {
	case qerr == nil:
		t.Rows = rows
		switch {
		case named == 0:
			t.Outcome, t.Partitions = teaching.EveryPartition, t.Held
		case named == 1:
			t.Outcome, t.Partitions = teaching.OnePartition, 1
		default:
			t.Outcome, t.Partitions = teaching.ManyPartitions, named
		}
	case refused && strings.Contains(msg, "ALLOW FILTERING"):
		t.Outcome, t.Message, t.Partitions = teaching.NeedsFiltering, msg, t.Held
		filtered := strings.Replace(query, fmt.Sprintf(" LIMIT %d", labLimit), fmt.Sprintf(" LIMIT %d ALLOW FILTERING", labLimit), 1)
		rows, ferr := labRun(ctx, sess, &t, filtered, in)
		if msg2, refused2 := refusal(ferr); refused2 {
			t.Outcome, t.Message = teaching.Refused, msg+" With ALLOW FILTERING: "+msg2
		} else if ferr != nil {
			return t, wrap("query lab", ferr)
		}
		t.Rows = rows
	case refused:
		t.Outcome, t.Message = teaching.Refused, msg
	default:
		return t, wrap("query lab", qerr)
	}
	return t, nil
}

// refusal is Cassandra's message when err is its refusal of a query (InvalidRequest).
func refusal(err error) (string, bool) {
	var re gocql.RequestError
	if errors.As(err, &re) && (re.Code() == gocql.ErrCodeInvalid || re.Code() == gocql.ErrCodeSyntax) {
		return re.Message(), true
	}
	return "", false
}

// labRun runs a query of the lab (without paging when it lists partitions: Cassandra orders
// the rows of several partitions only in one page), records it in the trial and returns the
// rows it read.
func labRun(ctx context.Context, sess gocqlx.Session, t *teaching.KeyTrial, cql string, unpaged bool) (int, error) {
	start := time.Now()
	q := sess.ContextQuery(ctx, cql, nil)
	defer q.Release()
	q.Idempotent(true)
	if unpaged {
		q.PageSize(0)
	}
	iter := q.Iter()
	rows := iter.NumRows()
	err := iter.Close()
	st := teaching.LabStatement{CQL: cql, Took: time.Since(start), Rows: rows}
	if err != nil {
		st.Error, st.Rows = "error", -1
		if msg, ok := refusal(err); ok {
			st.Error = "InvalidRequest: " + msg
		}
	}
	t.Statements = append(t.Statements, st)
	return rows, err
}

// labExec runs a schema change or a write of the lab and records it in the trial.
func labExec(ctx context.Context, sess gocqlx.Session, t *teaching.KeyTrial, cql string, shown string) error {
	start := time.Now()
	err := sess.ContextQuery(ctx, cql, nil).ExecRelease()
	st := teaching.LabStatement{CQL: shown, Took: time.Since(start), Rows: -1}
	if err != nil {
		st.Error = "error"
	}
	t.Statements = append(t.Statements, st)
	return err
}

// prepareLabTable makes the scratch keyspace on first use, reuses the trial's table or makes it
// (dropping the least recently used past labMaxTables), and writes its rows when they are not
// today's.
func (s *Store) prepareLabTable(ctx context.Context, sess gocqlx.Session, t *teaching.KeyTrial, p teaching.KeyPattern, fix labFixture, now time.Time) error {
	l := &s.lab
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.filled == nil {
		l.filled = map[string]string{}
	}
	if !l.ready {
		stmt := fmt.Sprintf("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = %s AND durable_writes = false", t.Keyspace, s.store.Replication().CQL())
		if err := labExec(ctx, sess, t, stmt, stmt); err != nil {
			return wrap("query lab keyspace", err)
		}
		var names []string
		if err := sess.ContextQuery(ctx, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(t.Keyspace).SelectRelease(&names); err != nil {
			return wrap("query lab tables", err)
		}
		l.tables, l.ready = names, true
	}
	max := l.maxTable
	if max == 0 {
		max = labMaxTables
	}
	if i := slices.Index(l.tables, t.Table); i >= 0 {
		l.tables = append(slices.Delete(l.tables, i, i+1), t.Table)
	} else {
		for len(l.tables) >= max {
			old := l.tables[0]
			if err := labExec(ctx, sess, t, "DROP TABLE IF EXISTS "+t.Keyspace+"."+old, "DROP TABLE IF EXISTS "+t.Keyspace+"."+old+" (the least recently used of the lab's tables)"); err != nil {
				return wrap("query lab drop", err)
			}
			l.tables = l.tables[1:]
			delete(l.filled, old)
		}
		schema := labSchema(t.Keyspace, t.Table, p, t.Choice)
		if err := labExec(ctx, sess, t, schema, schema); err != nil {
			if msg, ok := refusal(err); ok {
				return fmt.Errorf("%w: Cassandra refused the table: %s", domain.ErrInvalid, msg)
			}
			return wrap("query lab table", err)
		}
		if err := sess.AwaitSchemaAgreement(ctx); err != nil {
			return wrap("query lab schema agreement", err)
		}
		l.tables = append(l.tables, t.Table)
		t.Created = true
	}
	day := now.UTC().Format(time.DateOnly)
	if l.filled[t.Table] == day {
		return nil
	}
	b := sess.NewBatch(gocql.UnloggedBatch).WithContext(ctx)
	var names []string
	for _, c := range p.Columns {
		names = append(names, c.Name)
	}
	for _, r := range fix.rows {
		vals := make([]string, len(names))
		for i, n := range names {
			vals[i] = r[n]
		}
		b.Query("INSERT INTO " + t.Keyspace + "." + t.Table + " (" + strings.Join(names, ", ") + ") VALUES (" + strings.Join(vals, ", ") + ")")
	}
	start := time.Now()
	err := sess.ExecuteBatch(b)
	t.Statements = append(t.Statements, teaching.LabStatement{
		CQL:  fmt.Sprintf("BEGIN UNLOGGED BATCH %d × INSERT INTO %s.%s (%s) VALUES (…) APPLY BATCH", len(fix.rows), t.Keyspace, t.Table, strings.Join(names, ", ")),
		Took: time.Since(start), Rows: -1})
	if err != nil {
		t.Statements[len(t.Statements)-1].Error = "error"
		return wrap("query lab rows", err)
	}
	l.filled[t.Table] = day
	return nil
}
