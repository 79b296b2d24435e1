package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"twissandra/internal/progress"
	"twissandra/tools/bench"
)

// celebrityCmd measures the celebrity problem on one or more backends (tools/bench's
// RunCelebrity): post latency against follower count, pushed and hybrid, and the page cost of
// following pulled authors; it prints the figures and plots them.
func celebrityCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := &Config{}
	fs := newFlagSet("celebrity", stderr)
	bindFlags(fs, cfg)
	backends := fs.String("backends", "widerow,memory", "backends to measure in turn (widerow, memory, cql3); widerow on disk in --data-dir, default a fresh temporary one")
	counts := fs.String("counts", "100,1000,10000,100000,1000000", "follower counts of the author, ascending")
	posts := fs.Int("posts", 10, "posts timed per count and mode")
	pulled := fs.String("pulled", "0,1,5,20", "pulled authors followed by the readers whose pages are timed")
	pages := fs.Int("pages", 200, "pages timed per reader")
	svg := fs.String("svg", "artifacts/celebrity.svg", "SVG plot to write; empty for none")
	jsonOut := fs.String("json", "", "also write the figures as JSON here (the models pages show web/teach/static/celebrity.json)")
	note := fs.String("note", "", "where and how the figures were taken, kept in the JSON")
	add := fs.String("add", "", "comma-separated JSON files of earlier runs (--json) whose figures join this run's, in the tables, the plot and the JSON; with --backends \"\" nothing is measured")
	quiet := fs.Bool("quiet", false, "no progress bar")
	sim := simFlags(fs)
	if err := loadConfig(fs, args, cfg); err != nil {
		return err
	}
	explicitDir, explicitSVG := false, false
	fs.Visit(func(f *flag.Flag) {
		explicitDir = explicitDir || f.Name == "data-dir"
		explicitSVG = explicitSVG || f.Name == "svg"
	})
	if os.Getenv(envPrefix+"DATA_DIR") != "" {
		explicitDir = true
	}
	if *sim.on {
		if !explicitSVG {
			*svg = "artifacts/celebrity-simulation.svg"
		}
		return simulateCmd(ctx, cfg, explicitDir, sim, *svg, *jsonOut, stdout, stderr)
	}
	cs, err := intList("--counts", *counts)
	if err != nil {
		return err
	}
	ps, err := intList("--pulled", *pulled)
	if err != nil {
		return err
	}
	var results []bench.CelebrityResult
	var names []string
	if strings.TrimSpace(*backends) != "" {
		names = strings.Split(*backends, ",")
	}
	for _, name := range names {
		c := *cfg
		c.Backend = strings.TrimSpace(name)
		if err := c.validate(); err != nil {
			return fmt.Errorf("--backends: %w", err)
		}
		if !explicitDir {
			done, err := scratchDataDir(&c, "twissandra-celebrity-")
			if err != nil {
				return err
			}
			defer done()
		}
		b, err := openBackend(ctx, &c, stderr)
		if err != nil {
			return err
		}
		cc := bench.CelebrityConfig{
			Backend: c.Backend, Social: b.social, Users: b.stores.Users, Counts: cs, Posts: *posts,
			Threshold: c.PullThreshold, Pulled: ps, Pages: *pages, Log: stderr,
			Bar: func(total int64, unit string) (func(), func()) {
				bar := progress.New(stderr, *quiet, total, unit)
				return func() { bar.Add(1) }, bar.Finish
			},
		}
		if b.node != nil { // widerow: each timing starts on a flushed and compacted store
			cc.Settle = b.node.Compact
		}
		res, err := bench.RunCelebrity(ctx, cc)
		if err = errors.Join(err, b.close()); err != nil {
			return err
		}
		fmt.Fprintln(stdout, res.Table())
		results = append(results, res)
	}
	for _, path := range strings.Split(*add, ",") {
		if path = strings.TrimSpace(path); path == "" {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("--add: %w", err)
		}
		var earlier struct {
			Results []bench.CelebrityResult `json:"results"`
		}
		if err := json.Unmarshal(b, &earlier); err != nil || len(earlier.Results) == 0 {
			return fmt.Errorf("--add %s: not the JSON of twissandra celebrity --json (%v)", path, err)
		}
		for _, r := range earlier.Results {
			fmt.Fprintln(stdout, r.Table())
		}
		results = append(results, earlier.Results...)
	}
	if len(results) == 0 {
		return errors.New("nothing measured: give --backends, or --add the JSON of earlier runs")
	}
	if *jsonOut != "" {
		b, err := json.MarshalIndent(struct {
			Note    string                  `json:"note"`
			Results []bench.CelebrityResult `json:"results"`
		}{*note, results}, "", " ")
		if err != nil {
			return err
		}
		if err := writeFile(*jsonOut, func(w io.Writer) error { _, err := w.Write(append(b, '\n')); return err }); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "wrote", *jsonOut)
	}
	if *svg == "" {
		return nil
	}
	if err := writeFile(*svg, func(w io.Writer) error {
		return bench.WriteCelebritySVG(w, "The celebrity problem: push against the hybrid fan-out", results)
	}); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "wrote", *svg)
	return nil
}

// writeFile creates path (and its directory) and fills it with write.
func writeFile(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	return errors.Join(write(f), f.Close())
}

// intList reads a comma-separated list of non-negative integers.
func intList(flagName, s string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(part))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("%s %q: want comma-separated counts of 0 or more", flagName, s)
		}
		out = append(out, n)
	}
	return out, nil
}

// scratchDataDir points a widerow cfg at a new temporary directory with a periodic commit log
// (measurements need neither the user's data nor a sync per write); done removes it. Other
// backends are left as they are.
func scratchDataDir(cfg *Config, prefix string) (done func(), err error) {
	if cfg.Backend != "widerow" {
		return func() {}, nil
	}
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	cfg.DataDir, cfg.CommitLogSync = dir, "periodic"
	return func() { os.RemoveAll(dir) }, nil
}
