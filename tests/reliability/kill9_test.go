package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// buildServer builds the twissandra binary into a temporary directory.
func buildServer(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the server: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "twissandra")
	cmd := exec.Command(goBin, "build", "-o", bin, "twissandra/cmd/twissandra")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServe runs `serve` on widerow in dataDir, batch commit log, on a free loopback port and
// returns the process and its base URL once it answers /healthz.
func startServe(t *testing.T, bin, dataDir string) (*exec.Cmd, string) {
	t.Helper()
	return startServeArgs(t, bin, "--backend", "widerow", "--data-dir", dataDir, "--commitlog-sync", "batch", "--log-level", "info")
}

func TestKill9ServeKeepsAcknowledgedTweets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it: not in -short")
	}
	bin := buildServer(t)
	dataDir := filepath.Join(t.TempDir(), "data")
	cmd, base := startServe(t, bin, dataDir)
	c := &client{base: base, http: &http.Client{Timeout: 10 * time.Second}}

	const writers, killAfter = 8, 400
	tokens := make([]string, writers)
	for w := range writers {
		tokens[w] = c.user(t, userName(w))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var acked atomic.Int64
	ackedIDs := make([][]string, writers)
	killed := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				status, body, err := c.call(http.MethodPost, "/api/v1/tweets", map[string]string{"body": fmt.Sprintf("%s #%d", userName(w), i)}, tokens[w])
				if err != nil {
					return // the server is gone
				}
				if status != http.StatusCreated {
					continue
				}
				var tw tweet
				if json.Unmarshal(body, &tw) != nil || tw.ID == "" {
					continue
				}
				ackedIDs[w] = append(ackedIDs[w], tw.ID)
				if acked.Add(1) == killAfter {
					once.Do(func() {
						if err := cmd.Process.Kill(); err != nil { // SIGKILL
							t.Error(err)
						}
						close(killed)
					})
				}
			}
		})
	}
	select {
	case <-killed:
	case <-ctx.Done():
		t.Fatalf("only %d writes acknowledged before the deadline", acked.Load())
	}
	wg.Wait()
	_ = cmd.Wait()
	t.Logf("killed serve with -9 after %d acknowledged tweets (%d in all)", killAfter, acked.Load())

	_, base = startServe(t, bin, dataDir)
	c = &client{base: base, http: &http.Client{Timeout: 10 * time.Second}}
	lost := 0
	for w := range writers {
		inLine := map[string]bool{}
		for _, tw := range c.line(t, "/api/v1/users/"+userName(w)+"/tweets", "") {
			inLine[tw.ID] = true
		}
		for _, id := range ackedIDs[w] {
			status, body, err := c.call(http.MethodGet, "/api/v1/tweets/"+id, nil, "")
			if err != nil || status != http.StatusOK {
				lost++
				t.Errorf("acknowledged tweet %s of %s: %d %s %v", id, userName(w), status, body, err)
			}
			if !inLine[id] {
				t.Errorf("acknowledged tweet %s is missing from %s's userline", id, userName(w))
			}
		}
	}
	if lost > 0 {
		t.Fatalf("%d of %d acknowledged tweets lost", lost, acked.Load())
	}
	if _, err := os.Stat(filepath.Join(dataDir, "widerow")); err != nil {
		t.Fatal(err)
	}
}
