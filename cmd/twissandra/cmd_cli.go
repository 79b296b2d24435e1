package main

import (
	"context"
	"fmt"
	"io"

	"twissandra/tools/cli"
)

// cliCmd runs the cassandra-cli-like shell over the widerow engine: interactive, or the
// statements of -e once.
func cliCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := &Config{}
	fs := newFlagSet("cli", stderr)
	bindFlags(fs, cfg)
	expr := fs.String("e", "", "run these statements (separated by ';' or new lines) and exit; an error exits non-zero")
	if err := loadConfig(fs, args, cfg); err != nil {
		return err
	}
	if cfg.Backend != "widerow" {
		return fmt.Errorf("cli speaks the Cassandra 0.6 model of the widerow backend, not %s", cfg.Backend)
	}
	b, err := openBackend(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	sh := &cli.Shell{Node: b.node, Out: stdout}
	if *expr != "" {
		err = sh.Run(ctx, *expr)
	} else {
		err = sh.Interactive(ctx, stderr)
	}
	if cerr := b.close(); err == nil {
		err = cerr
	}
	return err
}
