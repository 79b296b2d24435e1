package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"twissandra/tools/bench"
)

// abuseCmd has one anonymous address do its worst at each gate of a running server, while a
// bystander reads the public line, and reports the bystander's latency against idle (package
// tools/bench, RunAbuse). The server must trust the load generator's X-Forwarded-For
// (serve --trusted-proxies 127.0.0.1), so that attacker and bystander are two addresses.
func abuseCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("abuse", stderr)
	var cfg bench.AbuseConfig
	var gates string
	fs.StringVar(&cfg.URL, "url", "http://127.0.0.1:8080", "server to drive (loopback only), serving with --trusted-proxies 127.0.0.1")
	fs.DurationVar(&cfg.Duration, "duration", 10*time.Second, "length of each phase: idle, then each gate")
	fs.IntVar(&cfg.Workers, "workers", 8, "the attacker's concurrent requests, all from one address")
	fs.StringVar(&gates, "gates", "", "comma-separated gates to try (default all)")
	fs.DurationVar(&cfg.BystanderEvery, "bystander-every", 20*time.Millisecond, "the bystander reads a page of the public line this often")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if gates != "" {
		cfg.Gates = strings.Split(gates, ",")
	}
	cfg.Log = stderr
	res, err := bench.RunAbuse(ctx, cfg)
	fmt.Fprint(stdout, res.Summary())
	return err
}
