package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"twissandra/tools/bench"
)

// classLoadCmd drives a class of simulated learners, all from one address, through the course
// of a running server, and reports what refused them, what they saw of each other, the page and
// action times and the server's CPU per learner-minute (package tools/bench, RunClass). It
// stops by itself after --duration (and the sandboxes' idle bound).
func classLoadCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("class-load", stderr)
	var cfg bench.ClassConfig
	var jsonOut, urls, pids string
	fs.StringVar(&urls, "url", "http://127.0.0.1:8080", "server to drive (loopback only); several, comma-separated, over one cluster: learner i on the i-th modulo their number")
	fs.IntVar(&cfg.Learners, "learners", 20, "simulated learners, each a browser of its own (a cookie jar)")
	fs.DurationVar(&cfg.Duration, "duration", time.Minute, "how long the class works")
	fs.DurationVar(&cfg.Think, "think", 15*time.Second, "a learner's mean pause between two actions (each drawn between half and one and a half of it)")
	fs.StringVar(&cfg.Addr, "addr", "198.51.100.7", "the class's one address, sent as X-Forwarded-For (believed by a server run with --trusted-proxies 127.0.0.1)")
	fs.Float64Var(&cfg.SignUp, "signup", 0.5, "share of learners who sign up (the others stay anonymous)")
	fs.Float64Var(&cfg.Typos, "typos", 0.25, "share of those who mistype once: a sign-up's password too short, a log-in's password wrong")
	fs.StringVar(&pids, "server-pid", "", "the servers' process ids, comma-separated: their CPU time is read from /proc (default: process_cpu_seconds_total of their /metrics, when served)")
	fs.DurationVar(&cfg.IdleWait, "idle-wait", 0, "wait this long after the run before checking that every console sandbox is gone (0: twice the idle bound GET /api/v1/console states, plus 5 s; negative: no check)")
	fs.Uint64Var(&cfg.Seed, "seed", 0, "seed of the learners' choices (0: random)")
	fs.StringVar(&jsonOut, "json", "", "also write the result as JSON to this file (- for stdout, instead of the text)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	cfg.URLs = strings.Split(urls, ",")
	if pids != "" {
		for _, p := range strings.Split(pids, ",") {
			pid, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || pid < 1 {
				return fmt.Errorf("--server-pid %q: want process ids, comma-separated", pids)
			}
			cfg.ServerPIDs = append(cfg.ServerPIDs, pid)
		}
	}
	switch {
	case cfg.Learners < 1 || cfg.Learners > 10_000:
		return fmt.Errorf("--learners %d: want 1 to 10000", cfg.Learners)
	case cfg.Duration <= 0 || cfg.Duration > 24*time.Hour:
		return fmt.Errorf("--duration %v: want more than 0, at most 24h", cfg.Duration)
	case cfg.Think <= 0:
		return fmt.Errorf("--think %v: want more than 0", cfg.Think)
	case cfg.SignUp < 0 || cfg.SignUp > 1 || cfg.Typos < 0 || cfg.Typos > 1:
		return errors.New("--signup and --typos: want shares between 0 and 1")
	}
	cfg.Log = stderr
	res, err := bench.RunClass(ctx, cfg)
	if err != nil && res.Learners == 0 {
		return err // the class never began
	}
	if jsonOut == "-" {
		js, jerr := json.MarshalIndent(res, "", " ")
		if jerr == nil {
			_, jerr = stdout.Write(append(js, '\n'))
		}
		return errors.Join(err, jerr)
	}
	fmt.Fprint(stdout, res.Summary())
	if jsonOut != "" {
		js, jerr := json.MarshalIndent(res, "", " ")
		if jerr == nil {
			jerr = writeFile(jsonOut, func(w io.Writer) error { _, err := w.Write(append(js, '\n')); return err })
		}
		err = errors.Join(err, jerr)
	}
	return err
}
