// Package cli is the terminal of the cli subcommand: line editing, history and completion
// around the cassandra-cli language of package adapters/widerow/cli, which parses and runs the
// statements (and which the widerow console of the teaching room speaks too).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/peterh/liner"

	"twissandra/adapters/widerow/cli"
)

// HistoryFile is the shell's history, in the user's home directory.
const HistoryFile = ".twissandra_history"

// Interactive reads statements with line editing and history until quit or end of input, and
// runs them on s. An error is printed to errOut as one line and the shell goes on.
func Interactive(ctx context.Context, s *cli.Shell, errOut io.Writer) error {
	line := liner.NewLiner()
	defer line.Close()
	line.SetCtrlCAborts(true)
	line.SetCompleter(complete)
	history := historyPath()
	if history != "" {
		if f, err := os.Open(history); err == nil {
			_, _ = line.ReadHistory(f)
			_ = f.Close()
		}
	}
	defer func() {
		if history == "" {
			return
		}
		if f, err := os.OpenFile(history, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600); err == nil {
			_, _ = line.WriteHistory(f)
			_ = f.Close()
		}
	}()
	fmt.Fprintln(s.Out, "Connected to the widerow engine (Cassandra 0.6 model). Type help for help, quit to leave.")
	for {
		if err := ctx.Err(); err != nil {
			return nil
		}
		text, err := line.Prompt("[widerow]> ")
		if errors.Is(err, io.EOF) || errors.Is(err, liner.ErrPromptAborted) {
			fmt.Fprintln(s.Out)
			return nil
		}
		if err != nil {
			return err
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		line.AppendHistory(text)
		err = s.Exec(ctx, text)
		if errors.Is(err, cli.ErrQuit) {
			return nil
		}
		if err != nil {
			fmt.Fprintln(errOut, cli.OneLine(err))
		}
	}
}

func historyPath() string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return ""
	}
	return filepath.Join(home, HistoryFile)
}

var words = []string{"show keyspaces", "describe keyspace ", "set ", "get ", "del ", "count ", "list ", "help", "quit",
	"Twissandra.", "BloggyAppy.", "Scratch."}

func complete(line string) []string {
	var out []string
	i := strings.LastIndexByte(line, ' ') + 1
	head, last := line[:i], strings.ToLower(line[i:])
	for _, w := range words {
		if last != "" && strings.HasPrefix(strings.ToLower(w), last) {
			out = append(out, head+w)
		}
	}
	return out
}
