package engine

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const killChildEnv = "WIDEROW_ENGINE_KILL_CHILD_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(killChildEnv); dir != "" {
		os.Exit(killChild(dir))
	}
	os.Exit(m.Run())
}

// killChild writes column i for i = 0, 1, ... in batch mode and prints
// "ack i" after each write returns, until the parent kills it (or a
// deadline passes, so an orphan never runs forever).
func killChild(dir string) int {
	n, err := Open(Options{Dir: dir, CommitLogSync: SyncBatch})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	out := bufio.NewWriter(os.Stdout)
	deadline := time.Now().Add(30 * time.Second)
	for i := int64(0); time.Now().Before(deadline); i++ {
		if err := n.Insert(bg, "Twissandra", "timeline", ColumnPath{ColumnFamily: "Timeline", Column: long(i)}, []byte("tweet"), i, ONE); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fmt.Fprintf(out, "ack %d\n", i)
		out.Flush()
	}
	return 0
}

func TestKill9KeepsAcknowledgedWrites(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+dir)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	var acked []int64
	killed := false
	for sc.Scan() {
		v, err := strconv.ParseInt(strings.TrimPrefix(sc.Text(), "ack "), 10, 64)
		if err != nil {
			t.Fatalf("child said %q", sc.Text())
		}
		acked = append(acked, v)
		if len(acked) == 200 && !killed {
			if err := cmd.Process.Kill(); err != nil { // SIGKILL
				t.Fatal(err)
			}
			killed = true
		}
	}
	err = cmd.Wait()
	if !killed || err == nil {
		t.Fatalf("child was not killed mid-stream (killed=%v, wait=%v, acks=%d)", killed, err, len(acked))
	}
	n, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatalf("reopen after kill -9: %v", err)
	}
	defer n.Close()
	for _, v := range acked {
		if _, err := n.Get(bg, "Twissandra", "timeline", ColumnPath{ColumnFamily: "Timeline", Column: long(v)}, ONE); err != nil {
			t.Fatalf("acknowledged write %d lost: %v", v, err)
		}
	}
	t.Logf("%d acknowledged writes survived", len(acked))
}

func TestRestart(t *testing.T) {
	for _, mode := range []SyncMode{SyncBatch, SyncPeriodic} {
		t.Run(string(mode), func(t *testing.T) {
			dir := t.TempDir()
			n, err := Open(Options{Dir: dir, CommitLogSync: mode, CommitLogSyncPeriod: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			fillAtoE(t, n, "r")
			insert(t, n, "BloggyAppy", "Comments", "p", uuidA, []byte("body"), "x", 1)
			if err := n.Remove(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes", Column: []byte("c")}, 1, ONE); err != nil {
				t.Fatal(err)
			}
			insert(t, n, "Scratch", "Bytes", "r", nil, []byte("b"), "newer", 2)
			if err := n.Close(); err != nil {
				t.Fatal(err)
			}
			if err := n.Close(); err != nil {
				t.Fatalf("second Close: %v", err)
			}
			for round := range 2 {
				n, err = Open(Options{Dir: dir, CommitLogSync: mode})
				if err != nil {
					t.Fatalf("reopen: %v", err)
				}
				if got := sliceNames(t, n, "Scratch", "Bytes", "r", nil, SliceRange{Count: 10}); !equalStrings(got, []string{"a", "b", "d", "e"}) {
					t.Fatalf("round %d after restart: %q", round, got)
				}
				c, err := n.Get(bg, "Scratch", "r", ColumnPath{ColumnFamily: "Bytes", Column: []byte("b")}, ONE)
				if err != nil || string(c.Column.Value) != "newer" {
					t.Fatalf("reconciled value: %+v %v", c, err)
				}
				if _, err := n.Get(bg, "BloggyAppy", "p", ColumnPath{ColumnFamily: "Comments", SuperColumn: uuidA}, ONE); err != nil {
					t.Fatal(err)
				}
				// Compaction merges versions and keeps the same answers.
				if err := n.Compact(bg); err != nil {
					t.Fatal(err)
				}
				if err := n.Close(); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestForeignDirRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(Options{Dir: dir})
	if !errors.Is(err, ErrForeignDir) {
		t.Fatalf("got %v, want ErrForeignDir", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("Open touched a foreign directory: %v", entries)
	}
}

func TestLockedDirRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	n, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Options{Dir: dir}); !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: got %v, want ErrLocked", err)
	}
	if err := n.Close(); err != nil {
		t.Fatal(err)
	}
	n, err = Open(Options{Dir: dir})
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	n.Close()
}

func TestCorruptStoreRefused(t *testing.T) {
	t.Parallel()
	newStore := func(t *testing.T) string {
		dir := t.TempDir()
		n, err := Open(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		fillAtoE(t, n, "r")
		if err := n.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := n.Close(); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	t.Run("manifest garbage", func(t *testing.T) {
		dir := newStore(t)
		ms, _ := filepath.Glob(filepath.Join(dir, "MANIFEST-*"))
		if len(ms) == 0 {
			t.Fatal("no MANIFEST")
		}
		for _, m := range ms {
			if err := os.WriteFile(m, []byte("this is not a manifest, this is garbage"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Open(Options{Dir: dir}); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("got %v, want ErrCorrupt", err)
		}
	})
	t.Run("pebble files gone", func(t *testing.T) {
		dir := newStore(t)
		all, _ := os.ReadDir(dir)
		for _, e := range all {
			if e.Name() != markerFile {
				os.Remove(filepath.Join(dir, e.Name()))
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "stray"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(Options{Dir: dir}); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("got %v, want ErrCorrupt", err)
		}
	})
	t.Run("other format version", func(t *testing.T) {
		dir := newStore(t)
		if err := os.WriteFile(filepath.Join(dir, markerFile), []byte("twissandra-widerow-engine format 0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(Options{Dir: dir}); !errors.Is(err, ErrIncompatible) {
			t.Fatalf("got %v, want ErrIncompatible", err)
		}
	})
	t.Run("other partitioner", func(t *testing.T) {
		dir := newStore(t)
		s := DefaultSchema()
		s.Partitioner = OrderPreservingPartitioner
		if _, err := Open(Options{Dir: dir, Schema: s}); !errors.Is(err, ErrIncompatible) {
			t.Fatalf("got %v, want ErrIncompatible", err)
		}
	})
	t.Run("changed comparator", func(t *testing.T) {
		dir := newStore(t)
		s, err := ParseSchema([]byte(strings.Replace(DefaultSchemaXML, `CompareWith="BytesType"       Name="Bytes"`, `CompareWith="UTF8Type" Name="Bytes"`, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Open(Options{Dir: dir, Schema: s}); !errors.Is(err, ErrIncompatible) {
			t.Fatalf("got %v, want ErrIncompatible", err)
		}
		// The refusals above changed nothing: the store still opens.
		n, err := Open(Options{Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		n.Close()
	})
}
