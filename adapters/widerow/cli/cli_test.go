package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"twissandra/adapters/widerow/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func newShell(t *testing.T) (*Shell, *bytes.Buffer, *engine.Node) {
	t.Helper()
	node, err := engine.Open(engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.Close() })
	var out bytes.Buffer
	clock := time.Date(2010, 5, 12, 0, 0, 0, 0, time.UTC)
	return &Shell{Node: node, Out: &out, Now: func() time.Time { return clock }}, &out, node
}

// TestGolden replays each testdata/*.cli script and compares the output with its .golden file.
// sorting.cli is the example of "WTF is a SuperColumn": 3, 123, 976, 832416 sort as numbers
// under LongType and as text (123, 3, 832416, 976) under UTF8Type.
func TestGolden(t *testing.T) {
	t.Parallel()
	scripts, err := filepath.Glob("testdata/*.cli")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, script := range scripts {
		name := strings.TrimSuffix(filepath.Base(script), ".cli")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(script)
			if err != nil {
				t.Fatal(err)
			}
			sh, out, _ := newShell(t)
			for _, line := range strings.Split(string(src), "\n") {
				if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "--") {
					continue
				}
				out.WriteString("> " + line + "\n")
				if err := sh.Run(context.Background(), line); err != nil {
					out.WriteString(OneLine(err) + "\n")
				}
			}
			golden := strings.TrimSuffix(script, ".cli") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got := out.String(); got != string(want) {
				t.Errorf("output differs from %s (go test -update rewrites it):\n%s", golden, got)
			}
		})
	}
}

func TestSortingOrders(t *testing.T) {
	t.Parallel()
	sh, out, _ := newShell(t)
	ctx := context.Background()
	for _, n := range []string{"123", "832416", "3", "976"} {
		if err := sh.Run(ctx, "set Scratch.Longs['k']["+n+"] = 'v'; set Scratch.UTF8s['k']['"+n+"'] = 'v'"); err != nil {
			t.Fatal(err)
		}
	}
	order := func(stmt string, names ...string) {
		out.Reset()
		if err := sh.Run(ctx, stmt); err != nil {
			t.Fatal(err)
		}
		last := -1
		for _, n := range names {
			i := strings.Index(out.String(), "\n        "+n+" : ")
			if i < 0 || i < last {
				t.Fatalf("%s: %s not after the previous name in\n%s", stmt, n, out.String())
			}
			last = i
		}
	}
	order("get Scratch.Longs['k']", "3", "123", "976", "832416")
	order(`get Scratch.UTF8s['k']`, `"123"`, `"3"`, `"832416"`, `"976"`)
}

// TestErrors checks that each bad statement fails with one line and writes nothing.
func TestErrors(t *testing.T) {
	t.Parallel()
	cases := []struct{ stmt, want string }{
		{"get Nope.User['x']", `unknown keyspace "Nope"`},
		{"get Scratch.Nope['x']", `unknown column family "Nope"`},
		{"set Scratch.Longs['k'] = 'v'", "set needs a column"},
		{"set Scratch.Longs['k'][long('abc')] = 'v'", `"abc" is not a 64-bit integer`},
		{"set Scratch.Longs['k']['abc'] = 'v'", "is not a long"},
		{"set Scratch.Longs['k'][bytes('abcdef')] = 'v'", "A long is exactly 8 bytes"},
		{"set Scratch.Longs['k'][bytes('abc')] = 'v'", "hex digits"},
		{"set Scratch.Longs['k'][nope(1)] = 'v'", "unknown type function nope()"},
		{"set Scratch.TimeUUIDs['k'][timeuuid('6ba7b810-9dad-41d1-80b4-00c04fd430c8')] = 'v'", "must be version 1"},
		{"set Scratch.TimeUUIDs['k'][bytes('0102')] = 'v'", "UUIDs must be exactly 16 bytes"},
		{"set Scratch.UTF8s['k'][bytes('ff')] = 'v'", "invalid UTF8"},
		{"set Scratch.Longs['k'][1][2] = 'v'", "standard column family"},
		{"set Scratch.Longs['k'][1] = ", "want a quoted string"},
		{"set Scratch.Longs['k][1] = 'v'", "unterminated string"},
		{"get Scratch.Longs", "want ['row key']"},
		{"get Scratch.Longs['k'] start 5 finish 1", "range finish must come after start"},
		{"set Scratch.Longs[long(1)][1] = 'v'", "row keys are text"},
		{"frobnicate", "unknown command"},
		{"get Scratch.Longs['k'] limit x", "want a number after limit"},
		{"set Scratch.AddressBook['k']['a'] = 'v'", "needs a super column and a column"},
	}
	for _, c := range cases {
		t.Run(c.stmt, func(t *testing.T) {
			t.Parallel()
			sh, out, node := newShell(t)
			err := sh.Run(context.Background(), c.stmt)
			if err == nil {
				t.Fatalf("no error; output %q", out.String())
			}
			line := OneLine(err)
			if strings.Contains(line, "\n") || !strings.Contains(line, c.want) {
				t.Errorf("error %q, want one line containing %q", line, c.want)
			}
			for _, cf := range []string{"Longs", "UTF8s", "TimeUUIDs", "AddressBook"} {
				rows, err := node.GetRangeSlices(context.Background(), "Scratch", engine.ColumnParent{ColumnFamily: cf},
					engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: 10}}, engine.KeyRange{Count: 10}, engine.ONE)
				if err != nil || len(rows) != 0 {
					t.Errorf("%s holds %v after a failed statement (err %v)", cf, rows, err)
				}
			}
		})
	}
}

func TestParseErrorRunsNothing(t *testing.T) {
	t.Parallel()
	sh, _, node := newShell(t)
	err := sh.Run(context.Background(), "set Scratch.Longs['k'][1] = 'v'; get ((")
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("err %v, want a syntax error", err)
	}
	if n, err := node.GetCount(context.Background(), "Scratch", "k", engine.ColumnParent{ColumnFamily: "Longs"}, engine.ONE); err != nil || n != 0 {
		t.Errorf("count %d (%v): the script ran in part", n, err)
	}
}

func TestQuit(t *testing.T) {
	t.Parallel()
	sh, out, _ := newShell(t)
	if err := sh.Exec(context.Background(), "quit; show keyspaces"); !errors.Is(err, ErrQuit) {
		t.Fatalf("err %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("ran past quit: %q", out.String())
	}
}

// FuzzParse: no input makes the lexer or parser panic, and what parses runs without panicking.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"get Scratch.Longs['k'] [start 1 finish 2 reversed limit 3]",
		"set Scratch.AddressBook['a']['b']['c'] = utf8('x')",
		"set Scratch.Bytes['k'][bytes('cafe')] = long(-5)",
		"list Scratch.UTF8s limit 3", "describe keyspace Twissandra", "del X.Y['k']['a']['b']['c']",
		"'unterminated", "get a.b[", "count Scratch.Longs['k']; quit",
		"set Scratch.TimeUUIDs['k'][timeuuid()] = lexicaluuid()",
	} {
		f.Add(s)
	}
	node, err := engine.Open(engine.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = node.Close() })
	f.Fuzz(func(t *testing.T, src string) {
		stmts, err := Parse(src)
		if err != nil {
			return
		}
		var out bytes.Buffer
		sh := &Shell{Node: node, Out: &out}
		for _, st := range stmts {
			if l, ok := st.(List); ok && l.Limit > 100 {
				continue
			}
			_ = sh.run(context.Background(), st)
		}
	})
}

// A caller places a statement's keyspace (on another node, under another name), sees and may
// refuse each write resolved to its cells, and bounds what one read returns.
func TestPlacesWritesAndMaxCount(t *testing.T) {
	t.Parallel()
	sh, out, node := newShell(t)
	var writes []Write
	sh.Places = func(ks string) (Place, error) {
		if ks != "Mine" {
			return Place{}, &StatementError{Msg: "not here: " + ks}
		}
		return Place{Node: node, Keyspace: "Scratch"}, nil
	}
	sh.Writes = func(w Write, apply func() error) error {
		if string(w.Value) == "no" {
			return errors.New("refused")
		}
		writes = append(writes, w)
		return apply()
	}
	sh.MaxCount = 2
	ctx := context.Background()
	if err := sh.Run(ctx, "set Mine.Longs['r'][1] = 'a'; set Mine.Longs['r'][2] = 'b'; set Mine.Longs['r'][3] = 'c'; del Mine.Longs['r'][3]"); err != nil {
		t.Fatal(err)
	}
	if len(writes) != 4 || writes[0].Keyspace != "Mine" || writes[0].Place.Keyspace != "Scratch" || writes[0].CF.Name != "Longs" ||
		len(writes[0].Column) != 8 || writes[3].Delete != true || writes[3].Value != nil {
		t.Fatalf("writes %+v", writes)
	}
	if err := sh.Run(ctx, "set Mine.Longs['r'][4] = 'no'"); err == nil || err.Error() != "refused" {
		t.Fatalf("a refused write: %v", err)
	}
	if n, _ := node.GetCount(ctx, "Scratch", "r", engine.ColumnParent{ColumnFamily: "Longs"}, engine.ONE); n != 2 {
		t.Errorf("Scratch.Longs['r'] holds %d columns, want 2", n)
	}
	out.Reset()
	if err := sh.Run(ctx, "describe keyspace Mine; get Mine.Longs['r']"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Keyspace: Mine (") || !strings.Contains(out.String(), "Returned 2 columns.") {
		t.Errorf("output:\n%s", out.String())
	}
	var se *StatementError
	if err := sh.Run(ctx, "get Mine.Longs['r'] limit 3"); !errors.As(err, &se) || !strings.Contains(err.Error(), "at most 2") {
		t.Errorf("a limit past MaxCount: %v", err)
	}
	if err := sh.Run(ctx, "get Scratch.Longs['r']"); !errors.As(err, &se) || err.Error() != "not here: Scratch" {
		t.Errorf("a keyspace Places refuses: %v", err)
	}
	out.Reset()
	if err := sh.Run(ctx, "list Mine.Longs"); err != nil || !strings.Contains(out.String(), "1 rows") {
		t.Errorf("list within MaxCount: %v\n%s", err, out.String())
	}
}
