package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"twissandra/tools/bench"
)

// celebrity --simulate: the fan-out rules beyond a fixed threshold, priced by the cost model
// measured on a backend (tools/bench's MeasureFanoutCost, then SimulateFanout).

type simOptions struct {
	on                        *bool
	scale                     *int
	days, postRate, spread    *float64
	dormant                   *float64
	thresholds, ks, readRates *string
	seed                      *uint64
}

func simFlags(fs *flag.FlagSet) simOptions {
	d := bench.DefaultSimConfig(1000)
	return simOptions{
		on:         fs.Bool("simulate", false, "simulate the fan-out rules (push, pull, fixed thresholds, per pair, skipping dormant followers) over a graph shaped like Twitter's, priced by the cost model measured on --backend, instead of timing posts and pages"),
		scale:      fs.Int("sim-scale", 1000, "with --simulate: Twitter's 41.7M users divided by this (1000: 41,700 users)"),
		days:       fs.Float64("sim-days", d.Days, "with --simulate: days of posts and pages simulated"),
		postRate:   fs.Float64("post-rate", d.PostRate, "with --simulate: the median user's posts a day"),
		readRates:  fs.String("read-rate", "1,0.2,5", "with --simulate: the median user's home pages a day; several, comma-separated, simulate each on the same graph and cost model (the first is plotted)"),
		spread:     fs.Float64("rate-spread", d.Spread, "with --simulate: sigma of the lognormal factor of each user's rates"),
		dormant:    fs.Float64("dormant-days", d.Dormant, "with --simulate: days without a read after which pushes skip a follower"),
		thresholds: fs.String("sim-thresholds", joinInts(d.Thresholds), "with --simulate: the fixed thresholds tried (followers of the scaled graph)"),
		ks:         fs.String("sim-k", joinFloats(d.Ks), "with --simulate: the per pair rule's factors tried, besides the one the cost model makes best"),
		seed:       fs.Uint64("sim-seed", d.Seed, "with --simulate: the seed of the graph, the rates and the actions"),
	}
}

func simulateCmd(ctx context.Context, cfg *Config, explicitDir bool, o simOptions, svg, jsonOut string, stdout, stderr io.Writer) error {
	if *o.scale < 1 {
		return fmt.Errorf("--sim-scale %d: want 1 or more", *o.scale)
	}
	c := bench.DefaultSimConfig(*o.scale)
	c.Days, c.PostRate, c.Spread, c.Dormant, c.Seed = *o.days, *o.postRate, *o.spread, *o.dormant, *o.seed
	readRates, err := floatList("--read-rate", *o.readRates)
	if err != nil {
		return err
	}
	if c.Thresholds, err = intList("--sim-thresholds", *o.thresholds); err != nil {
		return err
	}
	if c.Ks, err = floatList("--sim-k", *o.ks); err != nil {
		return err
	}
	for _, rr := range readRates {
		c.ReadRate = rr
		if err := c.CheckShape(); err != nil {
			return err
		}
	}
	if cfg.Backend == "memory" {
		return errors.New("--simulate: the memory store records its port calls, not rows: measure the cost model on widerow or cql3")
	}
	if err := cfg.validate(); err != nil {
		return err
	}
	if !explicitDir {
		done, err := scratchDataDir(cfg, "twissandra-simulate-")
		if err != nil {
			return err
		}
		defer done()
	}
	b, err := openBackend(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	c.Cost, err = bench.MeasureFanoutCost(ctx, cfg.Backend, b.social, b.stores.Users, b.stores.Lines)
	if err = errors.Join(err, b.close()); err != nil {
		return err
	}
	var runs bench.SimRuns
	for _, rr := range readRates {
		c.ReadRate = rr
		res, err := bench.SimulateFanout(c)
		if err != nil {
			return err
		}
		fmt.Fprint(stdout, res.Table())
		runs.Runs = append(runs.Runs, res)
	}
	if jsonOut != "" {
		js, err := json.MarshalIndent(runs, "", " ")
		if err != nil {
			return err
		}
		if err := writeFile(jsonOut, func(w io.Writer) error { _, err := w.Write(append(js, '\n')); return err }); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "wrote", jsonOut)
	}
	if svg != "" {
		if err := writeFile(svg, func(w io.Writer) error { return bench.WriteSimulationSVG(w, runs.Runs[0]) }); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "wrote", svg)
	}
	return nil
}

// floatList reads a comma-separated list of numbers above 0.
func floatList(flagName, s string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ",") {
		f, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || !(f > 0) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("%s %q: want comma-separated numbers above 0", flagName, s)
		}
		out = append(out, f)
	}
	return out, nil
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ",")
}

func joinFloats(fs []float64) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = strconv.FormatFloat(f, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}
