// Command twissandra runs the Twissandra server and its tools.
//
//	twissandra serve [flags]   run the HTTP server (JSON API and pages)
//	twissandra cli [flags]     a cassandra-cli-like shell over the widerow engine
//	twissandra dump [flags]    print a column family, a keyspace or a store
//	twissandra seed [flags]    load the articles' data or generate synthetic data
//	twissandra migrate [flags] copy everything from one backend to another
//	twissandra bench [flags]   load-test a running server and plot the results
//	twissandra abuse [flags]   a bystander's latency while one address does its worst at each gate
//	twissandra class-load [flags] a class from one address walks the course: refusals, leaks, times
//	twissandra version         print the version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// version is set at link time (-ldflags "-X main.version=..."); else the module's build info.
var version = ""

func versionString() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

const usage = `twissandra: Twitter clone that teaches Cassandra's data models

Usage:
  twissandra serve [flags]     run the HTTP server (JSON API and pages)
  twissandra cli [-e 'stmts']  a cassandra-cli-like shell over the widerow engine (help inside)
  twissandra dump [flags]      print a column family or keyspace (notation or jsonl)
  twissandra seed [flags]      load the articles' data (--articles) or synthetic data (--users, --tweets)
  twissandra migrate [flags]   copy everything from one backend to another (--from, --to)
  twissandra fill-lines [flags]  cql3: fill the line rows written before the query-first tables
  twissandra bench [flags]     load-test a running server (loopback) and plot latency and throughput
  twissandra abuse [flags]     one address does its worst at each anonymous gate of a running server (loopback) while a bystander reads: its latency against idle
  twissandra class-load [flags]  a class of learners from one address walks the course of a running server (loopback): refusals, leaks, times, CPU
  twissandra celebrity [flags] measure posts to 100 ... 1,000,000 followers, pushed and hybrid, and plot them
  twissandra celebrity --simulate  price push, pull, fixed thresholds, the per pair rule and skipping dormant followers over a Twitter-shaped graph
  twissandra class accounts|roster|reset [flags]  an instructor's class, through a running server's API (--instructor-token)
  twissandra version           print the version

Run "twissandra <command> -h" for the flags. Every flag can also be set as an environment
variable: --data-dir is TWISSANDRA_DATA_DIR (flags win).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is main without the process: it returns the exit code, and prints errors as one line.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "serve":
		err = serve(ctx, rest, stderr)
	case "cli":
		err = cliCmd(ctx, rest, stdout, stderr)
	case "dump":
		err = dumpCmd(ctx, rest, stdout, stderr)
	case "seed":
		err = seedCmd(ctx, rest, stdout, stderr)
	case "migrate":
		err = migrateCmd(ctx, rest, stdout, stderr)
	case "fill-lines":
		err = fillLinesCmd(ctx, rest, stdout, stderr)
	case "bench":
		err = benchCmd(ctx, rest, stdout, stderr)
	case "celebrity":
		err = celebrityCmd(ctx, rest, stdout, stderr)
	case "abuse":
		err = abuseCmd(ctx, rest, stdout, stderr)
	case "class-load":
		err = classLoadCmd(ctx, rest, stdout, stderr)
	case "class":
		err = classCmd(ctx, rest, stdout, stderr)
	case "version", "--version", "-version", "-v":
		fmt.Fprintln(stdout, "twissandra", versionString())
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		fmt.Fprintf(stderr, "twissandra: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	default:
		fmt.Fprintf(stderr, "twissandra: %v\n", oneLine(err))
		return 1
	}
}

// errUsage marks a flag error that the flag package has already printed.
var errUsage = errors.New("usage")

func oneLine(err error) string {
	s := err.Error()
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\n' {
			r = ' '
		}
		out = append(out, r)
	}
	return string(out)
}

// newFlagSet makes a flag set that reports errors to stderr, without exiting.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("twissandra "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// loadConfig parses a subcommand's flags and environment into a validated Config.
func loadConfig(fs *flag.FlagSet, args []string, cfg *Config) error {
	if err := parseConfig(fs, args, nil); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		var parseErr interface{ Unwrap() []error }
		if !errors.As(err, &parseErr) {
			return errUsage // the flag package has printed it
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return cfg.validate()
}
