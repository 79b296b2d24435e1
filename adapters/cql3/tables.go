package cql3

import (
	"github.com/scylladb/gocqlx/v2/qb"
	"github.com/scylladb/gocqlx/v2/table"
)

// The table models, as migrations/*.cql declares the tables.
var (
	usersTable = table.New(table.Metadata{
		Name:    "users",
		Columns: []string{"username", "id", "password", "created_at", "created_at_us"},
		PartKey: []string{"username"},
	})
	friendsTable = table.New(table.Metadata{
		Name:    "friends",
		Columns: []string{"username", "friend", "since", "since_us"},
		PartKey: []string{"username"},
		SortKey: []string{"friend"},
	})
	followersTable = table.New(table.Metadata{
		Name:    "followers",
		Columns: []string{"username", "follower", "since", "since_us"},
		PartKey: []string{"username"},
		SortKey: []string{"follower"},
	})
	tweetsTable = table.New(table.Metadata{
		Name:    "tweets",
		Columns: []string{"tweet_id", "username", "body", "created_at", "created_at_us"},
		PartKey: []string{"tweet_id"},
	})
	userlineTable = table.New(table.Metadata{
		Name:    "userline",
		Columns: []string{"username", "time", "tweet_id", "author", "body", "created_at", "created_at_us"},
		PartKey: []string{"username"},
		SortKey: []string{"time"},
	})
	timelineTable = table.New(table.Metadata{
		Name:    "timeline",
		Columns: []string{"username", "time", "tweet_id", "author", "body", "created_at", "created_at_us"},
		PartKey: []string{"username"},
		SortKey: []string{"time"},
	})
	publicLineTable = table.New(table.Metadata{
		Name:    "public_line",
		Columns: []string{"day", "time", "tweet_id", "author", "body", "created_at", "created_at_us"},
		PartKey: []string{"day"},
		SortKey: []string{"time"},
	})
	publicDaysTable = table.New(table.Metadata{
		Name:    "public_days",
		Columns: []string{"line", "day"},
		PartKey: []string{"line"},
		SortKey: []string{"day"},
	})

	authorsTable = table.New(table.Metadata{
		Name:    "authors",
		Columns: []string{"name", "profile", "posts"},
		PartKey: []string{"name"},
	})
	entriesTable = table.New(table.Metadata{
		Name:    "blog_entries",
		Columns: []string{"slug", "id", "title", "body", "author", "tags", "published_at", "published_at_us"},
		PartKey: []string{"slug"},
	})
	taggedTable = table.New(table.Metadata{
		Name:    "tagged_posts",
		Columns: []string{"tag", "time", "slug"},
		PartKey: []string{"tag"},
		SortKey: []string{"time"},
	})
	commentsTable = table.New(table.Metadata{
		Name:    "comments",
		Columns: []string{"slug", "time", "name", "email", "body", "created_at", "created_at_us"},
		PartKey: []string{"slug"},
		SortKey: []string{"time"},
	})
)

// stmt is one statement and the names of its bind markers, in order.
type stmt struct {
	cql   string
	names []string
}

func mk(cql string, names []string) stmt { return stmt{cql: cql, names: names} }

// lineColumns are what a line slice reads: the entry, and the tweet a query-first row carries
// (migration 004; null in the rows written before it).
var lineColumns = []string{"time", "tweet_id", "author", "body", "created_at", "created_at_us"}

// lineStmts are the statements of one line table; the partition key column is "key" whatever
// its name in the table.
type lineStmts struct {
	table      *table.Table
	insert     stmt // key, time, tweet_id
	slice      stmt // key, limit
	heads      stmt // keys (IN), limit per partition: the newest rows of many partitions
	sliceUntil stmt // key, time (exclusive upper bound), limit
	deleteSpan stmt // key, lo, hi: the rows of one microsecond
}

func newLineStmts(t *table.Table) lineStmts {
	pk := t.Metadata().PartKey[0]
	cols := lineColumns
	return lineStmts{
		table:      t,
		insert:     mk(t.Insert()),
		slice:      mk(t.SelectBuilder(cols...).LimitNamed("limit").ToCql()),
		heads:      mk(qb.Select(t.Name()).Columns(append([]string{pk}, cols...)...).Where(qb.In(pk)).LimitPerPartitionNamed("limit").ToCql()),
		sliceUntil: mk(t.SelectBuilder(cols...).Where(qb.Lt("time")).LimitNamed("limit").ToCql()),
		deleteSpan: mk(qb.Delete(t.Name()).Where(qb.Eq(pk), qb.GtOrEqNamed("time", "lo"), qb.LtOrEqNamed("time", "hi")).ToCql()),
	}
}

// The statements. Each is prepared by the driver on first use and reused from then on.
var (
	stInsertUser = mk(usersTable.InsertBuilder().Unique().ToCql())
	stGetUser    = mk(usersTable.Get())
	stGetUsers   = mk(qb.Select(usersTable.Name()).Columns(usersTable.Metadata().Columns...).Where(qb.In("username")).ToCql())

	stInsertFriend   = mk(friendsTable.Insert())
	stInsertFollower = mk(followersTable.Insert())
	stDeleteFriend   = mk(friendsTable.Delete())
	stFriends        = mk(friendsTable.SelectBuilder("friend", "since", "since_us").LimitNamed("limit").ToCql())
	stFriendsAfter   = mk(friendsTable.SelectBuilder("friend", "since", "since_us").Where(qb.Gt("friend")).LimitNamed("limit").ToCql())
	stFollowers      = mk(followersTable.SelectBuilder("follower", "since", "since_us").LimitNamed("limit").ToCql())
	stFollowersAfter = mk(followersTable.SelectBuilder("follower", "since", "since_us").Where(qb.Gt("follower")).LimitNamed("limit").ToCql())

	stInsertTweet = mk(tweetsTable.Insert())
	stGetTweet    = mk(tweetsTable.Get())
	stGetTweets   = mk(qb.Select(tweetsTable.Name()).Columns(tweetsTable.Metadata().Columns...).Where(qb.In("tweet_id")).ToCql())

	userlineStmts   = newLineStmts(userlineTable)
	timelineStmts   = newLineStmts(timelineTable)
	publicLineStmts = newLineStmts(publicLineTable)

	stInsertPublicDay = mk(publicDaysTable.Insert())
	stPublicDays      = mk(publicDaysTable.SelectBuilder("day").LimitNamed("limit").ToCql())
	stPublicDaysUntil = mk(publicDaysTable.SelectBuilder("day").Where(qb.LtOrEq("day")).LimitNamed("limit").ToCql())

	stPutAuthor   = mk(qb.Insert(authorsTable.Name()).Columns("name", "profile").ToCql())
	stGetAuthor   = mk(authorsTable.Get())
	stGetAuthors  = mk(qb.Select(authorsTable.Name()).Columns(authorsTable.Metadata().Columns...).Where(qb.In("name")).ToCql())
	stAuthorPosts = mk(authorsTable.Get("posts"))
	stSetPosts    = mk(qb.Update(authorsTable.Name()).Set("posts").Where(qb.Eq("name")).If(qb.EqNamed("posts", "expected")).ToCql())

	stCreateEntry = mk(entriesTable.InsertBuilder().Unique().ToCql())
	stGetEntry    = mk(entriesTable.Get())
	stGetEntries  = mk(qb.Select(entriesTable.Name()).Columns(entriesTable.Metadata().Columns...).Where(qb.In("slug")).ToCql())
	stDeleteEntry = mk(qb.Delete(entriesTable.Name()).Where(qb.Eq("slug")).If(qb.Eq("id")).ToCql())

	stInsertTagged  = mk(taggedTable.Insert())
	stDeleteTagged  = mk(taggedTable.Delete())
	stTagged        = mk(taggedTable.SelectBuilder("time", "slug").LimitNamed("limit").ToCql())
	stTaggedUntil   = mk(taggedTable.SelectBuilder("time", "slug").Where(qb.LtOrEq("time")).LimitNamed("limit").ToCql())
	stTaggedBetween = mk(taggedTable.SelectBuilder("time", "slug").Where(qb.LtOrEqNamed("time", "newest"), qb.GtOrEqNamed("time", "oldest")).LimitNamed("limit").ToCql())
	stInsertComment = mk(commentsTable.Insert())
	stComments      = mk(commentsTable.SelectBuilder(commentsTable.Metadata().Columns[1:]...).LimitNamed("limit").ToCql())
	stCommentsFrom  = mk(commentsTable.SelectBuilder(commentsTable.Metadata().Columns[1:]...).Where(qb.GtOrEq("time")).LimitNamed("limit").ToCql())
	stDeleteAllComm = mk(qb.Delete(commentsTable.Name()).Where(qb.Eq("slug")).ToCql())
)
