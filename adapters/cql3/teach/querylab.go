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
	// labMaxTables bounds the scratch keyspace's tables, over every server of the cluster: each
	// table holds one of as many slots (lab_slots).
	labMaxTables = 24
	// labMakes bounds the tables the lab makes in any minute, over every server of the cluster
	// together (lab_changes); each may drop one table to free its slot, so the lab changes the
	// schema at most twice as often. A schema change is the costliest thing a visitor can ask of
	// a cluster: every node applies it, and Cassandra serialises them.
	labMakes = 5
	// labBusyFor is how long a table stays its slot's after its last trial: a table tried in
	// the last minute is never dropped for another key, so a trial never finds its table gone.
	labBusyFor = time.Minute
	// labExpire: a table unused this long is dropped by the sweep of whichever server runs it.
	labExpire = time.Hour
	// labSweepEvery is how often each server sweeps.
	labSweepEvery = 5 * time.Minute
	// labTrials is how many keys one client may try a minute on one server.
	labTrials = 10
	// labLimit is how many rows the pattern's query returns at most.
	labLimit = 10
	// labSessions bounds the clients the limiter remembers.
	labSessions = 4096
)

// queryLab is the lab's state in this process; what the servers share is in the lab's
// keyspace: the slots of its tables (lab_slots: which table, when last tried, the day its rows
// were written) and the schema changes of the last minutes (lab_changes).
type queryLab struct {
	mu       sync.Mutex // serialises this process's claims of a slot
	ready    bool       // the keyspace and its two tables exist
	maxTable int        // labMaxTables unless a test says otherwise
	makes    int        // labMakes unless a test says otherwise
	busyFor  time.Duration
	trials   trialLimiter
}

func (l *queryLab) limits() (tables, makes int, busyFor time.Duration) {
	tables, makes, busyFor = labMaxTables, labMakes, labBusyFor
	if l.maxTable > 0 {
		tables = l.maxTable
	}
	if l.makes > 0 {
		makes = l.makes
	}
	if l.busyFor > 0 {
		busyFor = l.busyFor
	}
	return tables, makes, busyFor
}

// DefaultLabBudget is the tables the lab may make in any minute over the cluster unless
// SetLabBudget says otherwise (serve's --query-lab-budget).
const DefaultLabBudget = labMakes

// SetLabBudget sets how many tables the lab may make in any minute over the cluster (labMakes
// unless set): for a deployment, or a test, whose cluster takes more schema changes. The count
// is the cluster's (lab_changes), the bound each server's own: set the same on every server.
func (s *Store) SetLabBudget(makes int) { s.lab.makes = makes }

// LabBusyError is a trial the lab cannot run now without changing the schema more than the
// cluster's bound allows: every slot's table was tried in the last minute, or the lab made its
// tables of the minute already. A key already tried still runs.
type LabBusyError struct {
	Why   string
	After time.Duration
	// Run is set for a lesson's run (spendRun), which has no key already tried to offer.
	Run bool
}

func (e *LabBusyError) Error() string {
	if e.Run {
		return fmt.Sprintf("%s: try again in %d seconds", e.Why, int(e.After/time.Second)+1)
	}
	return fmt.Sprintf("%s: try a key already tried, or this one again in %d seconds", e.Why, int(e.After/time.Second)+1)
}

// Is makes a busy lab a kind of teaching.ErrTooManyTrials, which the lesson tells the learner.
func (e *LabBusyError) Is(target error) bool {
	return target == teaching.ErrTooManyTrials || target == domain.ErrTooManyAttempts
}

// As lets a busy lab be read as a *domain.RetryError, so that wherever a lab's run is refused (a
// lesson's form, an exercise graded through the API) the one error mapping answers 429 with
// Retry-After, never a 500.
func (e *LabBusyError) As(target any) bool {
	t, ok := target.(**domain.RetryError)
	if ok {
		*t = &domain.RetryError{After: (e.After/time.Second + 1) * time.Second, Message: e.Error()}
	}
	return ok
}

// trialLimiter allows each client labTrials trials in any minute.
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
	if len(l.seen) >= labSessions { // forget the clients with nothing in the last minute
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

// keyValues are the values of p's given column in its rows: the users, or the hashtags.
func keyValues(p teaching.KeyPattern) []string {
	if p.ID == "hashtag" {
		return []string{"cassandra", "golang", "cql"}
	}
	return labUsers
}

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
			f.given[c.Name] = lit(keyValues(p)[0])
		case teaching.Constant:
			f.given[c.Name] = lit("public")
		case teaching.Bucket:
			for _, d := range days {
				f.buckets[c.Name] = append(f.buckets[c.Name], lit(d.Format(time.DateOnly)))
			}
		}
	}
	switch p.ID {
	case "userline", "public", "hashtag", "mentions":
		for ui, u := range keyValues(p) {
			for di, d := range days {
				for i := range 2 {
					at := d.Add(time.Duration(9+ui*3+i) * time.Hour)
					id := gocql.MinTimeUUID(at).String()
					f.rows = append(f.rows, map[string]string{"username": lit(u), "author": lit(u), "line": lit("public"),
						"day": lit(d.Format(time.DateOnly)), "time": id, "tweet_id": id, "tag": lit(u), "mentioned": lit(u),
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
	t, _, _, err := s.trial(ctx, session, k, func(ks, table string, p teaching.KeyPattern, fix labFixture) (string, int, bool, int) {
		q, named, in := labQuery(ks, table, p, k, fix)
		return q, named, in, labLimit
	})
	return t, err
}

// TryDesign implements teaching.QueryLab: the design's key makes the table, under the same
// slots and budget as TryKey's (a design is a key on the pattern's columns, so it shares the
// table of the same key), and its query is composed from its parsed form (designQuery).
func (s *Store) TryDesign(ctx context.Context, session string, d teaching.TableDesign) (teaching.DesignTrial, error) {
	t, values, fix, err := s.trial(ctx, session, d.Key, func(ks, table string, p teaching.KeyPattern, fix labFixture) (string, int, bool, int) {
		return designQuery(ks, table, p, d, fix)
	})
	dt := teaching.DesignTrial{KeyTrial: t, InOrder: true}
	if err != nil {
		return dt, err
	}
	p, _ := teaching.LookupPattern(d.Key.Pattern)
	limit := labLimit
	if d.Query.Limit > 0 {
		limit = min(limit, d.Query.Limit)
	}
	for _, r := range fix.rows {
		if !slices.ContainsFunc(p.Columns, func(c teaching.KeyColumn) bool { v, ok := fix.given[c.Name]; return ok && r[c.Name] != v }) {
			dt.Want++
		}
	}
	dt.Want = min(dt.Want, limit)
	for i := 1; i < len(values); i++ {
		a, b := timeOf(values[i-1]), timeOf(values[i])
		if (p.Desc && b.After(a)) || (!p.Desc && b.Before(a)) {
			dt.InOrder = false
		}
	}
	return dt, nil
}

// timeOf is the time a value of an ordered column stands for (a timeuuid's, a timestamp's).
func timeOf(v any) time.Time {
	switch v := v.(type) {
	case gocql.UUID:
		return v.Time()
	case time.Time:
		return v
	}
	return time.Time{}
}

// designQuery composes the query of a parsed design on its table: each restriction with the
// pattern's sample value (a given value, today's bucket or the buckets listed, or a bound that
// takes in every sample row for a range), the order asked, and the limit (at most labLimit). It
// returns how many partitions the query names (0: a scan), whether it lists them with IN, and
// the limit. No text of the learner's is in it: only the pattern's column names, the sample's
// literals, and the words of the parsed form.
func designQuery(ks, table string, p teaching.KeyPattern, d teaching.TableDesign, f labFixture) (string, int, bool, int) {
	q := d.Query
	today := time.Now().UTC().Truncate(24 * time.Hour)
	first, next := today.AddDate(0, 0, -2).Format(time.DateOnly), today.AddDate(0, 0, 1).Format(time.DateOnly)
	sample := func(c teaching.KeyColumn) string {
		if v, ok := f.given[c.Name]; ok {
			return v
		}
		if b := f.buckets[c.Name]; len(b) > 0 {
			return b[len(b)-1]
		}
		if len(f.rows) > 0 {
			return f.rows[0][c.Name]
		}
		return "null"
	}
	var where []string
	named, in := map[string]int{}, false
	for _, r := range q.Where {
		c, _ := p.Column(r.Column)
		switch r.Op {
		case "=":
			where = append(where, c.Name+" = "+sample(c))
			named[c.Name] = 1
		case "IN":
			vals := []string{sample(c)}
			if b := f.buckets[c.Name]; len(b) > 0 {
				vals = b[max(0, len(b)-r.Values):]
			}
			where = append(where, c.Name+" IN ("+strings.Join(vals, ", ")+")")
			named[c.Name], in = len(vals), true
		default:
			var bound string
			low := strings.HasPrefix(r.Op, ">")
			switch {
			case c.Type == "timeuuid" && low:
				bound = "minTimeuuid('" + first + "')"
			case c.Type == "timeuuid":
				bound = "maxTimeuuid('" + next + "')"
			case low:
				bound = "'" + map[bool]string{true: first, false: ""}[c.Type == "date" || c.Type == "timestamp"] + "'"
			default:
				bound = "'" + map[bool]string{true: next, false: "~"}[c.Type == "date" || c.Type == "timestamp"] + "'"
			}
			where = append(where, c.Name+" "+r.Op+" "+bound)
		}
	}
	partitions := 1
	for _, pk := range d.Key.Partition {
		partitions *= named[pk] // 0 when the query does not name it: a scan
	}
	cql := "SELECT * FROM " + ks + "." + table
	if len(where) > 0 {
		cql += " WHERE " + strings.Join(where, " AND ")
	}
	for i, o := range q.Order {
		cql += map[bool]string{true: " ORDER BY ", false: ", "}[i == 0] + o.Column + map[bool]string{true: " DESC", false: " ASC"}[o.Desc]
	}
	limit := labLimit
	if q.Limit > 0 {
		limit = min(limit, q.Limit)
	}
	cql += fmt.Sprintf(" LIMIT %d", limit)
	return cql, partitions, in, limit
}

// trial claims and fills the table of key k, runs the query build composes on it, and reports
// what Cassandra made of it, with the values of the pattern's ordered column in the order the
// rows came, and the fixture.
func (s *Store) trial(ctx context.Context, session string, k teaching.KeyChoice,
	build func(ks, table string, p teaching.KeyPattern, fix labFixture) (string, int, bool, int)) (teaching.KeyTrial, []any, labFixture, error) {
	p, err := k.Validate()
	if err != nil {
		return teaching.KeyTrial{}, nil, labFixture{}, err
	}
	sess, err := s.sess()
	if err != nil {
		return teaching.KeyTrial{}, nil, labFixture{}, err
	}
	if !s.lab.trials.allow(session, time.Now()) {
		return teaching.KeyTrial{}, nil, labFixture{}, teaching.ErrTooManyTrials
	}
	ks := cql3.LabKeyspace(s.Keyspace())
	t := teaching.KeyTrial{Choice: k, Keyspace: ks, Table: labTableName(k)}
	now := time.Now()
	fix := fixtureOf(p, now)
	if err := s.prepareLabTable(ctx, sess, &t, p, fix, now); err != nil {
		return t, nil, fix, err
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

	query, named, in, limit := build(ks, t.Table, p, fix)
	ordered := ""
	for _, c := range p.Columns {
		if c.Role == teaching.Ordered {
			ordered = c.Name
		}
	}
	rows, values, qerr := labRun(ctx, sess, &t, query, in, ordered)
	if unconfigured(qerr) {
		// Another server is still making the table (its slot is claimed before its CREATE).
		return t, nil, fix, &LabBusyError{Why: "the table of this key is being made on another server", After: time.Second}
	}
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
		filtered := strings.Replace(query, fmt.Sprintf(" LIMIT %d", limit), fmt.Sprintf(" LIMIT %d ALLOW FILTERING", limit), 1)
		rows, fvalues, ferr := labRun(ctx, sess, &t, filtered, in, ordered)
		if msg2, refused2 := refusal(ferr); refused2 {
			t.Outcome, t.Message = teaching.Refused, msg+" With ALLOW FILTERING: "+msg2
		} else if ferr != nil {
			return t, nil, fix, wrap("query lab", ferr)
		}
		t.Rows, values = rows, fvalues
	case refused:
		t.Outcome, t.Message = teaching.Refused, msg
	default:
		return t, nil, fix, wrap("query lab", qerr)
	}
	return t, values, fix, nil
}

// unconfigured reports whether err is Cassandra's answer to a table that does not exist (yet):
// an InvalidRequest when the coordinator does not know the table, or a server error ("Unknown
// CF") when it knows the table's name but the node has not finished making it (a table made by
// another server a moment ago).
func unconfigured(err error) bool {
	var re gocql.RequestError
	if !errors.As(err, &re) {
		return false
	}
	msg := re.Message()
	return strings.Contains(msg, "unconfigured table") || strings.Contains(msg, "Unknown CF") ||
		(re.Code() == gocql.ErrCodeInvalid && strings.Contains(msg, "does not exist"))
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
func labRun(ctx context.Context, sess gocqlx.Session, t *teaching.KeyTrial, cql string, unpaged bool, col string) (int, []any, error) {
	start := time.Now()
	q := sess.ContextQuery(ctx, cql, nil)
	defer q.Release()
	q.Idempotent(true)
	if unpaged {
		q.PageSize(0)
	}
	iter := q.Iter()
	rows := 0
	var values []any
	for m := map[string]any{}; iter.MapScan(m); m = map[string]any{} {
		rows++
		if v, ok := m[col]; ok {
			values = append(values, v)
		}
	}
	err := iter.Close()
	st := teaching.LabStatement{CQL: cql, Took: time.Since(start), Rows: rows}
	if err != nil {
		st.Error, st.Rows = "error", -1
		if msg, ok := refusal(err); ok {
			st.Error = "InvalidRequest: " + msg
		}
	}
	t.Statements = append(t.Statements, st)
	return rows, values, err
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

// labSlot is a row of lab_slots.
type labSlot struct {
	Slot   int
	Name   *string
	Used   *time.Time
	Filled *string
}

// ensureLab makes the scratch keyspace and its two tables, once per process.
func (s *Store) ensureLab(ctx context.Context, sess gocqlx.Session, t *teaching.KeyTrial) error {
	l := &s.lab
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.ready {
		return nil
	}
	for _, stmt := range []string{
		fmt.Sprintf("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = %s AND durable_writes = false", t.Keyspace, s.store.Replication().CQL()),
		"CREATE TABLE IF NOT EXISTS " + t.Keyspace + ".lab_slots (slot int PRIMARY KEY, name text, used timestamp, filled text)",
		"CREATE TABLE IF NOT EXISTS " + t.Keyspace + ".lab_changes (bucket text, at timeuuid, what text, PRIMARY KEY (bucket, at)) WITH default_time_to_live = 300",
	} {
		if err := labExec(ctx, sess, t, stmt, stmt); err != nil {
			return wrap("query lab keyspace", err)
		}
	}
	if err := sess.AwaitSchemaAgreement(ctx); err != nil {
		return wrap("query lab schema agreement", err)
	}
	l.ready = true
	return nil
}

// slots reads every claimed slot of the lab.
func (s *Store) slots(ctx context.Context, sess gocqlx.Session, ks string) ([]labSlot, error) {
	var out []labSlot
	err := sess.ContextQuery(ctx, "SELECT slot, name, used, filled FROM "+ks+".lab_slots", nil).SelectRelease(&out)
	return out, err
}

// spend counts one table made in the cluster's budget of the minute, or says how long until one
// may be (spendIn on the lab's lab_changes).
// It returns the entry, for unspend.
func (s *Store) spend(ctx context.Context, sess gocqlx.Session, ks, what string, makes int) (gocql.UUID, time.Duration, error) {
	return s.spendIn(ctx, sess, ks+".lab_changes", "made", what, makes)
}

// spendIn counts one thing done in a budget of the cluster's, limit a minute, kept in table
// (bucket text, at timeuuid, what text, PRIMARY KEY (bucket, at)), or says how long until one
// may be: an entry is written, then the entries of the last minute counted, every server's, its
// own included; over the budget it is taken out again (so the count is exact however many
// servers spend at once). It returns the entry, for unspendIn.
func (s *Store) spendIn(ctx context.Context, sess gocqlx.Session, table, bucket, what string, limit int) (gocql.UUID, time.Duration, error) {
	now := time.Now()
	at := gocql.UUIDFromTime(now)
	if err := sess.ContextQuery(ctx, "INSERT INTO "+table+" (bucket, at, what) VALUES (?, ?, ?)", nil).Bind(bucket, at, what).ExecRelease(); err != nil {
		return at, 0, err
	}
	var times []gocql.UUID
	if err := sess.ContextQuery(ctx, "SELECT at FROM "+table+" WHERE bucket = ? AND at >= minTimeuuid(?) LIMIT ?", nil).
		Bind(bucket, now.Add(-time.Minute), limit+1).SelectRelease(&times); err != nil {
		return at, 0, err
	}
	if len(times) <= limit {
		return at, 0, nil
	}
	if err := s.unspendIn(ctx, sess, table, bucket, at); err != nil {
		return at, 0, err
	}
	return at, max(time.Second, times[0].Time().Add(time.Minute).Sub(now)), nil
}

// unspend takes entry at out of the budget: a table that was not made after all.
func (s *Store) unspend(ctx context.Context, sess gocqlx.Session, ks string, at gocql.UUID) error {
	return s.unspendIn(ctx, sess, ks+".lab_changes", "made", at)
}

// unspendIn takes entry at out of table's bucket.
func (s *Store) unspendIn(ctx context.Context, sess gocqlx.Session, table, bucket string, at gocql.UUID) error {
	return sess.ContextQuery(ctx, "DELETE FROM "+table+" WHERE bucket = ? AND at = ?", nil).Bind(bucket, at).ExecRelease()
}

// claim takes the slot of the trial's table: touches it when a slot holds it already, else
// takes a free slot or the least recently tried one not tried for busyFor (its table to drop),
// within the budget of tables made a minute. Every claim is a lightweight transaction on the
// slot, so two servers never take one slot, and the lab never holds more tables than slots.
func (s *Store) claim(ctx context.Context, sess gocqlx.Session, t *teaching.KeyTrial, now time.Time) (slot labSlot, evicted string, err error) {
	tables, makes, busyFor := s.lab.limits()
	spent := false
	var spentAt gocql.UUID
	defer func() {
		// A claim that made no table gives its place in the budget back.
		if spent && err != nil {
			_ = s.unspend(context.WithoutCancel(ctx), sess, t.Keyspace, spentAt)
		}
	}()
	for range 5 {
		slots, err := s.slots(ctx, sess, t.Keyspace)
		if err != nil {
			return slot, "", wrap("query lab slots", err)
		}
		taken := map[int]labSlot{}
		for _, sl := range slots {
			taken[sl.Slot] = sl
			if sl.Name != nil && *sl.Name == t.Table {
				ok, err := s.store.CAS(sess.ContextQuery(ctx, "UPDATE "+t.Keyspace+".lab_slots SET used = ? WHERE slot = ? IF name = ?", nil).Bind(now, sl.Slot, t.Table))
				if err != nil {
					return slot, "", wrap("query lab slot", err)
				}
				if ok {
					if spent { // another server made the table meanwhile: this claim made none
						_ = s.unspend(ctx, sess, t.Keyspace, spentAt)
						spent = false
					}
					return sl, "", nil
				}
				continue // another server took it meanwhile: read again
			}
		}
		if !spent {
			at, wait, err := s.spend(ctx, sess, t.Keyspace, t.Table, makes)
			if err != nil {
				return slot, "", wrap("query lab budget", err)
			}
			if wait > 0 {
				return slot, "", &LabBusyError{Why: fmt.Sprintf("the lab has made its %d tables of the minute on this cluster", makes), After: wait}
			}
			spent, spentAt = true, at
		}
		// A slot never used, or emptied by the sweep, else the least recently tried one that
		// nobody tried for busyFor.
		unused, emptied, lru := -1, -1, -1
		for i := range tables {
			sl, ok := taken[i]
			switch {
			case !ok:
				unused = i
			case sl.Name == nil:
				emptied = i
			case sl.Used != nil && now.Sub(*sl.Used) >= busyFor && (lru < 0 || sl.Used.Before(*taken[lru].Used)):
				lru = i
			}
			if unused >= 0 || emptied >= 0 {
				break
			}
		}
		var ok bool
		switch {
		case unused >= 0:
			ok, err = s.store.CAS(sess.ContextQuery(ctx, "INSERT INTO "+t.Keyspace+".lab_slots (slot, name, used) VALUES (?, ?, ?) IF NOT EXISTS", nil).Bind(unused, t.Table, now))
			slot = labSlot{Slot: unused}
		case emptied >= 0:
			ok, err = s.store.CAS(sess.ContextQuery(ctx, "UPDATE "+t.Keyspace+".lab_slots SET name = ?, used = ?, filled = null WHERE slot = ? IF name = null", nil).Bind(t.Table, now, emptied))
			slot = labSlot{Slot: emptied}
		case lru >= 0:
			old := taken[lru]
			ok, err = s.store.CAS(sess.ContextQuery(ctx, "UPDATE "+t.Keyspace+".lab_slots SET name = ?, used = ?, filled = null WHERE slot = ? IF name = ? AND used = ?", nil).Bind(t.Table, now, lru, *old.Name, *old.Used))
			slot, evicted = labSlot{Slot: lru}, *old.Name
		default:
			return slot, "", &LabBusyError{Why: fmt.Sprintf("all %d of the lab's tables were tried in the last minute", tables), After: busyFor}
		}
		if err != nil {
			return slot, "", wrap("query lab slot", err)
		}
		if ok {
			slot.Name = &t.Table
			return slot, evicted, nil
		}
	}
	return slot, "", &LabBusyError{Why: "the lab's tables are changing on other servers", After: time.Second}
}

// prepareLabTable makes the scratch keyspace on first use, claims the trial's table's slot
// (claim), makes the table when the slot is new to it (dropping the table it held), and writes
// its rows when they are not today's.
func (s *Store) prepareLabTable(ctx context.Context, sess gocqlx.Session, t *teaching.KeyTrial, p teaching.KeyPattern, fix labFixture, now time.Time) error {
	if err := s.ensureLab(ctx, sess, t); err != nil {
		return err
	}
	s.lab.mu.Lock()
	slot, evicted, err := s.claim(ctx, sess, t, now)
	s.lab.mu.Unlock()
	if err != nil {
		return err
	}
	if slot.Used == nil { // a slot new to this table: make it
		if evicted != "" {
			stmt := "DROP TABLE IF EXISTS " + t.Keyspace + "." + evicted
			if err := labExec(ctx, sess, t, stmt, stmt+" (the least recently tried of the lab's tables)"); err != nil {
				return wrap("query lab drop", err)
			}
		}
		schema := labSchema(t.Keyspace, t.Table, p, t.Choice)
		if err := labExec(ctx, sess, t, schema, schema); err != nil {
			// Give the slot back: the table is not there.
			_, _ = s.store.CAS(sess.ContextQuery(context.WithoutCancel(ctx), "UPDATE "+t.Keyspace+".lab_slots SET name = null, used = null WHERE slot = ? IF name = ?", nil).Bind(slot.Slot, t.Table))
			if msg, ok := refusal(err); ok {
				return fmt.Errorf("%w: Cassandra refused the table: %s", domain.ErrInvalid, msg)
			}
			return wrap("query lab table", err)
		}
		if err := sess.AwaitSchemaAgreement(ctx); err != nil {
			return wrap("query lab schema agreement", err)
		}
		t.Created = true
	}
	day := now.UTC().Format(time.DateOnly)
	if slot.Filled != nil && *slot.Filled == day {
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
	err = sess.ExecuteBatch(b)
	if unconfigured(err) && !t.Created {
		// The table was made by another server a moment ago: once the nodes agree on the
		// schema it is there.
		if aerr := sess.AwaitSchemaAgreement(ctx); aerr == nil {
			err = sess.ExecuteBatch(b)
		}
	}
	t.Statements = append(t.Statements, teaching.LabStatement{
		CQL:  fmt.Sprintf("BEGIN UNLOGGED BATCH %d × INSERT INTO %s.%s (%s) VALUES (…) APPLY BATCH", len(fix.rows), t.Keyspace, t.Table, strings.Join(names, ", ")),
		Took: time.Since(start), Rows: -1})
	if err != nil {
		t.Statements[len(t.Statements)-1].Error = "error"
		if unconfigured(err) {
			return &LabBusyError{Why: "the table of this key is being made on another server", After: time.Second}
		}
		return wrap("query lab rows", err)
	}
	if err := sess.ContextQuery(ctx, "UPDATE "+t.Keyspace+".lab_slots SET filled = ? WHERE slot = ?", nil).Bind(day, slot.Slot).ExecRelease(); err != nil {
		return wrap("query lab slot", err)
	}
	return nil
}

// SweepLab drops the lab's tables that nobody tried for labExpire, on whichever server runs
// it: each server runs it every labSweepEvery (Module), so the tables go on time whatever
// servers come and go. A lab never used has nothing to sweep.
func (s *Store) SweepLab(ctx context.Context) (dropped []string, err error) {
	sess, err := s.sess()
	if err != nil {
		return nil, err
	}
	ks := cql3.LabKeyspace(s.Keyspace())
	slots, err := s.slots(ctx, sess, ks)
	if err != nil {
		if unconfigured(err) || strings.Contains(err.Error(), "Keyspace") {
			return nil, nil // no lab yet
		}
		return nil, wrap("query lab sweep", err)
	}
	now := time.Now()
	for _, sl := range slots {
		if sl.Name == nil || sl.Used == nil || now.Sub(*sl.Used) < labExpire {
			continue
		}
		ok, err := s.store.CAS(sess.ContextQuery(ctx, "UPDATE "+ks+".lab_slots SET name = null, used = null, filled = null WHERE slot = ? IF name = ? AND used = ?", nil).Bind(sl.Slot, *sl.Name, *sl.Used))
		if err != nil {
			return dropped, wrap("query lab sweep", err)
		}
		if !ok {
			continue // tried again meanwhile, or swept by another server
		}
		if err := sess.ContextQuery(ctx, "DROP TABLE IF EXISTS "+ks+"."+*sl.Name, nil).ExecRelease(); err != nil {
			return dropped, wrap("query lab sweep", err)
		}
		dropped = append(dropped, *sl.Name)
	}
	return dropped, nil
}

// spendRun counts one run of a lesson's lab in the cluster's budget of the minute, bucket's
// share of the query lab's lab_changes (every server's runs counted, as spend counts the tables
// made), or says how long until one may be: a LabBusyError naming what ran out.
func (s *Store) spendRun(ctx context.Context, sess gocqlx.Session, bucket, what string, limit int) error {
	lt := teaching.KeyTrial{Keyspace: cql3.LabKeyspace(s.Keyspace())}
	if err := s.ensureLab(ctx, sess, &lt); err != nil {
		return err
	}
	_, wait, err := s.spendIn(ctx, sess, lt.Keyspace+".lab_changes", bucket, what, limit)
	if err != nil {
		return wrap(what+" budget", err)
	}
	if wait > 0 {
		return &LabBusyError{Why: fmt.Sprintf("%s has reached its bound of %d runs a minute on this cluster", what, limit), After: wait, Run: true}
	}
	return nil
}
