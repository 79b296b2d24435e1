package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"
)

// TestFxGraphs validates the dependency graph of serve on every backend.
func TestFxGraphs(t *testing.T) {
	for _, backend := range Backends {
		t.Run(backend, func(t *testing.T) {
			cfg := testConfig(t, backend)
			opts, err := coreOptions(cfg, newLogger(cfg, io.Discard))
			if err != nil {
				t.Fatal(err)
			}
			if err := fx.ValidateApp(append(append(opts, serverOptions(cfg)...), fx.Invoke(startHTTP))...); err != nil {
				t.Fatalf("fx graph of %s: %v", backend, err)
			}
		})
	}
}

func testConfig(t testing.TB, backend string) *Config {
	t.Helper()
	cfg := &Config{}
	fs := newFlagSet("serve", io.Discard)
	bindFlags(fs, cfg)
	bindServeFlags(fs, cfg)
	if err := parseConfig(fs, []string{"--backend", backend, "--data-dir", t.TempDir(), "--addr", "127.0.0.1:0", "--bcrypt-cost", "4"}, func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestConfigFlagsWinOverEnvironment(t *testing.T) {
	cfg := &Config{}
	fs := newFlagSet("serve", io.Discard)
	bindFlags(fs, cfg)
	bindServeFlags(fs, cfg)
	env := map[string]string{
		"TWISSANDRA_BACKEND":     "memory",
		"TWISSANDRA_ADDR":        "127.0.0.1:9999",
		"TWISSANDRA_CQL_HOSTS":   "10.0.0.1,10.0.0.2",
		"TWISSANDRA_CQL_TIMEOUT": "7s",
		"TWISSANDRA_BCRYPT_COST": "5",
	}
	if err := parseConfig(fs, []string{"--addr", "127.0.0.1:7777"}, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if cfg.Backend != "memory" || cfg.Addr != "127.0.0.1:7777" || !slices.Equal(cfg.CQL.Hosts, []string{"10.0.0.1", "10.0.0.2"}) || cfg.CQL.Timeout != 7*time.Second || cfg.BcryptCost != 5 {
		t.Fatalf("config = %+v", cfg)
	}
}

func TestBadInvocationsExitNonZeroWithOneLine(t *testing.T) {
	cases := []struct {
		args []string
		env  string
		code int
	}{
		{[]string{"frobnicate"}, "", 2},
		{[]string{"serve", "--backend", "mysql"}, "", 1},
		{[]string{"serve", "--no-such-flag"}, "", 2},
		{[]string{"serve", "--backend", "memory", "--bcrypt-cost", "99"}, "", 1},
		{[]string{"serve", "--backend", "memory", "--token-secret", "short"}, "", 1},
		{[]string{"serve", "--backend", "memory", "extra"}, "", 1},
		{[]string{"serve", "--backend", "memory", "--addr", "nonsense"}, "", 1},
		{[]string{"serve", "--backend", "memory", "--pprof-addr", "nonsense"}, "", 1},
		{[]string{"serve", "--backend", "memory", "--metrics-addr", "nonsense"}, "", 1},
		{[]string{"serve", "--backend", "memory", "--gc-percent", "-5"}, "", 1},
		{[]string{"serve", "--backend", "memory", "--row-cache-mib", "-1"}, "", 1},
		{[]string{"serve", "--backend", "memory", "--gc-grace-seconds", "0"}, "", 1},
		{[]string{"serve", "--backend", "memory", "--compaction-interval", "-1s"}, "", 1},
	}
	for _, tc := range cases {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), tc.args, &stdout, &stderr)
		if code != tc.code {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tc.args, code, tc.code, stderr.String())
		}
		if tc.code == 1 && strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
			t.Errorf("%v: stderr is not one line: %q", tc.args, stderr.String())
		}
	}
}

func TestGCPercent(t *testing.T) {
	cfg := &Config{}
	fs := newFlagSet("serve", io.Discard)
	bindFlags(fs, cfg)
	bindServeFlags(fs, cfg)
	if err := parseConfig(fs, nil, func(k string) string { return map[string]string{"TWISSANDRA_GC_PERCENT": "250"}[k] }); err != nil {
		t.Fatal(err)
	}
	if cfg.GCPercent != 250 {
		t.Fatalf("TWISSANDRA_GC_PERCENT=250 gave %d", cfg.GCPercent)
	}
	// SetGCPercent returns the target it replaces: setting the value we expect reads it back.
	orig := debug.SetGCPercent(100)
	debug.SetGCPercent(orig)
	restore := applyGCPercent(cfg)
	if got := debug.SetGCPercent(250); got != 250 {
		t.Errorf("after applying 250 the collector's target was %d", got)
	}
	restore()
	if got := debug.SetGCPercent(orig); got != orig {
		t.Errorf("restore left %d, want %d", got, orig)
	}
	applyGCPercent(&Config{GCPercent: 0})() // 0 leaves the runtime's setting
	if got := debug.SetGCPercent(orig); got != orig {
		t.Errorf("--gc-percent 0 changed the target from %d to %d", orig, got)
	}
	fs = newFlagSet("serve", io.Discard)
	def := &Config{}
	bindServeFlags(fs, def)
	if def.GCPercent != defaultGCPercent {
		t.Errorf("default --gc-percent %d, want %d", def.GCPercent, defaultGCPercent)
	}
}

func TestVersion(t *testing.T) {
	var out bytes.Buffer
	if code := run(context.Background(), []string{"--version"}, &out, io.Discard); code != 0 || !strings.HasPrefix(out.String(), "twissandra ") {
		t.Fatalf("--version: %d %q", code, out.String())
	}
}

// TestServeStartsAndStops runs serve on memory, checks /healthz, then cancels it like SIGTERM.
func TestServeStartsAndStops(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var stderr syncBuffer
	go func() {
		done <- run(ctx, []string{"serve", "--backend", "memory", "--addr", addr, "--bcrypt-cost", "4"}, io.Discard, &stderr)
	}()
	waitHealthy(t, "http://"+addr+"/healthz", done)
	// The comparator lab has a scratch keyspace of its own, so it is there on the memory backend.
	resp, err := http.Get("http://" + addr + "/models/lab")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `id="lab-form"`) {
		t.Errorf("the lab on the memory backend: %d\n%s", resp.StatusCode, body)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d: %s", code, stderr.String())
	}
}

// TestServeFailsOnTakenPort: the listener is bound in OnStart, so a taken port fails start-up.
func TestServeFailsOnTakenPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var stderr syncBuffer
	code := run(context.Background(), []string{"serve", "--backend", "memory", "--addr", ln.Addr().String()}, io.Discard, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "address already in use") {
		t.Fatalf("serve on a taken port: exit %d, stderr %q", code, stderr.String())
	}
}

func freeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// waitHealthy polls url until it answers 200, the server exits, or a deadline passes.
func waitHealthy(t *testing.T, url string, exited <-chan int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case code := <-exited:
			t.Fatalf("server exited early with %d", code)
		default:
		}
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(20 * time.Millisecond) // polling interval, not synchronisation
	}
	t.Fatalf("%s never answered 200", url)
}

// TestServeRefusesADataDirNotItsOwn: pointing --data-dir at some other folder fails start-up
// with one line and leaves the folder as it was.
func TestServeRefusesADataDirNotItsOwn(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	code := run(context.Background(), []string{"serve", "--data-dir", dir, "--addr", freeAddr(t)}, io.Discard, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "not a twissandra data dir") || strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
		t.Fatalf("serve on a foreign dir: exit %d, stderr %q; want one line naming the problem", code, stderr.String())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the foreign dir was changed: %v", entries)
	}
}
