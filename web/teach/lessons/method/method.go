// Package method is lesson 10 of the course: the data modelling method, as DataStax's DS220 and
// the data modelling chapter of Apache Cassandra's documentation teach it, applied to Twissandra.
// The conceptual model (users, tweets, follows); the application's workflow and its access
// patterns (seed 003's thirteen actions); the logical model, each table of the running schema
// derived by the mapping rules, and where this server departs from them; and the physical
// analysis, the partition-size formulas computed from the learner's figures and held against the
// partitions the running store holds.
package method

//go:generate go tool templ generate -path .

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "method", Title: "The method: from queries to tables",
		Summary: "Twissandra's CQL3 schema derived as DS220 teaches: the conceptual model, the access patterns, the mapping rules, then each partition's values and bytes from your figures, against the partitions the store holds.",
		Topics:  []string{"method", "conceptual model", "access patterns", "mapping rules", "logical model", "physical model", "partition size"},
		Show:    func(c *gin.Context) (templ.Component, error) { return showMethodLesson(h, c) },
		Exercises: append(cellsExercises(h), exercises(lh.Deps.QueryLab, lh.Deps.Backend == "cql3" || lh.Deps.CompareBackend == "cql3", lh.LabGate,
			onCompareNode(lh.Deps.Backend, lh.Deps.CompareBackend))...)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

// seedAction is one of the actions seed 003 lists ("The common actions to be supported are"),
// in its words, and what serves it in the running schema.
type seedAction struct {
	Words  string
	Write  bool
	Q      string   // the access pattern (frame.AccessPatterns) a read is, "" for a write
	Tables []string // the tables it reads or writes
}

// seedActions are seed 003's thirteen actions, in its order. The tables are those the derivation
// below gives each; a test holds every one to a table of the running schema.
var seedActions = []seedAction{
	{"Get a user record by username", false, "Q1", []string{"users"}},
	{"Get a list of user records by their usernames", false, "Q1", []string{"users"}},
	{"Get the friends of a username", false, "Q5", []string{"friends", "users"}},
	{"Get the followers of a username", false, "Q5", []string{"followers", "users"}},
	{"Get the usernames of the friends of a username", false, "Q5", []string{"friends"}},
	{"Get the usernames of the followers of a username", false, "Q5", []string{"followers"}},
	{"Get a timeline of all tweets", false, "Q4", []string{"public_line", "public_days"}},
	{"Get a timeline of a specific user’s tweets", false, "Q2", []string{"userline"}},
	{"Get a tweet from a tweet ID", false, "", []string{"tweets"}},
	{"Create a tweet", true, "", []string{"tweets", "userline", "public_line", "public_days", "timeline", "pulled_authors"}},
	{"Create a user", true, "", []string{"users"}},
	{"Add friends to a user", true, "", []string{"friends", "followers"}},
	{"Remove friends from a user", true, "", []string{"friends", "followers"}},
}

// ordered is an attribute a query ranges over or orders by.
type ordered struct {
	Name string
	Desc bool
}

// derivation is one table of the logical model: the access pattern it serves, in the rules'
// terms: the attributes it searches by equality (the partition key), those it ranges over or
// orders by (the clustering columns, in that order), and those that make a row unique (the rest
// of the key); Static are the values of the partition, not of a row.
type derivation struct {
	Table    string
	Question string // the access pattern, as a query on the conceptual model
	From     string // where it comes from besides seed 003's actions, "" for none
	Equality []string
	Ranges   []ordered
	Unique   []string
	Static   []string
	// Departs says why the running table is not what the rules give; "" when it is.
	Departs string
	// Added says why a table no action of seed 003 asks for exists; "" for the others.
	Added string
}

// derivations are the logical model of Twissandra: a table per access pattern, as the rules make
// it. The running schema is read from the migrations; a test holds each derived key to it.
var derivations = []derivation{
	{Table: "users", Question: "a user, by username", Equality: []string{"username"}},
	{Table: "tweets", Question: "a tweet, by its ID", Equality: []string{"tweet_id"}},
	{Table: "friends", Question: "whom a user follows", Equality: []string{"username"}, Unique: []string{"friend"}},
	{Table: "followers", Question: "who follows a user, and how many", Equality: []string{"username"}, Unique: []string{"follower"}, Static: []string{"follower_count"}},
	{Table: "userline", Question: "a user's tweets, newest first", Equality: []string{"username"}, Ranges: []ordered{{"time", true}}},
	{Table: "timeline", Question: "the tweets of those a user follows, newest first", From: "seed 003's TIMELINE, which “Holds the tweets of friends a user is following”",
		Equality: []string{"username"}, Ranges: []ordered{{"time", true}}},
	{Table: "public_line", Question: "every tweet, newest first", Ranges: []ordered{{"time", true}},
		Departs: "No attribute is searched by equality, so the rules put every tweet in one partition: seed 003's PUBLIC_USERLINE_KEY row, which “will eventually cause problems”. This server adds a bucket, the tweet's UTC day, to the partition key: a partition holds a day, and a page that reaches past midnight reads the day before too."},
	{Table: "public_days", Question: "the days with public tweets, newest first", From: "the public line's day buckets",
		Equality: []string{"line"}, Ranges: []ordered{{"day", true}},
		Added: "No action asks for it: the day buckets do. A page of the public line walks back from day to day without reading the empty ones."},
	{Table: "pulled_authors", Question: "the authors whose tweets are pulled, not pushed", From: "the celebrity fan-out",
		Equality: []string{"line"}, Unique: []string{"username"},
		Added: "No action asks for it: the hybrid fan-out does. A post by an author with more followers than the pull threshold writes no follower's timeline, so the home timeline is no longer one partition: a page reads these authors, then merges their userlines into the reader's timeline."},
}

// step is one move of a derivation: the rule, and what it gives.
type step struct{ Rule, Gives string }

// derived is a derivation worked through: its steps, the key the rules give, the running table's.
type derived struct {
	derivation
	Steps          []step
	RulesKey       string // the key the rules give, in marks: "K username, C↓ time"
	RunningKey     string // the running table's, from the migrations
	DDL            string // the running table as one CREATE TABLE
	Matches        bool
	Found          bool // the migrations hold the table
	ReadBy         []string
	Nc, Npk, Ns    int
	PartitionTypes string
}

// derive works d through the rules and holds the key they give to table t of the migrations.
func derive(d derivation, t frame.ChebTable, found bool) derived {
	out := derived{derivation: d, Found: found}
	var rules frame.ChebBox
	if len(d.Equality) == 0 {
		out.Steps = append(out.Steps, step{"Equality searches make the partition key.", "none: the query names no attribute, so every row would be in one partition"})
	} else {
		for _, a := range d.Equality {
			rules.Cols = append(rules.Cols, frame.ChebCol{Name: a, Mark: "K"})
		}
		out.Steps = append(out.Steps, step{"Equality searches make the partition key.", "K " + strings.Join(d.Equality, ", ")})
	}
	for _, r := range d.Ranges {
		mark := frame.IfElse(r.Desc, "C↓", "C↑")
		rules.Cols = append(rules.Cols, frame.ChebCol{Name: r.Name, Mark: mark})
		out.Steps = append(out.Steps, step{"Ranges and orderings make the clustering columns, in their order.",
			mark + " " + r.Name + frame.IfElse(r.Desc, " (newest first)", "")})
	}
	if len(d.Unique) == 0 {
		what := "the key already names one row: a row per partition"
		if len(d.Ranges) > 0 {
			last := d.Ranges[len(d.Ranges)-1].Name
			what = "the key already names one row: a " + last + " per row"
			if last == "time" {
				what = "time is a TimeUUID, unique per tweet: the key already names one row"
			}
		}
		out.Steps = append(out.Steps, step{"Uniqueness completes the key.", what})
	} else {
		for _, u := range d.Unique {
			rules.Cols = append(rules.Cols, frame.ChebCol{Name: u, Mark: "C↑"})
		}
		out.Steps = append(out.Steps, step{"Uniqueness completes the key.", "C↑ " + strings.Join(d.Unique, ", ") + ": a row each"})
	}
	for _, s := range d.Static {
		out.Steps = append(out.Steps, step{"A value of the partition, not of a row, is a static column.", s + " static"})
	}
	out.RulesKey = rules.KeyOf()
	if !found {
		return out
	}
	out.RunningKey = frame.ChebBox{ChebTable: t}.KeyOf()
	out.DDL = "CREATE TABLE " + frame.TableDDL(t, true) + ";"
	out.Matches = out.RulesKey == out.RunningKey
	for _, c := range t.Cols {
		switch c.Mark {
		case "K":
			out.Npk++
		case "C↑", "C↓":
			out.Npk++
		case "S":
			out.Ns++
		}
	}
	out.Nc = len(t.Cols)
	return out
}

// The form's figures: what the learner supposes of the application.
type figures struct {
	Users, Followers, Posts, Days, Name, Body int64
}

// figureField is one field of the form: its name, label, bounds and default.
type figureField struct {
	Name, Label, Help string
	Min, Max, Default int64
	get               func(*figures) *int64
}

var figureFields = []figureField{
	{"users", "Users", "how many have signed up", 1, 1_000_000_000, 100_000, func(f *figures) *int64 { return &f.Users }},
	{"followers", "Followers per user", "on average; a user follows as many, on average, as follow them", 0, 10_000_000, 200, func(f *figures) *int64 { return &f.Followers }},
	{"posts", "Posts per user per day", "", 0, 1_000, 3, func(f *figures) *int64 { return &f.Posts }},
	{"days", "Days kept", "nothing expires: the lines grow as long as the tweets are kept", 1, 36_500, 365, func(f *figures) *int64 { return &f.Days }},
	{"name", "Bytes of a username", "text in UTF-8", 1, 30, 8, func(f *figures) *int64 { return &f.Name }},
	{"body", "Bytes of a tweet's body", "140 characters are 140 to 560 bytes in UTF-8", 1, 560, 80, func(f *figures) *int64 { return &f.Body }},
}

// readFigures reads the form, each field its default when absent; a bad field is a message
// saying what it takes, and the default stands for it.
func readFigures(q url.Values) (figures, []string) {
	var f figures
	var errs []string
	for _, fl := range figureFields {
		p := fl.get(&f)
		*p = fl.Default
		v := strings.TrimSpace(strings.ReplaceAll(q.Get(fl.Name), ",", ""))
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < fl.Min || n > fl.Max {
			errs = append(errs, fmt.Sprintf("%s: “%s” is not a whole number from %s to %s; the page uses %s.",
				fl.Label, frame.Short(q.Get(fl.Name), 20), frame.Thousands(fl.Min), frame.Thousands(fl.Max), frame.Thousands(fl.Default)))
			continue
		}
		*p = n
	}
	if f.Followers >= f.Users && len(errs) == 0 {
		errs = append(errs, fmt.Sprintf("Followers per user: %s is not fewer than the %s users; the page uses %s.",
			frame.Thousands(f.Followers), frame.Thousands(f.Users), frame.Thousands(f.Users-1)))
		f.Followers = f.Users - 1
	}
	return f, errs
}

// tavg is the bytes of metadata a cell carries on disk, as the documentation's formula estimates
// it: its timestamp.
const tavg = 8

// The guidance for a partition, as the hot partitions lesson holds them: about 100 MB and 100,000 values.
const (
	guideBytes = 100 << 20
	guideCells = 100_000
)

// sizeOf is the bytes of one value of a column, for the formula: fixed by its type, or the
// form's figure for text.
func sizeOf(c frame.ChebCol, f figures) int64 {
	switch strings.ToLower(c.Type) {
	case "uuid", "timeuuid":
		return 16
	case "bigint", "timestamp", "double", "counter":
		return 8
	case "int", "date", "float":
		return 4
	case "boolean", "tinyint":
		return 1
	case "blob":
		return 60 // the only blob is a password's bcrypt hash: 60 bytes
	}
	if c.Name == "body" {
		return f.Body
	}
	return f.Name
}

// estimate is one table's partition from the learner's figures.
type estimate struct {
	Table              string
	Nr, Nv, St         int64
	Partitions         int64
	RowsBecause        string // where Nr comes from
	OverCells, OverMiB bool
}

// rowsOf is a partition's rows and the table's partitions under f: what the application writes.
func rowsOf(table string, f figures, pushed bool) (nr, parts int64, because string) {
	switch table {
	case "users":
		return 1, f.Users, "one row: a user"
	case "tweets":
		return 1, f.Users * f.Posts * f.Days, "one row: a tweet"
	case "friends":
		return f.Followers, f.Users, "a row per user followed"
	case "followers":
		return f.Followers, f.Users, "a row per follower"
	case "userline":
		return f.Posts * f.Days, f.Users, "posts per day × days"
	case "timeline":
		if pushed {
			return (f.Followers + 1) * f.Posts * f.Days, f.Users, "(users followed + the reader) × posts per day × days"
		}
		return f.Posts * f.Days, f.Users, "the reader's own posts: every author is pulled"
	case "public_line":
		return f.Users * f.Posts, f.Days, "users × posts per day: a day"
	case "public_days":
		return f.Days, 1, "a row a day"
	case "pulled_authors":
		if pushed {
			return 0, 1, "none: no author has more followers than the threshold"
		}
		return f.Users, 1, "every author: each has more followers than the threshold"
	}
	return 0, 0, ""
}

// estimateOf is the formulas for one table: Nv = Nr (Nc − Npk − Ns) + Ns, and
// St = Σ sizeOf(partition key) + Σ sizeOf(static) + Nr × (Σ sizeOf(regular) + Σ sizeOf(clustering)) + Nv × tavg.
func estimateOf(t frame.ChebTable, f figures, pushed bool) estimate {
	e := estimate{Table: t.Name}
	e.Nr, e.Partitions, e.RowsBecause = rowsOf(t.Name, f, pushed)
	var nc, npk, ns, once, perRow int64
	for _, c := range t.Cols {
		nc++
		switch c.Mark {
		case "K":
			npk++
			once += sizeOf(c, f)
		case "S":
			ns++
			once += sizeOf(c, f)
		case "C↑", "C↓":
			npk++
			perRow += sizeOf(c, f)
		default:
			perRow += sizeOf(c, f)
		}
	}
	e.Nv = cellsOf(e.Nr, nc, npk, ns)
	e.St = once + e.Nr*perRow + e.Nv*tavg
	e.OverCells, e.OverMiB = e.Nv > guideCells, e.St > guideBytes
	return e
}

// cellsOf is the number of values of a partition: Nv = Nr (Nc − Npk − Ns) + Ns.
func cellsOf(nr, nc, npk, ns int64) int64 { return nr*(nc-npk-ns) + ns }

// postCopy is one table a post writes, and how many rows of it.
type postCopy struct {
	Table   string
	Rows    int64
	Carries bool // the row carries the tweet's body
}

// measuredPartition is one container's widest partition: the formula fed with the rows the
// store holds, against the cells the store counts.
type measuredPartition struct {
	Container, Key, Label string
	Nr                    int  // rows of the partition (CQL rows; on 0.6, columns: a row of (key, column, value))
	Nc, Npk, Ns           int  // the shape the formula takes
	Formula               int  // Nr (Nc − Npk − Ns) + Ns
	Counted               int  // the cells the store counts
	Tombstones            int  // of Counted, on 0.6
	Counts                bool // the store could count them (an inspector read the partition)
	Capped                bool // the partition holds more than the read took
	Equal                 bool
	Inspect               string
}

// measuredModel is one model's partitions.
type measuredModel struct {
	Backend, Unit string
	Parts         []measuredPartition
	Why           string // why nothing is held against the formula (memory), or why it is not counted
}

// readCap bounds the rows the lesson reads of one partition: the most one slice of the storage
// inspectors returns.
const readCap = 1000

type methodData struct {
	Backend   string
	Me        string
	Available bool // the migrations are there
	Actions   []seedAction
	Patterns  []frame.AccessPattern
	Derived   []derived
	Departs   int
	Others    []string // the migrations' tables outside Twissandra's model
	Fields    []figureField
	Values    url.Values
	Errors    []string
	Figures   figures
	Threshold int64
	Pushed    bool
	Estimates []estimate
	Copies    []postCopy
	PostRows  int64
	PostBody  int64
	Measured  []measuredModel
	// The conceptual model, from the running tables.
	User, Tweet entity
	Follows     []string
}

func showMethodLesson(h *handler, c *gin.Context) (templ.Component, error) {
	d := methodData{Backend: h.Deps.Backend, Actions: seedActions, Patterns: frame.AccessPatterns, Fields: figureFields, Values: c.Request.URL.Query()}
	ddl := h.CqlDDL()
	tables := frame.ParseSchema(ddl)
	d.Available = len(tables) > 0
	if !d.Available {
		return methodView(d), nil
	}
	byName := map[string]frame.ChebTable{}
	for _, t := range tables {
		byName[t.Name] = t
	}
	d.User, d.Tweet, d.Follows = conceptual(byName)
	derivedNames := map[string]bool{}
	for _, dv := range derivations {
		t, ok := byName[dv.Table]
		x := derive(dv, t, ok)
		for _, a := range seedActions {
			if slices.Contains(a.Tables, dv.Table) && a.Q != "" && !slices.Contains(x.ReadBy, a.Q) {
				x.ReadBy = append(x.ReadBy, a.Q)
			}
		}
		if !x.Matches || dv.Added != "" {
			d.Departs++
		}
		d.Derived = append(d.Derived, x)
		derivedNames[dv.Table] = true
	}
	for _, t := range tables {
		if !derivedNames[t.Name] {
			d.Others = append(d.Others, t.Name)
		}
	}

	d.Figures, d.Errors = readFigures(d.Values)
	d.Threshold = h.Deps.Social.PullThreshold()
	d.Pushed = d.Threshold == 0 || d.Figures.Followers <= d.Threshold
	for _, dv := range d.Derived {
		if dv.Found {
			d.Estimates = append(d.Estimates, estimateOf(byName[dv.Table], d.Figures, d.Pushed))
		}
	}
	d.Copies, d.PostRows, d.PostBody = postCopies(byName, d.Figures, d.Pushed)

	ctx := c.Request.Context()
	if h.Deps.Sizes != nil {
		m, err := h.measure(ctx, h.Deps.Sizes, h.Deps.Backend, true, byName)
		if err != nil {
			return nil, err
		}
		d.Measured = append(d.Measured, m)
	}
	if h.Deps.CompareSizes != nil {
		m, err := h.measure(ctx, h.Deps.CompareSizes, h.Deps.CompareBackend, false, byName)
		if err != nil {
			return nil, err
		}
		d.Measured = append(d.Measured, m)
	}
	return methodView(d), nil
}

// postCopies are the rows one post writes in each table, from the application's rule (the
// author's userline, the public line, the author's timeline and each follower's when pushed;
// the public line's day and the author's mark when pulled), and how many of them carry its body.
func postCopies(byName map[string]frame.ChebTable, f figures, pushed bool) ([]postCopy, int64, int64) {
	rows := []struct {
		table string
		n     int64
	}{{"tweets", 1}, {"userline", 1}, {"public_line", 1}, {"timeline", 1 + f.Followers}, {"public_days", 1}}
	if !pushed {
		rows[3].n = 1
		rows = append(rows, struct {
			table string
			n     int64
		}{"pulled_authors", 1})
	}
	var out []postCopy
	var total, body int64
	for _, r := range rows {
		t, ok := byName[r.table]
		if !ok {
			continue
		}
		carries := slices.ContainsFunc(t.Cols, func(c frame.ChebCol) bool { return c.Name == "body" })
		out = append(out, postCopy{Table: r.table, Rows: r.n, Carries: carries})
		total += r.n
		if carries {
			body += r.n
		}
	}
	return out, total, body
}

// measure holds the formula against the widest partition of each of Twissandra's containers in
// one model: the rows (or 0.6 columns) the store's inspector reads of it feed the formula, and
// the cells the store counts are set beside it. primary says the model is the running backend
// (compare mode's second has no inspector here).
func (h *handler) measure(ctx context.Context, s teaching.RowSizer, backend string, primary bool, byName map[string]frame.ChebTable) (measuredModel, error) {
	m := measuredModel{Backend: backend}
	widest, err := s.WidestRows(ctx, 1000)
	if err != nil {
		return m, fmt.Errorf("%s: %w", backend, err)
	}
	m.Unit = widest.Unit
	if widest.Unit != "rows" && widest.Unit != "columns" {
		m.Why = "memory keeps Go maps: a line is a slice of entries, a user a struct. It has no cells, no timestamp per value and nothing on disk, so the formula has nothing here to be held against: its " + widest.Unit + " are not values."
		return m, nil
	}
	seen := map[string]bool{}
	for _, r := range widest.Rows {
		if seen[r.Container] {
			continue
		}
		keyspace, name, _ := strings.Cut(r.Container, ".")
		var p measuredPartition
		var ok bool
		if widest.Unit == "rows" {
			t, found := byName[name]
			if !found || !isDerived(name) {
				continue
			}
			p, ok, err = h.measureTable(ctx, r, t, primary)
		} else {
			if keyspace != "Twissandra" {
				continue
			}
			p, ok, err = h.measureRow(ctx, r, keyspace, name, primary)
		}
		if err != nil {
			return m, fmt.Errorf("%s %s: %w", backend, r.Container, err)
		}
		if ok {
			seen[r.Container] = true
			p.Equal = p.Counts && !p.Capped && p.Formula == p.Counted
			m.Parts = append(m.Parts, p)
		}
	}
	if !primary {
		m.Why = "This model's partitions are counted by its scan alone: the lesson reads the running backend's partitions through its inspector, and compare mode's second model has none here. Start the server with --backend " + backend + " to count their cells."
	}
	return m, nil
}

func isDerived(table string) bool {
	return slices.ContainsFunc(derivations, func(d derivation) bool { return d.Table == table })
}

// measureTable is a CQL partition: the scan's rows are Nr; the inspector reads the partition,
// and its values that are set (each static once) are the cells counted.
func (h *handler) measureTable(ctx context.Context, r teaching.RowSize, t frame.ChebTable, primary bool) (measuredPartition, bool, error) {
	p := measuredPartition{Container: t.Name, Key: r.Key, Label: r.Label, Nr: r.Cells, Inspect: r.Inspect}
	marks := map[string]string{}
	for _, c := range t.Cols {
		marks[c.Name] = c.Mark
		p.Nc++
		switch c.Mark {
		case "K", "C↑", "C↓":
			p.Npk++
		case "S":
			p.Ns++
		}
	}
	p.Formula = p.Nr*(p.Nc-p.Npk-p.Ns) + p.Ns
	if !primary || h.Deps.CQL == nil {
		return p, true, nil
	}
	q, err := url.ParseQuery(r.Inspect)
	if err != nil || len(q["key"]) == 0 {
		return p, true, nil // no key to read it by: the scan's figures stand alone
	}
	rows, err := h.Deps.CQL.ReadPartition(ctx, t.Name, q["key"], teaching.Slice{Count: readCap})
	if err != nil {
		return p, false, err
	}
	p.Counts, p.Capped = true, p.Nr > readCap
	statics := map[string]bool{}
	for _, row := range rows {
		for _, cell := range row {
			switch marks[cell.Name] {
			case "K", "C↑", "C↓":
			case "S":
				if !cell.Null && !statics[cell.Name] {
					statics[cell.Name] = true
					p.Counted++
				}
			default:
				if !cell.Null {
					p.Counted++
				}
			}
		}
	}
	return p, true, nil
}

// measureRow is a 0.6 row: a column family is a table of (key, column, value), each column one
// of its rows with one value. The inspector's read of the row's live columns is Nr; the engine's
// count of the cells it stores (tombstones too, until compaction drops them) is the count.
func (h *handler) measureRow(ctx context.Context, r teaching.RowSize, keyspace, cf string, primary bool) (measuredPartition, bool, error) {
	p := measuredPartition{Container: r.Container, Key: r.Key, Label: r.Label, Nc: 3, Npk: 2, Counted: r.Cells, Tombstones: r.Tombstones, Inspect: r.Inspect}
	if !primary || h.Deps.Wide == nil {
		p.Nr = r.Cells - r.Tombstones
		p.Formula = p.Nr
		return p, true, nil
	}
	cols, err := h.Deps.Wide.ReadRow(ctx, keyspace, cf, r.Key, teaching.Slice{Count: readCap})
	if err != nil {
		return p, false, err
	}
	p.Counts, p.Capped = true, r.Cells-r.Tombstones > readCap
	for _, c := range cols {
		if len(c.Columns) > 0 { // a super column: a row per subcolumn
			p.Nr += len(c.Columns)
		} else if !c.Deleted {
			p.Nr++
		}
	}
	p.Formula = p.Nr * (p.Nc - p.Npk - p.Ns)
	return p, true, nil
}

// number is n with its thousands separated.
func number[T int | int64](n T) string { return frame.Thousands(int64(n)) }

// bytesOf is n bytes in the unit that reads best.
func bytesOf(n int64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// actionsOf are the numbers (from 1) of the seed's actions that use table.
func actionsOf(table string) []int {
	var out []int
	for i, a := range seedActions {
		if slices.Contains(a.Tables, table) {
			out = append(out, i+1)
		}
	}
	return out
}

// fromText says where a table comes from: the seed's actions that use it, and what else.
func fromText(d derivation) string {
	var b strings.Builder
	if as := actionsOf(d.Table); len(as) > 0 {
		b.WriteString("Seed 003's " + frame.Plural(len(as), "action", "actions") + " ")
		for i, n := range as {
			if i > 0 {
				b.WriteString(frame.IfElse(i == len(as)-1, " and ", ", "))
			}
			b.WriteString(strconv.Itoa(n))
		}
	}
	if d.From != "" {
		b.WriteString(frame.IfElse(b.Len() > 0, "; ", "From ") + d.From)
	}
	b.WriteString(".")
	return b.String()
}

// patternWhat is the access pattern's words, "" for none.
func patternWhat(id string) string {
	for _, q := range frame.AccessPatterns {
		if q.ID == id {
			return q.What
		}
	}
	return ""
}

// entity is a box of the conceptual model: its key and its other attributes.
type entity struct {
	Name, Key string
	Attrs     []string
}

// conceptual is the conceptual model's entities and the follows relationship's attributes, read
// from the running tables: a user is a row of users, a tweet a row of tweets less its author (the
// posts relationship), a follow a row of friends less its two users. The helper columns of the
// microseconds (X_us, beside each timestamp X) are storage, not attributes.
func conceptual(byName map[string]frame.ChebTable) (user, tweet entity, follows []string) {
	attrs := func(table string, skip ...string) entity {
		e := entity{}
		for _, c := range byName[table].Cols {
			switch {
			case strings.HasSuffix(c.Name, "_us"), slices.Contains(skip, c.Name):
			case c.Mark == "K" && e.Key == "":
				e.Key = c.Name
			default:
				e.Attrs = append(e.Attrs, c.Name)
			}
		}
		return e
	}
	user, tweet = attrs("users"), attrs("tweets", "username")
	user.Name, tweet.Name = "User", "Tweet"
	follows = attrs("friends", "username", "friend").Attrs
	return user, tweet, follows
}
