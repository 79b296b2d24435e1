package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
)

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

// OneLine renders an error as one line: "error: ..." with new lines folded.
func OneLine(err error) string {
	return "error: " + strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")
}
