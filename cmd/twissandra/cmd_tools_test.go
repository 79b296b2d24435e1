package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixedUntil = "2010-05-12T00:00:00Z"

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCmd(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errOut)
	}
	return out
}

func TestSeedArticlesThenDump(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustRun(t, "seed", "--data-dir", dir, "--articles", "--bcrypt-cost", "4")
	mustRun(t, "seed", "--data-dir", dir, "--articles", "--bcrypt-cost", "4") // again: no change
	out := mustRun(t, "dump", "--data-dir", dir, "--keyspace", "Twissandra", "--cf", "Tweet")
	if strings.Count(out, `"@ericflo thanks for Twissandra, it helps!"`) != 1 {
		t.Errorf("Tweet CF:\n%s", out)
	}
	out = mustRun(t, "dump", "--data-dir", dir, "--keyspace", "BloggyAppy", "--format", "jsonl")
	sc := bufio.NewScanner(strings.NewReader(out))
	cfs := map[string]int{}
	for sc.Scan() {
		var row struct{ CF string }
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatalf("%q: %v", sc.Text(), err)
		}
		cfs[row.CF]++
	}
	if cfs["Authors"] != 1 || cfs["BlogEntries"] != 3 || cfs["Comments"] == 0 || cfs["TaggedPosts"] == 0 {
		t.Errorf("BloggyAppy rows per CF: %v", cfs)
	}
	out = mustRun(t, "cli", "--data-dir", dir, "-e", "count Twissandra.Username['jericevans']")
	if out != "1 columns\n" {
		t.Errorf("cli count: %q", out)
	}
}

// TestSeedMigrateRoundTrip: seed a widerow store, migrate it to memory and on to a second
// widerow store (memory lives in one process, so widerow -> widerow stands in for the hop
// back), and compare the dumps; a second migrate changes nothing.
func TestSeedMigrateRoundTrip(t *testing.T) {
	t.Parallel()
	a, b := t.TempDir(), t.TempDir()
	gen := []string{"seed", "--articles", "--users", "25", "--tweets", "150", "--span", "48h", "--until", fixedUntil, "--seed", "7", "--quiet", "--bcrypt-cost", "4"}
	out := mustRun(t, append(gen, "--data-dir", a)...)
	if !strings.Contains(out, "150 tweets") {
		t.Errorf("seed output %q", out)
	}
	cp := filepath.Join(t.TempDir(), "cp.json")
	for range 2 {
		out = mustRun(t, "migrate", "--from", "widerow", "--from-data-dir", a, "--to", "widerow", "--to-data-dir", b, "--checkpoint", cp, "--quiet")
		if !strings.Contains(out, "verified: the target matches the source") {
			t.Fatalf("migrate output %q", out)
		}
	}
	mustRun(t, "migrate", "--from", "widerow", "--from-data-dir", a, "--to", "memory", "--quiet", "--checkpoint", "")
	da := mustRun(t, "dump", "--data-dir", a, "--format", "jsonl")
	db := mustRun(t, "dump", "--data-dir", b, "--format", "jsonl")
	if da != db || !strings.Contains(da, `"cf":"Timeline"`) {
		t.Fatal("the dumps of source and target differ")
	}
	// The generator is deterministic: the same flags on a fresh store dump the same synthetic
	// rows (the articles' tweet has a random ID, so compare a generated-only store).
	c, d := t.TempDir(), t.TempDir()
	only := []string{"seed", "--users", "10", "--tweets", "40", "--span", "24h", "--until", fixedUntil, "--seed", "3", "--quiet"}
	mustRun(t, append(only, "--data-dir", c)...)
	mustRun(t, append(only, "--data-dir", d)...)
	if mustRun(t, "dump", "--data-dir", c, "--format", "jsonl") != mustRun(t, "dump", "--data-dir", d, "--format", "jsonl") {
		t.Fatal("one seed made two different stores")
	}
}

// seed --celebrity makes a user with that many followers, on the widerow store on disk.
func TestSeedCelebrity(t *testing.T) {
	t.Parallel()
	out := mustRun(t, "seed", "--data-dir", t.TempDir(), "--celebrity", "star", "--followers", "300", "--quiet")
	if !strings.Contains(out, "star has 300 followers") {
		t.Fatalf("seed --celebrity: %q", out)
	}
}

// celebrity measures the posts and pages it is asked for and plots them.
func TestCelebrityCommand(t *testing.T) {
	t.Parallel()
	svg := filepath.Join(t.TempDir(), "celebrity.svg")
	out := mustRun(t, "celebrity", "--backends", "memory,widerow", "--data-dir", t.TempDir(), "--counts", "10,50", "--pull-threshold", "20",
		"--posts", "2", "--pulled", "0,2", "--pages", "3", "--svg", svg, "--quiet")
	for _, want := range []string{"memory, pull threshold 20", "widerow, pull threshold 20", " hybrid*", "hybrid post, 50 followers / 10 followers", "wrote " + svg} {
		if !strings.Contains(out, want) {
			t.Fatalf("celebrity: no %q in\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<polyline") {
		t.Fatalf("the plot: %v", err)
	}
	// The figures of earlier runs join a new one's, or are plotted alone.
	first := filepath.Join(t.TempDir(), "first.json")
	mustRun(t, "celebrity", "--backends", "memory", "--counts", "10", "--posts", "1", "--pulled", "0", "--pages", "1", "--json", first, "--svg", "", "--quiet")
	both := filepath.Join(t.TempDir(), "both.json")
	mustRun(t, "celebrity", "--backends", "", "--add", first+","+first, "--json", both, "--svg", svg)
	if b, err := os.ReadFile(both); err != nil || strings.Count(string(b), `"backend": "memory"`) != 2 {
		t.Fatalf("--add: %s, %v", b, err)
	}
}

// celebrity --simulate measures the cost model on a fresh widerow store, prices the rules with
// it over a small Twitter-shaped graph, and writes the table, the JSON and the plot.
func TestCelebritySimulateCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	svg, js := filepath.Join(dir, "sim.svg"), filepath.Join(dir, "sim.json")
	out := mustRun(t, "celebrity", "--simulate", "--sim-scale", "10000", "--sim-days", "3", "--sim-thresholds", "20,200", "--sim-k", "2",
		"--svg", svg, "--json", js)
	for _, want := range []string{"4170 users (Twitter's 41700000 at 1/10000)", "cost model (widerow, rows): post ", "\npush ", "\npull ",
		"\nthreshold 20 ", "\nthreshold 200 + skip dormant ", "\nper pair k=2 ", "\nper pair k=1 ", "wrote " + svg, "wrote " + js} {
		if !strings.Contains(out, want) {
			t.Fatalf("celebrity --simulate: no %q in\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(svg); err != nil || strings.Count(string(b), "<rect") < 10 {
		t.Fatalf("the plot: %v", err)
	}
	if strings.Count(out, "\npush   ") != 3 || !strings.Contains(out, "read rate 0.2 a day against post rate 0.2") {
		t.Fatalf("celebrity --simulate: not one run per read rate (1, 0.2, 5):\n%s", out)
	}
	if b, err := os.ReadFile(js); err != nil || strings.Count(string(b), `"per_1000_actions"`) < 3 {
		t.Fatalf("the JSON: %v", err)
	}
}

// floatList takes positive finite numbers separated by commas, and nothing else.
func FuzzFloatList(f *testing.F) {
	for _, s := range []string{"1", "0.25,1,4", " 2 , 3", "0", "-1", "1,,2", "NaN", "Inf", "1e309", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := floatList("--sim-k", s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "--sim-k ") {
				t.Fatalf("%q: error %v does not name the flag", s, err)
			}
			return
		}
		if len(got) != strings.Count(s, ",")+1 {
			t.Fatalf("%q: %d numbers", s, len(got))
		}
		for _, v := range got {
			if !(v > 0) || math.IsInf(v, 0) {
				t.Fatalf("%q: %v", s, got)
			}
		}
	})
}

func TestToolErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"seed", "--data-dir", dir},
		{"seed", "--data-dir", dir, "--users", "1", "--tweets", "3"},
		{"seed", "--backend", "memory", "--celebrity", "no way"},
		{"seed", "--backend", "memory", "--celebrity", "star", "--followers", "-1"},
		{"serve", "--backend", "memory", "--pull-threshold", "-1"},
		{"serve", "--backend", "memory", "--head-bound", "-1s"},
		{"serve", "--backend", "memory", "--head-bound", "soon"},
		{"celebrity", "--backends", "memory", "--counts", "100,x"},
		{"celebrity", "--backends", "nope"},
		{"celebrity", "--backends", "memory", "--counts", "100,10", "--svg", ""},
		{"celebrity", "--backends", ""},
		{"celebrity", "--backends", "", "--add", "/nonexistent.json"},
		{"celebrity", "--simulate", "--backend", "memory"},
		{"celebrity", "--simulate", "--sim-k", "0"},
		{"celebrity", "--simulate", "--sim-k", "1,x"},
		{"celebrity", "--simulate", "--sim-thresholds", "10,-1"},
		{"celebrity", "--simulate", "--sim-scale", "0"},
		{"celebrity", "--simulate", "--read-rate", "1,0"},
		{"celebrity", "--simulate", "--sim-scale", "1"},
		{"celebrity", "--simulate", "--sim-days", "0", "--svg", ""},
		{"dump", "--data-dir", dir, "--keyspace", "Nope"},
		{"dump", "--backend", "memory"},
		{"dump", "--table", "tweets"},
		{"migrate", "--from", "widerow", "--from-data-dir", dir, "--to", "widerow", "--to-data-dir", dir},
		{"migrate", "--from", "nope"},
	} {
		code, _, errOut := runCmd(t, args...)
		if code == 0 || strings.Count(errOut, "\n") < 1 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// The operator tools hide password hashes and emails unless asked: a dump can be shared.
func TestToolsHideSecrets(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mustRun(t, "seed", "--data-dir", dir, "--articles", "--bcrypt-cost", "4")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"dump User", []string{"dump", "--data-dir", dir, "--keyspace", "Twissandra", "--cf", "User"}},
		{"dump User jsonl", []string{"dump", "--data-dir", dir, "--keyspace", "Twissandra", "--cf", "User", "--format", "jsonl"}},
		{"dump Comments", []string{"dump", "--data-dir", dir, "--keyspace", "BloggyAppy", "--cf", "Comments"}},
		{"cli list User", []string{"cli", "--data-dir", dir, "-e", "list Twissandra.User limit 5"}},
		{"cli list Comments", []string{"cli", "--data-dir", dir, "-e", "list BloggyAppy.Comments limit 5"}},
	} {
		out := mustRun(t, tc.args...)
		if strings.Contains(out, "$2a$") || strings.Contains(out, "@example.com") {
			t.Errorf("%s shows a secret:\n%s", tc.name, out)
		}
		if !strings.Contains(out, "<bcrypt hash, 60 bytes>") && !strings.Contains(out, "<email, hidden>") {
			t.Errorf("%s does not say what it hid:\n%s", tc.name, out)
		}
		shown := mustRun(t, append(tc.args, "--show-secrets")...)
		if !strings.Contains(shown, "$2a$") && !strings.Contains(shown, "@example.com") {
			t.Errorf("%s --show-secrets shows no secret:\n%s", tc.name, shown)
		}
	}
	// The ports dump of memory: no secret either.
	out := mustRun(t, "dump", "--backend", "memory", "--format", "jsonl")
	if strings.Contains(out, "$2a$") {
		t.Errorf("ports dump shows a hash:\n%s", out)
	}
}

// dump and migrate read a store: a data dir that does not exist is an error, not an empty store.
func TestReadersRefuseAMissingDataDir(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "nope")
	for _, args := range [][]string{
		{"dump", "--data-dir", missing},
		{"migrate", "--from-data-dir", missing, "--to", "memory", "--checkpoint", ""},
	} {
		code, _, errOut := runCmd(t, args...)
		if code == 0 || !strings.Contains(errOut, "does not exist") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
		if _, err := os.Stat(missing); !os.IsNotExist(err) {
			t.Fatalf("%v made %s", args, missing)
		}
	}
}

// seed --help says the passwords of the users it makes.
func TestSeedHelpSaysThePasswords(t *testing.T) {
	t.Parallel()
	_, _, help := runCmd(t, "seed", "--help")
	for _, want := range []string{`"twissandra"`, `"**********"`, "ericflo following jericevans"} {
		if !strings.Contains(help, want) {
			t.Errorf("seed --help lacks %s:\n%s", want, help)
		}
	}
}
