package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"twissandra/tools/bench"
)

// benchCmd drives a running server with a mixed workload and reports throughput, latency
// percentiles and the overhead over a bare gin baseline (package tools/bench).
func benchCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("bench", stderr)
	var cfg bench.Config
	var svg, title string
	var seed int64
	fs.StringVar(&cfg.URL, "url", "http://127.0.0.1:8080", "server to drive (loopback only)")
	fs.IntVar(&cfg.Clients, "clients", 64, "concurrent clients")
	fs.DurationVar(&cfg.Duration, "duration", 10*time.Second, "length of each measured phase (baseline, public, mixed, and the two paced ones)")
	fs.IntVar(&cfg.Requests, "requests", 1_000_000, "most requests per measured phase")
	fs.IntVar(&cfg.Users, "users", 200, "users to sign up (with the server's bcrypt cost: use serve --bcrypt-cost 4 for big runs)")
	fs.IntVar(&cfg.Follows, "follows", 10, "users each user follows, Zipf-chosen")
	fs.Float64Var(&cfg.ReadShare, "read-share", 0.9, "share of reads in the mixed phase (0 to 1)")
	fs.StringVar(&cfg.Prefix, "prefix", "", "username prefix of this run (default random)")
	fs.Float64Var(&cfg.PacedShare, "paced-share", 0.6, "rate of the paced phases as a share of the baseline's throughput; negative for none")
	fs.Int64Var(&seed, "seed", 1, "workload seed")
	fs.StringVar(&svg, "svg", "artifacts/bench.svg", "SVG plot to write; empty for none")
	fs.StringVar(&title, "title", "", "title of the plot (default: the URL and client count)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	cfg.Seed = uint64(seed)
	cfg.Log = stderr
	res, err := bench.Run(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprint(stdout, res.Summary())
	if svg == "" {
		return nil
	}
	if title == "" {
		title = fmt.Sprintf("twissandra bench: %s, %d clients", cfg.URL, cfg.Clients)
	}
	if err := os.MkdirAll(filepath.Dir(svg), 0o755); err != nil {
		return err
	}
	f, err := os.Create(svg)
	if err != nil {
		return err
	}
	if err := bench.WriteSVG(f, title, res.Phases()); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "plot: %s\n", svg)
	return nil
}
