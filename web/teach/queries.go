package teach

import (
	"bytes"
	"context"
	"sync"
)

// The access patterns of the seeds' application, numbered as the models page lists them: each
// model lays its rows out so that every one is a slice of one row (a partition), or a multiget
// of rows known by key. A page says which it serves, and where each model finds it.
type accessPattern struct {
	ID, What        string
	Widerow, CQL3   string   // what each model reads
	Seed, SeedTitle string   // the seed that sets it out
	Tables          []string // the CQL3 tables that serve it (the Chebotko diagram's arrows)
}

var accessPatterns = []accessPattern{
	{"Q1", "a user by username (sign-up, log-in, every user page)", "Username['name'] → the user's UUID, then User[uuid]", "users WHERE username = ? (keyed by name: no index)", "001", "Cassandra by example", []string{"users"}},
	{"Q2", "a user's tweets, newest first, a page at a time", "get_slice Userline[uuid] reversed, then multiget_slice Tweet", "userline WHERE username = ? ORDER BY time DESC LIMIT ?: the rows carry the tweets (query-first), one query", "001", "Cassandra by example", []string{"userline"}},
	{"Q3", "a user's home timeline, newest first", "get_slice Timeline[uuid] reversed, then multiget_slice Tweet", "timeline WHERE username = ? … LIMIT ?: the rows carry the tweets (query-first), one query", "002", "Python driver overview using Twissandra", []string{"timeline"}},
	{"Q4", "the public line, newest first", "get_slice Userline['!PUBLIC!']: one row every post writes (a hot row)", "public_line WHERE day = ?: one partition a day, walking back a day when a day has less than a page", "001", "Cassandra by example", []string{"public_line", "public_days"}},
	{"Q5", "whom a user follows, and who follows a user", "get_slice Friends[uuid] / Followers[uuid]", "friends / followers WHERE username = ?", "001", "Cassandra by example", []string{"friends", "followers"}},
	{"Q6", "blog entries newest first, all or by tag", "get_slice TaggedPosts['__notag__' or tag] reversed, then multiget_slice BlogEntries, Authors", "tagged_posts WHERE tag = ?, then blog_entries, authors WHERE … IN (…)", "004", "WTF is a SuperColumn", []string{"tagged_posts", "blog_entries", "authors"}},
	{"Q7", "one blog entry with its author", "get_slice BlogEntries[slug], then Authors[author]", "blog_entries WHERE slug = ?, then authors WHERE name = ?", "004", "WTF is a SuperColumn", []string{"blog_entries", "authors"}},
	{"Q8", "an entry's comments, oldest first", "get_slice Comments[slug]: one super column per comment", "comments WHERE slug = ? ORDER BY time", "004", "WTF is a SuperColumn", []string{"comments"}},
	{"Q9", "an author's profile", "get_slice Authors[name]", "authors WHERE name = ?", "004", "WTF is a SuperColumn", []string{"authors"}},
}

// pageQueries are the access patterns each page serves, by route.
var pageQueries = map[string][]string{
	"/":                          {"Q3", "Q4", "Q1"},
	"/public":                    {"Q4"},
	"/users/:username":           {"Q1", "Q2", "Q5"},
	"/users/:username/friends":   {"Q1", "Q5"},
	"/users/:username/followers": {"Q1", "Q5"},
	"/blog":                      {"Q6"},
	"/blog/tags/:tag":            {"Q6"},
	"/blog/entries/:slug":        {"Q7", "Q8"},
	"/blog/authors/:name":        {"Q9", "Q6"},
}

// queriesOf returns the access patterns of route's page.
func queriesOf(route string) []accessPattern {
	ids := pageQueries[route]
	out := make([]accessPattern, 0, len(ids))
	for _, id := range ids {
		for _, q := range accessPatterns {
			if q.ID == id {
				out = append(out, q)
			}
		}
	}
	return out
}

// queryBlocks are the footer's words on the access patterns of each route's page, rendered
// once (pageQueriesBlock): they are the same for every request of the route, and were a fifth
// of a page's footer.
var queryBlocks = sync.OnceValue(func() map[string][]byte {
	out := make(map[string][]byte, len(pageQueries))
	for route := range pageQueries {
		var b bytes.Buffer
		if err := pageQueriesBlock(queriesOf(route)).Render(context.Background(), &b); err != nil {
			panic("teach: the access patterns of " + route + " do not render: " + err.Error())
		}
		out[route] = b.Bytes()
	}
	return out
})
