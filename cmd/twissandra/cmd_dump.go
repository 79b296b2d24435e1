package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"twissandra/tools/dump"
)

// dumpCmd prints a widerow column family or keyspace, or a cql3 table (notation or JSON lines),
// or, on cql3 without --table and on memory, every record through the ports as JSON lines.
func dumpCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := &Config{}
	fs := newFlagSet("dump", stderr)
	bindFlags(fs, cfg)
	o := dump.WiderowOptions{}
	fs.StringVar(&o.Keyspace, "keyspace", "", "widerow: keyspace to dump (default: every keyspace)")
	fs.StringVar(&o.CF, "cf", "", "widerow: column family to dump (needs --keyspace)")
	fs.StringVar(&o.Format, "format", dump.Notation, "notation (the articles' CF : { key : { name : value } }) or jsonl; the ports dump of cql3 and memory: jsonl only")
	fs.BoolVar(&o.Timestamps, "timestamps", false, "widerow: add each column's write timestamp (a comment in the notation, a field in jsonl)")
	fs.BoolVar(&o.Ghosts, "ghosts", false, "widerow: print rows holding only tombstones (range ghosts) as empty rows")
	fs.BoolVar(&o.ShowSecrets, "show-secrets", false, "print password hashes and commenters' emails as stored (by default they show as what they are: <bcrypt hash, 60 bytes>, <email, hidden>)")
	fs.IntVar(&o.PageSize, "page-size", 500, "widerow: rows per get_range_slices call; cql3: rows per page the driver fetches")
	table := fs.String("table", "", "cql3: the table of the keyspace to dump (default: every record through the ports, as jsonl)")
	if err := loadConfig(fs, args, cfg); err != nil {
		return err
	}
	if *table != "" && cfg.Backend != "cql3" {
		return fmt.Errorf("--table names a table of the cql3 backend, not of %s (widerow: --keyspace and --cf)", cfg.Backend)
	}
	if cfg.Backend != "widerow" && (o.Keyspace != "" || o.CF != "") {
		return fmt.Errorf("the %s backend has no column families (cql3: --table T of the keyspace --cql-keyspace)", cfg.Backend)
	}
	if *table == "" && cfg.Backend != "widerow" && o.Format != dump.JSONL {
		return fmt.Errorf("the %s backend dumps its records through the ports with --format jsonl (cql3: or one table with --table T)", cfg.Backend)
	}
	if err := existingStore(cfg); err != nil {
		return err
	}
	b, err := openBackend(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	switch {
	case cfg.Backend == "widerow":
		err = dump.Widerow(ctx, stdout, b.node, o)
	case *table != "":
		err = dump.CQLTable(ctx, stdout, b.cql, dump.CQLOptions{Table: *table, Format: o.Format, PageSize: o.PageSize, ShowSecrets: o.ShowSecrets})
	default:
		err = dump.Ports(ctx, stdout, b.stores, dump.PortsOptions{ShowSecrets: o.ShowSecrets})
	}
	return errors.Join(err, b.close())
}
