package teachingtest

import (
	"errors"
	"strings"
	"testing"

	"twissandra/domain"
	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
)

// RunQueryLab checks a teaching.QueryLab. A lab that is not available (a store without CQL)
// must refuse every valid choice with ErrNoQueryLab, saying why, and bad choices with
// domain.ErrInvalid. An available one must report what Cassandra makes of each pattern's query
// under a few keys: one partition for the pattern's own key, several for a key with a day
// bucket, a scan for a key the query cannot name, the demand for ALLOW FILTERING (then the
// filtered query's rows) for a key that leaves the given column outside the partition key, and
// a refusal for an order the key cannot give; a second trial of a key reuses its table.
func RunQueryLab(t *testing.T, lab teaching.QueryLab, available bool) {
	c := porttest.Context(t)
	session := porttest.Name("session")
	t.Run("BadChoicesAreInvalid", func(t *testing.T) {
		for _, k := range []teaching.KeyChoice{
			{Pattern: "nope", Partition: []string{"username"}},
			{Pattern: "userline"},
			{Pattern: "userline", Partition: []string{"nope"}},
			{Pattern: "userline", Partition: []string{"username"}, Clustering: []teaching.ClusteringChoice{{Column: "username"}}},
			{Pattern: "userline", Partition: []string{"username"}, Clustering: []teaching.ClusteringChoice{{Column: "day"}, {Column: "time"}, {Column: "body"}}},
		} {
			if _, err := lab.TryKey(c, session, k); !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("%+v: %v, want domain.ErrInvalid", k, err)
			}
		}
	})
	if !available {
		t.Run("DesignSaysWhyNot", func(t *testing.T) {
			d, err := teaching.ParseDesign("userline", teaching.DesignText(teaching.KeyPatterns[0], teaching.KeyPatterns[0].Answer()))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := lab.TryDesign(c, session, d); !errors.Is(err, teaching.ErrNoQueryLab) {
				t.Fatalf("%v, want ErrNoQueryLab", err)
			}
		})
		t.Run("SaysWhyNot", func(t *testing.T) {
			_, err := lab.TryKey(c, session, teaching.KeyPatterns[0].Answer())
			if !errors.Is(err, teaching.ErrNoQueryLab) || len(err.Error()) < len(teaching.ErrNoQueryLab.Error())+40 {
				t.Fatalf("%v, want ErrNoQueryLab and why", err)
			}
		})
		return
	}
	desc := func(col string) []teaching.ClusteringChoice {
		return []teaching.ClusteringChoice{{Column: col, Desc: true}}
	}
	for _, tc := range []struct {
		name               string
		k                  teaching.KeyChoice
		outcome            teaching.Outcome
		partitions, rows   int
		message, statement string
	}{
		{"TheAnswerReadsOnePartition", teaching.KeyChoice{Pattern: "userline", Partition: []string{"username"}, Clustering: desc("time")},
			teaching.OnePartition, 1, 6, "", "WHERE username = 'ann' ORDER BY time DESC LIMIT 10"},
		{"AscendingIsReadBackwards", teaching.KeyChoice{Pattern: "userline", Partition: []string{"username"}, Clustering: []teaching.ClusteringChoice{{Column: "time"}}},
			teaching.OnePartition, 1, 6, "", "ORDER BY time DESC"},
		{"DayBucketsReadThreePartitions", teaching.KeyChoice{Pattern: "userline", Partition: []string{"username", "day"}, Clustering: desc("time")},
			teaching.ManyPartitions, 3, 6, "", "AND day IN ("},
		{"AFilteredUserNeedsAllowFiltering", teaching.KeyChoice{Pattern: "followers", Partition: []string{"follower"}, Clustering: []teaching.ClusteringChoice{{Column: "username"}}},
			teaching.NeedsFiltering, 6, 3, "ALLOW FILTERING", "LIMIT 10 ALLOW FILTERING"},
		{"AnOrderOffTheKeyIsRefused", teaching.KeyChoice{Pattern: "userline", Partition: []string{"username"}, Clustering: []teaching.ClusteringChoice{{Column: "tweet_id"}}},
			teaching.Refused, 0, 0, "rder by", "ORDER BY time DESC"},
		{"OneConstantIsOneHotPartition", teaching.KeyChoice{Pattern: "public", Partition: []string{"line"}, Clustering: desc("time")},
			teaching.OnePartition, 1, 10, "", "WHERE line = 'public' ORDER BY time DESC"},
		{"AUserByName", teaching.KeyChoice{Pattern: "user", Partition: []string{"username"}},
			teaching.OnePartition, 1, 1, "", "WHERE username = 'ann' LIMIT 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := lab.TryKey(c, porttest.Name("session"), tc.k)
			if err != nil {
				t.Fatal(err)
			}
			if got.Outcome != tc.outcome || got.Partitions != tc.partitions || got.Rows != tc.rows || !strings.Contains(got.Message, tc.message) {
				t.Fatalf("%s: %s on %d of %d partitions, %d rows, %q; want %s on %d, %d rows, %q", tc.k, got.Outcome, got.Partitions, got.Held,
					got.Rows, got.Message, tc.outcome, tc.partitions, tc.rows, tc.message)
			}
			if got.Table == "" || got.Keyspace == "" || len(got.Statements) == 0 {
				t.Fatalf("no table or statements: %+v", got)
			}
			last := got.Statements[len(got.Statements)-1]
			if !strings.Contains(last.CQL, tc.statement) || last.Took <= 0 {
				t.Errorf("the last statement %+v lacks %q", last, tc.statement)
			}
			again, err := lab.TryKey(c, porttest.Name("session"), tc.k)
			if err != nil || again.Created || again.Table != got.Table || again.Outcome != got.Outcome || again.Rows != got.Rows {
				t.Errorf("a second trial: %+v, %v; want the same table, reused", again, err)
			}
		})
	}
	for _, tc := range []struct {
		name, pattern, design string
		outcome               teaching.Outcome
		partitions, rows      int
		inOrder               bool
	}{
		{"ARightDesign", "hashtag", "CREATE TABLE t (tag text, day date, time timeuuid, author text, body text, PRIMARY KEY (tag, time)) WITH CLUSTERING ORDER BY (time DESC); SELECT * FROM t WHERE tag = ? LIMIT 10",
			teaching.OnePartition, 1, 6, true},
		{"AscendingComesInTheWrongOrder", "mentions", "CREATE TABLE t (mentioned text, time timeuuid, tweet_id timeuuid, author text, body text, PRIMARY KEY (mentioned, time)); SELECT * FROM t WHERE mentioned = 'ann'",
			teaching.OnePartition, 1, 6, false},
		{"ANameOffThePartitionKeyNeedsFiltering", "mentions", "CREATE TABLE t (mentioned text, time timeuuid, tweet_id timeuuid, author text, body text, PRIMARY KEY (author, time)); SELECT * FROM t WHERE mentioned = ?",
			teaching.NeedsFiltering, 3, 6, false},
		{"NoRestrictionReadsEveryPartition", "followers", "CREATE TABLE t (username text, follower text, since timestamp, PRIMARY KEY (username, follower)); SELECT * FROM t",
			teaching.EveryPartition, 3, 6, true},
		{"DayBucketsListedWithIn", "public", "CREATE TABLE t (line text, day date, time timeuuid, author text, body text, PRIMARY KEY (day, time)) WITH CLUSTERING ORDER BY (time DESC); SELECT * FROM t WHERE day IN (?, ?, ?) ORDER BY time DESC",
			teaching.ManyPartitions, 3, 10, true},
	} {
		t.Run("Design"+tc.name, func(t *testing.T) {
			d, err := teaching.ParseDesign(tc.pattern, tc.design)
			if err != nil {
				t.Fatal(err)
			}
			got, err := lab.TryDesign(c, porttest.Name("session"), d)
			if err != nil {
				t.Fatal(err)
			}
			if got.Outcome != tc.outcome || got.Partitions != tc.partitions || got.Rows != tc.rows || got.InOrder != tc.inOrder {
				t.Fatalf("%s on %d partitions, %d rows, in order %v (%q); want %s, %d, %d, %v", got.Outcome, got.Partitions, got.Rows, got.InOrder, got.Message,
					tc.outcome, tc.partitions, tc.rows, tc.inOrder)
			}
			if want, ok := teaching.LookupPattern(tc.pattern); ok && got.Table != "" && got.Choice.Pattern != want.ID {
				t.Errorf("the trial's pattern %q", got.Choice.Pattern)
			}
		})
	}
}
