package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"twissandra/internal/progress"
)

// fillLinesCmd fills the query-first line rows of a cql3 keyspace upgraded in place (migration
// 004): rows written before it carry only the tweet's ID until then. It runs beside live
// servers, is resumed by running it again, and ends with a verification.
func fillLinesCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := &Config{}
	bindFlags(flag.NewFlagSet("defaults", flag.ContinueOnError), cfg) // every other setting at its default
	cfg.Backend = "cql3"
	fs := newFlagSet("fill-lines", stderr)
	bindCQLFlags(fs, cfg)
	fs.StringVar(&cfg.LogLevel, "log-level", "warn", "debug, info, warn or error")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := loadConfig(fs, args, cfg); err != nil {
		return err
	}
	b, err := openBackend(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	bar := progress.New(stderr, *quiet, -1, "line rows")
	start := time.Now()
	r, err := b.cql.FillLines(ctx, bar.Add)
	bar.Finish()
	err = errors.Join(err, b.close())
	if err != nil {
		return fmt.Errorf("fill lines: %w", err)
	}
	fmt.Fprintf(stdout, "scanned %d line rows in %s: filled %d, %d name a tweet that does not exist (left as they are); verified: %d still lacking their tweet\n",
		r.Scanned, time.Since(start).Round(time.Millisecond), r.Filled, r.Dangling, r.Left)
	if r.Left > 0 {
		return fmt.Errorf("%d line rows still lack their tweet: run fill-lines again", r.Left)
	}
	return nil
}
