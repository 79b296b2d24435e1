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
)

// HistoryFile is the shell's history, in the user's home directory.
const HistoryFile = ".twissandra_history"

// Run executes src as a one-shot script (-e): the first error is returned, so the caller can
// print it as one line and exit non-zero.
func (s *Shell) Run(ctx context.Context, src string) error {
	if err := s.Exec(ctx, src); err != nil && !errors.Is(err, ErrQuit) {
		return err
	}
	return nil
}

// Script runs the statements read from in (cli fed from a pipe or a file) as Run runs those of
// -e: the first error is returned, so that the caller exits non-zero.
func (s *Shell) Script(ctx context.Context, in io.Reader) error {
	src, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("read statements: %w", err)
	}
	return s.Run(ctx, string(src))
}

// Interactive reads statements with line editing and history until quit or end of input. An
// error is printed to errOut as one line and the shell goes on.
func (s *Shell) Interactive(ctx context.Context, errOut io.Writer) error {
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
		if errors.Is(err, ErrQuit) {
			return nil
		}
		if err != nil {
			fmt.Fprintln(errOut, OneLine(err))
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

// OneLine renders an error as one line: "error: ..." with new lines folded.
func OneLine(err error) string {
	return "error: " + strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")
}
