package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"twissandra/tools/dump"
)

// dumpCmd prints a widerow column family or keyspace (notation or JSON lines), or, on the
// other backends, every record through the ports as JSON lines.
func dumpCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := &Config{}
	fs := newFlagSet("dump", stderr)
	bindFlags(fs, cfg)
	o := dump.WiderowOptions{}
	fs.StringVar(&o.Keyspace, "keyspace", "", "widerow: keyspace to dump (default: every keyspace)")
	fs.StringVar(&o.CF, "cf", "", "widerow: column family to dump (needs --keyspace)")
	fs.StringVar(&o.Format, "format", dump.Notation, "notation (the articles' CF : { key : { name : value } }) or jsonl; other backends: jsonl only")
	fs.BoolVar(&o.Timestamps, "timestamps", false, "widerow jsonl: add each column's write timestamp")
	fs.BoolVar(&o.Ghosts, "ghosts", false, "widerow: print rows holding only tombstones (range ghosts) as empty rows")
	fs.IntVar(&o.PageSize, "page-size", 500, "widerow: rows per get_range_slices call")
	table := fs.String("table", "", "cql3: the table to dump")
	if err := loadConfig(fs, args, cfg); err != nil {
		return err
	}
	if *table != "" || cfg.Backend == "cql3" {
		return errors.New("dump of cql3 tables (--table) is not available yet: the cql3 adapter does not expose a session to the tools")
	}
	if cfg.Backend != "widerow" && (o.Format != dump.JSONL || o.Keyspace != "" || o.CF != "") {
		return fmt.Errorf("the %s backend has no keyspaces: it dumps its records through the ports with --format jsonl", cfg.Backend)
	}
	b, err := openBackend(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	if cfg.Backend == "widerow" {
		err = dump.Widerow(ctx, stdout, b.node, o)
	} else {
		err = dump.Ports(ctx, stdout, b.stores)
	}
	return errors.Join(err, b.close())
}
