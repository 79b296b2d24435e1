package frame

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// What a learner typed splits into statements as each console's own shell reads it: a line
// each on cli, on cql up to a line that ends with ';' (several lines making one statement),
// empty lines and comments left out.
func TestSplitStatements(t *testing.T) {
	for _, c := range []struct {
		lang, text string
		want       []string
	}{
		{"cli", "set A.B['k']['c'] = 'v'\n\n  get A.B['k']  \n-- a comment\n", []string{"set A.B['k']['c'] = 'v'", "get A.B['k']"}},
		{"cli", "get A.B['k'];\r\ncount A.B['k']", []string{"get A.B['k'];", "count A.B['k']"}},
		{"cql", "CREATE TABLE t (\n  k int PRIMARY KEY,\n  v text\n);\nINSERT INTO t (k, v) VALUES (1, 'a');\n// done\nSELECT * FROM t", []string{
			"CREATE TABLE t (\nk int PRIMARY KEY,\nv text\n);", "INSERT INTO t (k, v) VALUES (1, 'a');", "SELECT * FROM t"}},
		{"cql", "  \n# nothing\n", nil},
	} {
		if got := SplitStatements(c.lang, c.text); !slices.Equal(got, c.want) {
			t.Errorf("%s %q: %q, want %q", c.lang, c.text, got, c.want)
		}
	}
}

// The console memory keeps a learner's newest runs, newest first, a statement's output cut at
// its bound, and forgets the learner idle longest past its count of learners.
func TestConsoleMemoryBounds(t *testing.T) {
	var m consoleMemory
	for i := range consoleEntriesKept + 3 {
		m.add("ann", ConsoleEntry{Input: strconv.Itoa(i), At: time.Now(), Steps: []ConsoleStep{{Output: strings.Repeat("x", consoleOutputKept+10)}}})
	}
	es := m.entries("ann")
	if len(es) != consoleEntriesKept || es[0].Input != strconv.Itoa(consoleEntriesKept+2) {
		t.Fatalf("%d runs kept, newest %q", len(es), es[0].Input)
	}
	if out := es[0].Steps[0].Output; len(out) > consoleOutputKept+100 || !strings.Contains(out, "cut:") {
		t.Errorf("an output past the bound is kept whole (%d bytes)", len(out))
	}
	m.addOnce("ann", es[0]) // a run this server holds already is not added twice
	if again := m.entries("ann"); again[1].Input == es[0].Input {
		t.Errorf("a run taken from the ledger was added twice")
	}
	for i := range consoleLearnersKept {
		m.add("browser:"+strconv.Itoa(i), ConsoleEntry{At: time.Now()})
	}
	if len(m.entries("ann")) != 0 || len(m.entries("browser:0")) == 0 {
		t.Errorf("the learner idle longest is not the one forgotten")
	}
}
