package main

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"twissandra/ports/teaching"
)

// The --console-* flags reach the console the server wires, and its Info states them: an
// operator's bound is the one the page and GET /api/v1/console state. A zero flag keeps the
// console's own default.
func TestConsoleFlagsReachTheConsole(t *testing.T) {
	for _, tc := range []struct {
		args         []string
		perMin, all  int
		idle         time.Duration
		defaultsKept bool
	}{
		{args: []string{"--console-statements", "7", "--console-all-statements", "700", "--console-idle", "2m"}, perMin: 7, all: 700, idle: 2 * time.Minute},
		{args: nil, defaultsKept: true},
	} {
		cfg := &Config{}
		fs := newFlagSet("serve", io.Discard)
		bindFlags(fs, cfg)
		bindServeFlags(fs, cfg)
		if err := loadConfig(fs, append([]string{"--backend", "widerow", "--data-dir", t.TempDir()}, tc.args...), cfg); err != nil {
			t.Fatal(err)
		}
		logger := slog.New(slog.DiscardHandler)
		opts, err := coreOptions(cfg, logger)
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			fx.In
			Consoles []teaching.Console `group:"consoles"`
		}
		app := fx.New(append(opts, teachingModule(cfg), fx.Populate(&in))...)
		if err := app.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		if len(in.Consoles) != 1 || in.Consoles[0].Language() != "cli" {
			t.Fatalf("consoles wired on widerow: %d", len(in.Consoles))
		}
		info, err := in.Consoles[0].Info(context.Background(), "user:ann")
		_ = app.Stop(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		b := info.Bounds
		if tc.defaultsKept {
			if b.StatementsPerMinute <= 0 || b.Idle <= 0 {
				t.Errorf("no flag: the console's defaults are lost: %+v", b)
			}
			continue
		}
		if b.StatementsPerMinute != tc.perMin || b.ClusterStatementsPerMinute != tc.all || b.Idle != tc.idle {
			t.Errorf("%v: the console states %+v", tc.args, b)
		}
	}
	cfg := &Config{}
	fs := newFlagSet("serve", io.Discard)
	bindFlags(fs, cfg)
	bindServeFlags(fs, cfg)
	if err := loadConfig(fs, []string{"--console-idle", "-1m"}, cfg); err == nil || !strings.Contains(err.Error(), "--console-") {
		t.Errorf("a negative bound: %v", err)
	}
}
