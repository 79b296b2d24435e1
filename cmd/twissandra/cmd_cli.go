package main

import (
	"context"
	"io"
	"os"

	"twissandra/adapters/widerow/cli"
	cliterm "twissandra/tools/cli"
)

// cliCmd runs the cassandra-cli-like shell over the widerow engine: interactive, or the
// statements of -e once.
func cliCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// cli speaks the Cassandra 0.6 model of the widerow backend only: it takes no --backend
	// and none of the cql3 flags.
	cfg := &Config{Backend: "widerow", BcryptCost: 10} // cli hashes no password
	fs := newFlagSet("cli", stderr)
	bindWiderowFlags(fs, cfg)
	expr := fs.String("e", "", "run these statements (separated by ';' or new lines) and exit; an error exits non-zero")
	showSecrets := fs.Bool("show-secrets", false, "print password hashes and commenters' emails as stored (by default they show as what they are: <bcrypt hash, 60 bytes>, <email, hidden>)")
	if err := loadConfig(fs, args, cfg); err != nil {
		return err
	}
	b, err := openBackend(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	sh := &cli.Shell{Node: b.node, Out: stdout, ShowSecrets: *showSecrets}
	switch {
	case *expr != "":
		err = sh.Run(ctx, *expr)
	case !isTerminal(os.Stdin):
		// Statements from a pipe or a file are a script: an error ends it with a non-zero exit.
		err = sh.Script(ctx, os.Stdin)
	default:
		err = cliterm.Interactive(ctx, sh, stderr)
	}
	if cerr := b.close(); err == nil {
		err = cerr
	}
	return err
}

// isTerminal reports whether f is a character device (a terminal), not a pipe or a file.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
