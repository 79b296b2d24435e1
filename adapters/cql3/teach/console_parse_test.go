package teach

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

// consoleCorpus are statements on a keyspace that does not exist (so that the node parses each
// and then refuses it for the keyspace, changing nothing): what the console's parser takes, the
// node must parse, and what the parser calls a syntax error, the node must too.
var consoleCorpus = []string{
	// taken
	"SELECT * FROM nowhere.t",
	"select k, v from nowhere.t where k = 1",
	"SELECT k AS key_alias, writetime(v), ttl(v) FROM nowhere.t WHERE k IN (1, 2, 3)",
	"SELECT count(*) FROM nowhere.t",
	"SELECT DISTINCT k FROM nowhere.t",
	"SELECT * FROM nowhere.t WHERE k = 1 AND c > 2 AND c <= 5 ORDER BY c DESC LIMIT 10",
	"SELECT * FROM nowhere.t WHERE token(k) > token(1) LIMIT 3",
	"SELECT * FROM nowhere.t WHERE k = 1 AND (c1, c2) > (1, 2)",
	"SELECT * FROM nowhere.t WHERE tags CONTAINS 'x' ALLOW FILTERING",
	"SELECT * FROM nowhere.t WHERE m CONTAINS KEY 'x' ALLOW FILTERING",
	"SELECT * FROM nowhere.t PER PARTITION LIMIT 2",
	"SELECT * FROM nowhere.t WHERE k = 1 GROUP BY c",
	"SELECT \"Quoted\", \"a\"\"b\" FROM nowhere.\"T\"",
	"SELECT * FROM nowhere.t WHERE id = 5f3c2a10-0000-1000-8000-000000000001",
	"SELECT * FROM nowhere.t WHERE d = -5 AND f = 1.5 AND g = -2.5e3 AND h = 0xCAFE",
	"SELECT * FROM nowhere.t WHERE f = NaN",
	"SELECT * FROM nowhere.t WHERE t = $$it's$$",
	"SELECT * FROM nowhere.t -- a comment",
	"/* before */ SELECT * FROM nowhere.t",
	"SELECT key, type, table FROM nowhere.t",
	"SELECT text, int, list FROM nowhere.t",
	"INSERT INTO nowhere.t (k, v) VALUES (1, 'a')",
	"INSERT INTO nowhere.t (k, v) VALUES (1, 'a') IF NOT EXISTS",
	"INSERT INTO nowhere.t (k, v) VALUES (1, 'a') USING TTL 60 AND TIMESTAMP 123",
	"INSERT INTO nowhere.t (k, l, s, m, tu) VALUES (1, ['a', 'b'], {1, 2}, {'a': 1, 'b': 2}, (1, 'x'))",
	"INSERT INTO nowhere.t (k, e) VALUES (1, {})",
	"INSERT INTO nowhere.t (k, id, at) VALUES (now(), uuid(), toTimestamp(now()))",
	"INSERT INTO nowhere.t (k, b) VALUES (1, true)",
	"INSERT INTO nowhere.t (k, v) VALUES (1, null)",
	"UPDATE nowhere.t SET v = 'b' WHERE k = 1",
	"UPDATE nowhere.t USING TTL 10 SET v = 'b', w = 2 WHERE k = 1 IF EXISTS",
	"UPDATE nowhere.t SET n = n + 1 WHERE k = 1",
	"UPDATE nowhere.t SET n = n - 1 WHERE k = 1",
	"UPDATE nowhere.t SET l = ['z'] + l WHERE k = 1",
	"UPDATE nowhere.t SET m['a'] = 3 WHERE k = 1",
	"UPDATE nowhere.t SET s += {3} WHERE k = 1",
	"UPDATE nowhere.t SET v = 'c' WHERE k = 1 IF v = 'b'",
	"UPDATE nowhere.t SET v = 'c' WHERE k = 1 IF v != 'b' AND w IN (1, 2)",
	"DELETE FROM nowhere.t WHERE k = 1",
	"DELETE v, m['a'] FROM nowhere.t USING TIMESTAMP 5 WHERE k = 1 IF EXISTS",
	"DELETE FROM nowhere.t WHERE k = 1 AND c >= 2",
	"BEGIN BATCH INSERT INTO nowhere.t (k) VALUES (1); UPDATE nowhere.t SET v = 'x' WHERE k = 2; APPLY BATCH",
	"BEGIN UNLOGGED BATCH USING TIMESTAMP 3 DELETE FROM nowhere.t WHERE k = 1 APPLY BATCH",
	"CREATE TABLE nowhere.t (k int PRIMARY KEY, v text)",
	"CREATE TABLE IF NOT EXISTS nowhere.t (k int, c timeuuid, v text static, PRIMARY KEY ((k), c)) WITH CLUSTERING ORDER BY (c DESC) AND default_time_to_live = 60",
	"CREATE TABLE nowhere.t (a int, b int, c int, d map<text, frozen<list<int>>>, e tuple<int, text>, PRIMARY KEY ((a, b), c)) WITH comment = 'x'",
	"CREATE TABLE nowhere.t (k int PRIMARY KEY, v text,)",
	"CREATE COLUMNFAMILY nowhere.t (k int PRIMARY KEY)",
	"DROP TABLE nowhere.t",
	"DROP TABLE IF EXISTS nowhere.t",
	"TRUNCATE nowhere.t",
	"TRUNCATE TABLE nowhere.t",
	"CREATE INDEX ON nowhere.t (v)",
	"CREATE INDEX IF NOT EXISTS t_v ON nowhere.t (KEYS(m)) USING 'sai'",
	"DROP INDEX IF EXISTS nowhere.t_v_idx",
	"SELECT * FROM nowhere.t; SELECT * FROM nowhere.u;",
	"ALTER TABLE nowhere.t ADD v text",
	"ALTER TABLE nowhere.t ADD (v text, w int static)",
	"ALTER TABLE nowhere.t DROP v",
	"ALTER TABLE nowhere.t DROP (v, w)",
	"ALTER TABLE nowhere.t WITH comment = 'x' AND default_time_to_live = 5",
	// syntax errors
	"SELECT * FORM nowhere.t",
	"SELECT FROM nowhere.t",
	"SELECT * FROM nowhere.t WHERE",
	"SELECT * FROM nowhere.t WHERE k = ",
	"SELECT * FROM nowhere.t LIMIT",
	"SELECT * FROM nowhere.t LIMIT 'a'",
	"SELECT * FROM nowhere.t ALLOW",
	"SELECT select FROM nowhere.t",
	"SELECT k FROM nowhere.from",
	"SELECT * FROM nowhere.t WHERE k = 'unterminated",
	"SELECT * FROM nowhere.t WHERE k = 1 ORDER c",
	"SELECT * FROM nowhere.t WHERE k = 1 AND",
	"SELECT * FROM nowhere.t WHERE k == 1",
	"INSERT INTO nowhere.t VALUES (1)",
	"INSERT INTO nowhere.t (k, v) VALUES (1, 'a'",
	"INSERT INTO nowhere.t (k, v) VALUE (1, 'a')",
	"INSERT INTO nowhere.t (k) VALUES (1) USING TTL",
	"INSERT INTO nowhere.t (k) VALUES ([1, 2)",
	"INSERT INTO nowhere.t (k) VALUES ({1: 2, 3})",
	"UPDATE nowhere.t v = 1 WHERE k = 1",
	"UPDATE nowhere.t SET v = 1",
	"UPDATE nowhere.t SET WHERE k = 1",
	"DELETE nowhere.t WHERE k = 1",
	"DELETE FROM nowhere.t",
	"BEGIN BATCH INSERT INTO nowhere.t (k) VALUES (1)",
	"BEGIN BATCH APPLY",
	"CREATE TABLE nowhere.t (k int PRIMARY KEY v text)",
	"CREATE TABLE nowhere.t k int PRIMARY KEY",
	"CREATE TABLE nowhere.t (k int, PRIMARY KEY ())",
	"CREATE TABLE nowhere.t (k int PRIMARY KEY) WITH CLUSTERING ORDER (k ASC)",
	"CREATE TABLE nowhere.t (k list<> PRIMARY KEY)",
	"DROP TABLE",
	"ALTER TABLE nowhere.t ADD",
	"ALTER TABLE nowhere.t ADD v",
	"ALTER TABLE nowhere.t DROP",
	"ALTER TABLE nowhere.t",
	"TRUNCATE",
	"SELECT * FROM nowhere.t WHERE k = 1 1",
	"SELECT * FROM nowhere.t WHERE k = 12ab",
	"SELECT * FROM nowhere.t WHERE k = 0xZZ",
	"SELECT * FROM nowhere.t WHERE k = @",
	"SELECT * FROM nowhere..t",
	"SELECT * FROM \"\"",
	"SELECT * FROM nowhere.t /* unterminated",
}

// TestConsoleParserAgreesWithTheNode runs the corpus on the node: each statement refers to a
// keyspace that does not exist, so the node parses it and refuses it for that, or for its
// syntax, and makes nothing.
func TestConsoleParserAgreesWithTheNode(t *testing.T) {
	s := sharedStore(t)
	sess, err := s.sess()
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t, time.Minute)
	taken, errs := 0, 0
	for _, line := range consoleCorpus {
		_, perr := parseCQL(line)
		var se *cqlSyntaxError
		parserSyntax := errors.As(perr, &se)
		var na *notAllowedError
		if errors.As(perr, &na) {
			t.Errorf("%s: the corpus holds what the console allows; it refused: %v", line, na)
			continue
		}
		// The node takes one statement at a time: a line's statements one by one.
		nodeSyntax := false
		var nodeMsg string
		for _, one := range nodeStatements(line) {
			err := sess.Session.Query("/* corpus */ " + one).WithContext(ctx).Exec()
			var re gocql.RequestError
			if errors.As(err, &re) && re.Code() == gocql.ErrCodeSyntax {
				nodeSyntax, nodeMsg = true, re.Message()
			}
		}
		if parserSyntax != nodeSyntax {
			t.Errorf("%s: parser syntax error %v (%v), node syntax error %v (%s)", line, parserSyntax, perr, nodeSyntax, nodeMsg)
		}
		if parserSyntax {
			errs++
		} else {
			taken++
		}
	}
	if taken < 40 || errs < 30 {
		t.Errorf("the corpus has %d statements taken and %d syntax errors: too few of either to hold the parser", taken, errs)
	}
}

// nodeStatements splits a corpus line into the statements a node takes one at a time (only
// the corpus's lines of several end a statement with "; " outside a BATCH).
func nodeStatements(line string) []string {
	if strings.HasPrefix(line, "BEGIN") {
		return []string{line}
	}
	var out []string
	for _, p := range strings.Split(line, "; ") {
		if p = strings.TrimSuffix(strings.TrimSpace(p), ";"); p != "" {
			out = append(out, p)
		}
	}
	return out
}
