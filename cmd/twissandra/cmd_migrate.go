package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"twissandra/internal/progress"
	"twissandra/tools/migrate"
)

// bindPrefixedFlags declares the backend flags of one side of a migration: --from (the backend)
// and --from-data-dir, --from-cql-hosts, ... for every other backend flag.
func bindPrefixedFlags(fs *flag.FlagSet, side string, c *Config) {
	inner := flag.NewFlagSet(side, flag.ContinueOnError)
	bindFlags(inner, c)
	inner.VisitAll(func(f *flag.Flag) {
		name := side + "-" + f.Name
		if f.Name == "backend" {
			name = side
		}
		fs.Var(f.Value, name, f.Usage)
	})
}

// migrateCmd copies everything from one backend to another through the ports, then verifies.
func migrateCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	from, to := &Config{}, &Config{}
	fs := newFlagSet("migrate", stderr)
	bindPrefixedFlags(fs, "from", from)
	bindPrefixedFlags(fs, "to", to)
	o := migrate.Options{}
	fs.StringVar(&o.Checkpoint, "checkpoint", "twissandra-migrate.json", "file recording the phase and last key copied; empty: none")
	fs.BoolVar(&o.Resume, "resume", false, "continue from the checkpoint instead of starting over")
	fs.IntVar(&o.Concurrency, "concurrency", 8, "writes in flight")
	fs.IntVar(&o.PageSize, "page-size", 500, "records per scan page")
	sample := fs.Int("verify-sample", 100, "users' timelines and entries compared field by field after the copy")
	noVerify := fs.Bool("no-verify", false, "skip the verification")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := loadConfig(fs, args, from); err != nil {
		return err
	}
	if err := to.validate(); err != nil {
		return fmt.Errorf("--to: %w", err)
	}
	if from.Backend == "widerow" && to.Backend == "widerow" && from.DataDir == to.DataDir {
		return errors.New("--from-data-dir and --to-data-dir are the same store")
	}
	if err := existingStore(from); err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	o.Route = describeSide(from) + " -> " + describeSide(to)
	src, err := openBackend(ctx, from, stderr)
	if err != nil {
		return fmt.Errorf("--from: %w", err)
	}
	dst, err := openBackend(ctx, to, stderr)
	if err != nil {
		return errors.Join(fmt.Errorf("--to: %w", err), src.close())
	}
	err = func() error {
		bar := progress.New(stderr, *quiet, -1, "users")
		o.Progress = bar
		start := time.Now()
		err := migrate.Copy(ctx, src.stores, dst.stores, o)
		bar.Finish()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "copied %s in %s\n", o.Route, time.Since(start).Round(time.Millisecond))
		if dst.cql != nil {
			// The lines were copied through the ports as IDs: give the query-first rows
			// their tweets, as fill-lines does after an upgrade in place.
			r, err := dst.cql.FillLines(ctx, nil)
			if err != nil {
				return fmt.Errorf("fill lines: %w", err)
			}
			fmt.Fprintf(stdout, "filled %d of %d cql3 line rows with their tweets (%d left)\n", r.Filled, r.Scanned, r.Left)
		}
		if *noVerify {
			return nil
		}
		r, err := migrate.Verify(ctx, src.stores, dst.stores, migrate.VerifyOptions{Sample: *sample, Seed: uint64(time.Now().UnixNano())})
		if err != nil {
			return fmt.Errorf("verify: %w", err)
		}
		c := r.To
		fmt.Fprintf(stdout, "target: %d users, %d follows, %d tweets, %d line entries, %d authors, %d entries, %d tag references, %d comments\n",
			c.Users, c.Follows, c.Tweets, c.LineEntries, c.Authors, c.Entries, c.TagRefs, c.Comments)
		if r.Total > 0 {
			// One line per difference here: run folds the returned error into one line.
			for _, d := range r.Differences {
				fmt.Fprintln(stderr, "difference:", d)
			}
			return fmt.Errorf("verification found %d differences (at most %d listed above)", r.Total, migrate.MaxDifferences)
		}
		fmt.Fprintln(stdout, "verified: the target matches the source")
		return nil
	}()
	return errors.Join(err, dst.close(), src.close())
}

func describeSide(c *Config) string {
	switch c.Backend {
	case "widerow":
		if c.DataDir == "" {
			return "widerow (in memory)"
		}
		return "widerow " + c.DataDir
	case "cql3":
		return "cql3 " + strings.Join(c.CQL.Hosts, ",") + "/" + c.CQL.Keyspace
	}
	return c.Backend
}
