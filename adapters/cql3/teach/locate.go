package teach

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"twissandra/adapters/cql3"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Locate implements teaching.Locator: each locus at its partition and row of the tables of the
// migrations, read now with the storage inspector's reader, its key columns marked.
func (s *Store) Locate(ctx context.Context, loci []teaching.Locus) ([]teaching.Placement, error) {
	var out []teaching.Placement
	tables := map[string]InspectTable{}
	for _, lc := range loci {
		for _, w := range cqlPlaces(lc) {
			t, ok := tables[w.table]
			if !ok {
				var err error
				if t, err = s.findTable(ctx, w.table); err != nil {
					return nil, err
				}
				tables[w.table] = t
			}
			p, err := s.place(ctx, lc, t, w)
			if err != nil {
				return nil, err
			}
			p.Part = w.part
			out = append(out, p)
		}
	}
	return out, nil
}

// cqlWhere is one row: its partition key, and its first clustering column's value ("" for a
// table without one).
type cqlWhere struct {
	table, key, clustering string
	part                   string // teaching.Placement.Part, when the record has several places
}

func cqlPlaces(lc teaching.Locus) []cqlWhere {
	switch lc.Kind {
	case teaching.LocusUser:
		return []cqlWhere{{"users", lc.User, "", ""}}
	case teaching.LocusTweet:
		return []cqlWhere{{"tweets", lc.Tweet.String(), "", ""}}
	case teaching.LocusLineEntry:
		t := cql3.LineTime(domain.LineEntry{Time: lc.Time, TweetID: lc.Tweet}).String()
		switch lc.Line.Kind {
		case domain.Userline:
			return []cqlWhere{{"userline", lc.Line.Owner, t, ""}}
		case domain.Timeline:
			return []cqlWhere{{"timeline", lc.Line.Owner, t, ""}}
		}
		return []cqlWhere{{"public_line", cql3.DayOf(lc.Time).Format(time.DateOnly), t, ""}}
	case teaching.LocusFollow:
		return []cqlWhere{{"friends", lc.User, lc.Other, teaching.FriendSide(lc)}, {"followers", lc.Other, lc.User, teaching.FollowerSide(lc)}}
	case teaching.LocusAuthor:
		return []cqlWhere{{"authors", lc.Name, "", ""}}
	case teaching.LocusEntry:
		return []cqlWhere{{"blog_entries", lc.Slug, "", ""}}
	case teaching.LocusTagRef:
		return []cqlWhere{{"tagged_posts", lc.Tag, lc.ID.String(), ""}}
	case teaching.LocusComment:
		return []cqlWhere{{"comments", lc.Slug, lc.ID.String(), ""}}
	}
	return nil
}

// addressOf is where w is in t, as the WHERE clause of a CQL statement: each value a literal of
// its column's type.
func addressOf(t InspectTable, w cqlWhere) string {
	where := []string{fmt.Sprintf("%s = %s", t.PartitionKey[0].Name, literalOf(t.PartitionKey[0], w.key))}
	if w.clustering != "" {
		where = append(where, fmt.Sprintf("%s = %s", t.Clustering[0].Name, literalOf(t.Clustering[0], w.clustering)))
	}
	return t.Name + " WHERE " + strings.Join(where, " AND ")
}

// literalOf writes v, a value of column c in its text form, as a CQL literal: in quotes for the
// types CQL writes as strings (text, a date, a timestamp), bare for the others (a uuid, a
// timeuuid, a number), which quotes would make invalid.
func literalOf(c InspectColumn, v string) string {
	switch c.Type {
	case "text", "varchar", "ascii", "date", "timestamp", "time", "inet":
		return quoteText(v)
	}
	return v
}

func (s *Store) place(ctx context.Context, lc teaching.Locus, t InspectTable, w cqlWhere) (teaching.Placement, error) {
	p := teaching.Placement{Locus: lc, Model: "cql3", Container: t.Keyspace + "." + t.Name, Key: w.key, Token: keyToken(t, w.key), Table: &t}
	q := url.Values{"table": {t.Name}, "key": {w.key}}
	if w.clustering != "" {
		q.Set("start", w.clustering)
		q.Set("finish", w.clustering)
	}
	p.Address = addressOf(t, w)
	p.Inspect = q.Encode()
	rows, err := s.ReadPartition(ctx, t.Name, []string{w.key}, PartitionSlice{Start: w.clustering, Finish: w.clustering, Count: 1})
	if err != nil {
		return p, err
	}
	if len(rows) == 0 {
		return p, nil
	}
	marks := map[string]string{}
	for _, c := range t.PartitionKey {
		marks[c.Name] = "K"
	}
	for _, c := range t.Clustering {
		marks[c.Name] = "C↑"
		if c.Desc {
			marks[c.Name] = "C↓"
		}
	}
	for _, c := range t.Static {
		marks[c.Name] = "S"
	}
	for _, c := range rows[0] {
		p.Cells = append(p.Cells, teaching.Cell{Name: c.Name, Value: c.Value, Timestamp: c.Timestamp, TTL: c.TTL, Key: marks[c.Name]})
	}
	p.Present = true
	if lc.Kind == teaching.LocusLineEntry { // the row must name this tweet
		p.Present = cellIs(p.Cells, "tweet_id", lc.Tweet.String())
	}
	return p, nil
}

func cellIs(cells []teaching.Cell, name, value string) bool {
	for _, c := range cells {
		if c.Name == name {
			return c.Value == value
		}
	}
	return false
}
