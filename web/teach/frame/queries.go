package frame

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"twissandra/web/site"
)

// The access patterns of the seeds' application, numbered as the models page lists them: each
// model lays its rows out so that every one is a slice of one row (a partition), or a multiget
// of rows known by key. A page says which it served (site.Serves), and where each model finds them.
type AccessPattern struct {
	ID, What        string
	Widerow, CQL3   string   // what each model reads
	Seed, SeedTitle string   // the seed that sets it out
	Tables          []string // the CQL3 tables that serve it (the Chebotko diagram's arrows)
}

var AccessPatterns = []AccessPattern{
	{"Q1", "a user by username (sign-up, log-in, every user page)", "Username['name'] → the user's UUID, then User[uuid]", "users WHERE username = ? (keyed by name: no index)", "001", "Cassandra by example", []string{"users"}},
	{"Q2", "a user's tweets, newest first, a page at a time", "get_slice Userline[uuid] reversed, then multiget_slice Tweet", "userline WHERE username = ? ORDER BY time DESC LIMIT ?: the rows carry the tweets (query-first), one query", "001", "Cassandra by example", []string{"userline"}},
	{"Q3", "a user's home timeline, newest first", "get_slice Timeline[uuid] reversed, then multiget_slice Tweet; with pulled authors, Followers['!PULLED!'], then Friends[uuid] sliced by their UUIDs, and each one's Userline, merged", "timeline WHERE username = ? … LIMIT ?: the rows carry the tweets (query-first), one query; with pulled authors, pulled_authors WHERE line = ?, then friends WHERE username = ? AND friend IN (…), and each one's userline, merged", "002", "Python driver overview using Twissandra", []string{"timeline", "pulled_authors", "friends", "userline"}},
	{"Q4", "the public line, newest first", "get_slice Userline['!PUBLIC!']: one row every post writes (a hot row)", "public_line WHERE day = ?: one partition a day, walking back a day when a day has less than a page", "003, 002", "Example: Twissandra, in the 0.7 documentation (its PUBLIC_USERLINE_KEY row); Python driver overview using Twissandra (the public userline)", []string{"public_line", "public_days"}},
	{"Q5", "whom a user follows, and who follows a user", "get_slice Friends[uuid] / Followers[uuid]", "friends / followers WHERE username = ?", "001", "Cassandra by example", []string{"friends", "followers"}},
	{"Q6", "blog entries newest first, all or by tag", "get_slice TaggedPosts['__notag__' or tag] reversed, then multiget_slice BlogEntries, Authors", "tagged_posts WHERE tag = ?, then blog_entries, authors WHERE … IN (…)", "004", "WTF is a SuperColumn", []string{"tagged_posts", "blog_entries", "authors"}},
	{"Q7", "one blog entry with its author", "get_slice BlogEntries[slug], then Authors[author]", "blog_entries WHERE slug = ?, then authors WHERE name = ?", "004", "WTF is a SuperColumn", []string{"blog_entries", "authors"}},
	{"Q8", "an entry's comments, oldest first", "get_slice Comments[slug]: one super column per comment", "comments WHERE slug = ? ORDER BY time", "004", "WTF is a SuperColumn", []string{"comments"}},
	{"Q9", "an author's profile", "get_slice Authors[name]", "authors WHERE name = ?", "004", "WTF is a SuperColumn", []string{"authors"}},
}

// patternsOf returns the access patterns named, in that order.
func patternsOf(ids []site.AccessPattern) []AccessPattern {
	out := make([]AccessPattern, 0, len(ids))
	for _, id := range ids {
		for _, q := range AccessPatterns {
			if q.ID == string(id) {
				out = append(out, q)
			}
		}
	}
	return out
}

// queryBlocks are the footer's words on the access patterns a request served (site.Serves),
// rendered once per set of patterns (pageQueriesBlock): the handlers name a handful of sets, and
// the block was a fifth of a page's footer. A set past maxQueryBlocks is rendered each time.
type queryBlocks struct {
	m sync.Map // the IDs joined by commas -> []byte
	n atomic.Int32
}

const maxQueryBlocks = 64

// block is what the footer says of ids, nil for none.
func (qb *queryBlocks) block(ids []site.AccessPattern) []byte {
	if len(ids) == 0 {
		return nil
	}
	key := string(ids[0])
	if len(ids) > 1 {
		var k strings.Builder
		for i, id := range ids {
			if i > 0 {
				k.WriteByte(',')
			}
			k.WriteString(string(id))
		}
		key = k.String()
	}
	if b, ok := qb.m.Load(key); ok {
		return b.([]byte)
	}
	var b bytes.Buffer
	if err := pageQueriesBlock(patternsOf(ids)).Render(context.Background(), &b); err != nil {
		panic("teach: the access patterns " + key + " do not render: " + err.Error())
	}
	if qb.n.Add(1) <= maxQueryBlocks {
		qb.m.Store(key, b.Bytes())
	}
	return b.Bytes()
}
