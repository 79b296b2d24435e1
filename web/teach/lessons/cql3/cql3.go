// Package cql3 is lesson 8 of the course: from 0.6 to CQL3. Each column family became a table, its
// row key the partition key and its comparator the clustering column; Cassandra 1.2 to 2.x stored
// each table as the wide rows of 0.6, their cells named by composites; a static column is one cell
// per partition. The live part is a user's followers partition (the static follower_count beside a
// row per follower), read from the running store, with a follow that changes it.
package cql3

//go:generate go tool templ generate -path .

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
	"twissandra/web/teach/models"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Consoles: []frame.ConsoleOffer{console},
		Slug: "cql3", Title: "From 0.6 to CQL3",
		Summary:   "Each column family becomes a table: the row key a partition key, the comparator a clustering column; how 1.2 stored the tables as composite cells, and a static column.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showCQL3Lesson(h, c) },
		Exercises: exercises(h)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

// cql3Mapping is one column family and the table of the migrations that holds its data.
type cql3Mapping struct {
	CF, Comparator, RowKey string
	Table                  string // "" when no table does (the Username index)
	Key                    string // the table's primary key in marks: "K username, C↓ time"
	Why                    string
}

// followersShown bounds the rows of the live followers partition.
const followersShown = 10

type cql3LessonData struct {
	Backend  string
	Mappings []cql3Mapping
	DDL      string // the mapped tables' statements, from the migrations
	// Others are the migrations' tables that no column family maps to, each with its file.
	Others []migrationTable
	// TimelineComparator and FollowersComparator are the 1.2 comparators of the two tables the
	// lesson takes apart, from the migrations.
	TimelineComparator, FollowersComparator string

	// The live part: User's followers partition.
	User, Me string
	Error    string
	Count    int64 // the exact follower count, through the use cases
	Follows  bool  // Me follows User
	// Live names where the rows come from: "cql3" (the running node), or "built" (from the
	// follows the use cases read, as the table would hold them).
	Live               string
	CQLLines, WideRows []frame.NotationLine
	Returned           int
	// Thrift are the 0.6 rows on widerow: the Followers row and the User row's count.
	Thrift, ThriftUser []frame.NotationLine
}

func showCQL3Lesson(h *handler, c *gin.Context) (templ.Component, error) {
	ddl := h.Deps.QueryFirstDDL
	d := cql3LessonData{Backend: h.Deps.Backend, Me: site.User(c)}
	var tables []string
	for _, m := range models.MappingRows(h.Deps.StorageConf, ddl) {
		names := m.Tables
		if len(names) == 0 {
			names = []string{""} // no table does (the Username index)
		}
		for _, name := range names {
			cm := cql3Mapping{CF: m.Keyspace + "." + m.CF, Comparator: m.Comparator, RowKey: m.RowKey, Table: name, Why: m.Explain}
			if t, ok := frame.SchemaTable(ddl, name); ok {
				var b frame.ChebBox
				for _, col := range append(append([]frame.CQLColumn{}, t.PartitionKey...), t.Clustering...) {
					mark := "K"
					switch {
					case col.Desc:
						mark = "C↓"
					case !containsCol(t.PartitionKey, col.Name):
						mark = "C↑"
					}
					b.Cols = append(b.Cols, frame.ChebCol{Name: col.Name, Mark: mark})
				}
				cm.Key = b.KeyOf()
				tables = append(tables, name)
			} else {
				cm.Table = ""
			}
			d.Mappings = append(d.Mappings, cm)
		}
	}
	var ddls []string
	for _, t := range tables {
		if s := frame.MigrationDDL(ddl, t); s != "" && !slices.Contains(ddls, s) {
			ddls = append(ddls, s)
		}
	}
	d.DDL = strings.Join(ddls, "\n\n")
	for _, t := range migrationTables(ddl) {
		if !slices.Contains(tables, t.Name) {
			d.Others = append(d.Others, t)
		}
	}
	if t, ok := frame.SchemaTable(ddl, "timeline"); ok {
		d.TimelineComparator = models.CompositeComparator(&t)
	}
	followers, ok := frame.SchemaTable(ddl, "followers")
	if ok {
		d.FollowersComparator = models.CompositeComparator(&followers)
	}

	d.User = strings.TrimSpace(c.Query("user"))
	if d.User == "" {
		d.User = d.Me
	}
	if d.User == "" || !ok {
		return cql3LessonView(d), nil
	}
	ctx := c.Request.Context()
	_, err := h.Deps.Social.GetUser(ctx, d.User)
	var f social.Fanout
	if err == nil {
		f, err = h.Deps.Social.FanoutOf(ctx, d.User)
	}
	switch {
	case errors.Is(err, domain.ErrNotFound), errors.Is(err, domain.ErrInvalid):
		d.Error = "There is no user named “" + d.User + "”."
		return cql3LessonView(d), nil
	case err != nil:
		return nil, err
	}
	d.Count = f.Followers
	if d.Me != "" && d.Me != d.User {
		if d.Follows, err = h.Deps.Social.IsFollowing(ctx, d.Me, d.User); err != nil {
			return nil, err
		}
	}
	rows, live, err := h.followerRows(ctx, d.User, f.Followers, followersShown)
	if errors.Is(err, errTooManyToBuild) {
		d.Error = "@" + d.User + " has more than " + strconv.Itoa(builtMax) + " followers, more than this lesson builds the partition from without a node."
		return cql3LessonView(d), nil
	} else if err != nil {
		return nil, err
	}
	d.Live, d.Returned = live, len(rows)
	d.CQLLines, d.WideRows = models.CqlNotation(&followers, []string{d.User}, rows), models.WideRowNotation(&followers, []string{d.User}, rows)
	if live == "cql3" {
		return cql3LessonView(d), nil
	}
	if h.Deps.Wide != nil { // and the 0.6 rows they come from
		if uid, err := h.Deps.Wide.UserRowKey(ctx, d.User); err == nil {
			if cols, err := h.Deps.Wide.ReadRow(ctx, "Twissandra", "Followers", uid, teaching.Slice{Count: followersShown}); err == nil {
				d.Thrift = frame.Notation("Followers", uid, cols)
			}
			if cols, err := h.Deps.Wide.ReadRow(ctx, "Twissandra", "User", uid, teaching.Slice{Start: "followers", Finish: "followers", Count: 1}); err == nil {
				d.ThriftUser = frame.Notation("User", uid, cols)
			}
		}
	}
	return cql3LessonView(d), nil
}

// builtMax bounds the follows read to build a followers partition where no node holds one.
const builtMax = 10 * domain.MaxPageSize

// errTooManyToBuild is a user with more followers than the lesson builds a partition from: the
// request asks more than this server reads for it, a client's error.
var errTooManyToBuild = fmt.Errorf("too many followers to build the partition from: %w", domain.ErrInvalid)

// followerRows are the first n rows of user's partition of the followers table, in its
// clustering order (the lesson's "As CQL3 rows" and the order question read them here), and
// where they come from: "cql3", read on the running node with each cell's write time; "built",
// elsewhere, from every follow of user the use cases list (count is the user's follower count,
// the static column), sorted as the table sorts them: widerow's Followers row holds them by the
// followers' UUIDs, so the first n by name need all of them.
func (h *handler) followerRows(ctx context.Context, user string, count int64, n int) ([][]frame.CQLCell, string, error) {
	if h.Deps.CQL != nil {
		rows, err := h.Deps.CQL.ReadPartition(ctx, "followers", []string{user}, teaching.Slice{Count: n})
		return rows, "cql3", err
	}
	if count > builtMax {
		return nil, "", tooManyToBuild(user, builtMax)
	}
	var follows []domain.Follow
	for start := ""; ; {
		page, err := h.Deps.Social.Followers(ctx, user, start, domain.MaxPageSize)
		if err != nil {
			return nil, "", err
		}
		if follows = append(follows, page.Follows...); len(follows) > builtMax {
			return nil, "", tooManyToBuild(user, builtMax)
		}
		if page.Next == "" {
			break
		}
		start = page.Next
	}
	rows := builtFollowerRows(user, count, follows)
	return rows[:min(n, len(rows))], "built", nil
}

func tooManyToBuild(user string, limit int) error {
	return fmt.Errorf("@%s has more than the %d followers this lesson builds the partition from without a node (%w)", user, limit, errTooManyToBuild)
}

// builtFollowerRows are the rows of the followers table for user's follows, as the cql3
// adapter writes them (since in milliseconds, since_us the microseconds past it), the static
// count on each: what a SELECT of the partition would return, in the clustering column's order
// (text compares as bytes, as Go compares strings), whatever order the follows came in (widerow's
// Followers row sorts them by the followers' UUIDs).
func builtFollowerRows(user string, count int64, follows []domain.Follow) [][]frame.CQLCell {
	follows = slices.SortedFunc(slices.Values(follows), func(a, b domain.Follow) int { return strings.Compare(a.Username, b.Username) })
	rows := make([][]frame.CQLCell, 0, len(follows))
	for _, f := range follows {
		since := f.Since.UTC()
		rows = append(rows, []frame.CQLCell{
			{Name: "username", Value: models.QuoteName(user)},
			{Name: "follower", Value: models.QuoteName(f.Username)},
			{Name: "follower_count", Value: strconv.FormatInt(count, 10)},
			{Name: "since", Value: since.Truncate(time.Millisecond).Format(time.RFC3339Nano)},
			{Name: "since_us", Value: strconv.Itoa(since.Nanosecond() / 1000 % 1000)},
		})
	}
	return rows
}

// migrationTable is a table the migrations create, and the file that creates it.
type migrationTable struct{ Name, File string }

// migrationFile is the line cql3.SchemaText() puts before each migration's text, and
// createTable the start of a statement that makes a table.
var (
	migrationFile = regexp.MustCompile(`^-- (\d{3}_\w+\.cql)$`)
	createTable   = regexp.MustCompile(`^CREATE TABLE IF NOT EXISTS (\w+)`)
)

// migrationTables are the tables of the migrations' text, in the order it creates them.
func migrationTables(ddl string) []migrationTable {
	var out []migrationTable
	file := ""
	for _, line := range strings.Split(ddl, "\n") {
		line = strings.TrimSpace(line)
		if m := migrationFile.FindStringSubmatch(line); m != nil {
			file = m[1]
		} else if m := createTable.FindStringSubmatch(line); m != nil {
			out = append(out, migrationTable{Name: m[1], File: file})
		}
	}
	return out
}

func containsCol(cols []frame.CQLColumn, name string) bool {
	return slices.ContainsFunc(cols, func(c frame.CQLColumn) bool { return c.Name == name })
}

// console is the lesson's CQL console, ready to run: a wide row as a CQL3 table: the partition key, then the clustering column its rows sort by.
var console = frame.ConsoleOffer{Language: "cql", Statements: []string{
	"CREATE TABLE IF NOT EXISTS userline (username text, tweet_id timeuuid, body text, PRIMARY KEY (username, tweet_id)) WITH CLUSTERING ORDER BY (tweet_id DESC);",
	"INSERT INTO userline (username, tweet_id, body) VALUES ('ann', now(), 'a row of 0.6 is a partition');",
	"INSERT INTO userline (username, tweet_id, body) VALUES ('ann', now(), 'its columns are rows');",
	"SELECT * FROM userline WHERE username = 'ann';",
}}
