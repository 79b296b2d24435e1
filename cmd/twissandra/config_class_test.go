package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"twissandra/web/teach"
)

// The bounds of a class are flags: a gate's figures given replace its defaults and leave the
// others (a variable stands in for a flag), and the access's and the query lab's figures are
// read; a figure that is no whole number of 1 or more, or no figure of a gate, is refused.
func TestClassBoundsAreFlags(t *testing.T) {
	t.Parallel()
	cfg := &Config{}
	fs := newFlagSet("serve", io.Discard)
	bindFlags(fs, cfg)
	bindServeFlags(fs, cfg)
	env := map[string]string{"TWISSANDRA_GATE_LAB": "minute=30"}
	args := []string{"--gate-race", "address=900,total=3", "--signups-per-address", "400", "--login-failures-per-address", "120", "--query-lab-budget", "9"}
	if err := parseConfig(fs, args, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if err := cfg.validate(); err != nil {
		t.Fatal(err)
	}
	if want := (teach.GateLimits{Total: 3, PerAddress: 900}); cfg.Gates.Race != want {
		t.Errorf("--gate-race: %+v, want %+v", cfg.Gates.Race, want)
	}
	def := teach.DefaultGates()
	if got := cfg.Gates.Race.Or(def.Race); got.PerMinute != def.Race.PerMinute || got.PerLearner != def.Race.PerLearner {
		t.Errorf("the race's figures not given: %+v, want the defaults' %+v", got, def.Race)
	}
	if cfg.Gates.Lab.PerMinute != 30 || cfg.Gates.Lab.Total != 0 {
		t.Errorf("TWISSANDRA_GATE_LAB: %+v", cfg.Gates.Lab)
	}
	if cfg.Access.SignUpsPerAddress != 400 || cfg.Access.LoginFailuresPerAddress != 120 || cfg.QueryLabBudget != 9 {
		t.Errorf("access %+v, query lab budget %d", cfg.Access, cfg.QueryLabBudget)
	}
	if got := fs.Lookup("gate-trials").DefValue; got != "total=cores-1,learner=1,minute=10,address=400" {
		t.Errorf("--gate-trials's default: %q", got)
	}
	for _, bad := range []string{"total=0", "speed=3", "total", "minute=x"} {
		fs := newFlagSet("serve", io.Discard)
		bindFlags(fs, &Config{})
		bindServeFlags(fs, &Config{})
		err := parseConfig(fs, []string{"--gate-race", bad}, func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), "gate-race") {
			t.Errorf("--gate-race %s: %v, want a refusal naming the flag", bad, err)
		}
	}
}

// serve's --gate-race reaches the race's gate: the page states the figures given.
func TestServeStatesTheConfiguredGate(t *testing.T) {
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var stderr syncBuffer
	go func() {
		done <- run(ctx, []string{"serve", "--backend", "memory", "--addr", addr, "--bcrypt-cost", "4", "--gate-race", "total=3,minute=7,address=250"}, io.Discard, &stderr)
	}()
	waitHealthy(t, "http://"+addr+"/healthz", done)
	resp, err := http.Get("http://" + addr + "/models/race")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	want := "At most 3 run at once on this server; from one learner (signed in, else a browser&#39;s session) 1 at a time and 7 a minute; from one address, all its learners together, 250 a minute."
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), want) {
		t.Errorf("the race's page: %d, lacks %q", resp.StatusCode, want)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("serve exited %d: %s", code, stderr.String())
	}
}
