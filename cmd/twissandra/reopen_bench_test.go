package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/widerow"
	"twissandra/domain"
	"twissandra/domain/social"
)

// reexecEnv makes the test binary act as the twissandra binary, so a benchmark can run serve
// as a child process of its own and measure it from outside (time to ready, resident memory).
const reexecEnv = "TWISSANDRA_TEST_REEXEC"

func TestMain(m *testing.M) {
	if os.Getenv(reexecEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// fillTimeline writes a user "reader" whose Timeline row holds n columns, in batches.
func fillTimeline(b *testing.B, dataDir string, n int) {
	b.Helper()
	node, err := widerow.OpenNode(widerow.Config{DataDir: dataDir, CommitLogSync: "periodic", CommitLogSyncPeriod: time.Second}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer node.Close()
	s := widerow.NewStore(node)
	svc := social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	ctx := context.Background()
	if _, err := svc.SignUp(ctx, "reader", "password1"); err != nil {
		b.Fatal(err)
	}
	var tweets []domain.Tweet
	for i := 0; i < 100; i++ {
		t, err := svc.Post(ctx, "reader", fmt.Sprintf("tweet %d", i))
		if err != nil {
			b.Fatal(err)
		}
		tweets = append(tweets, t)
	}
	base := tweets[0].Time() - int64(n)
	const batch = 20000
	for done := 0; done < n; done += batch {
		entries := make([]domain.LineEntry, 0, batch)
		for i := done; i < min(done+batch, n); i++ {
			entries = append(entries, domain.LineEntry{Time: base + int64(i), TweetID: tweets[i%len(tweets)].ID})
		}
		if err := s.AppendEntries(ctx, domain.TimelineOf("reader"), entries); err != nil {
			b.Fatal(err)
		}
	}
	if err := node.Sync(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkReopen1e6 reopens a data dir whose timeline row holds 1e6 columns: it reports how
// long serve takes to answer /readyz, and its peak resident memory while it pages through the
// timeline. Targets: under 1 s to ready, under 256 MiB resident.
func BenchmarkReopen1e6(b *testing.B) {
	dataDir := b.TempDir()
	fillTimeline(b, dataDir, 1_000_000)
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	var readyMs, peakMiB float64
	for i := 0; i < b.N; i++ {
		ms, rss := reopenOnce(b, exe, dataDir)
		readyMs += ms
		peakMiB = max(peakMiB, rss)
	}
	b.ReportMetric(readyMs/float64(b.N), "ms-to-ready")
	b.ReportMetric(peakMiB, "peak-RSS-MiB")
}

func reopenOnce(b *testing.B, exe, dataDir string) (readyMs, peakMiB float64) {
	b.Helper()
	addr := freeAddr(b)
	cmd := exec.Command(exe, "serve", "--data-dir", dataDir, "--addr", addr, "--log-level", "warn")
	cmd.Env = append(os.Environ(), reexecEnv+"=1")
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(os.Interrupt)
		_ = cmd.Wait()
	}()
	base := "http://" + addr
	for {
		resp, err := http.Get(base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Since(start) > 30*time.Second {
			b.Fatal("serve never became ready")
		}
		time.Sleep(5 * time.Millisecond) // polling interval
	}
	readyMs = float64(time.Since(start).Microseconds()) / 1000

	resp, err := http.Post(base+"/api/v1/sessions", "application/json", strings.NewReader(`{"username":"reader","password":"password1"}`))
	if err != nil {
		b.Fatal(err)
	}
	var sess struct{ Token string }
	_ = json.NewDecoder(resp.Body).Decode(&sess)
	resp.Body.Close()
	next := ""
	for page := 0; page < 200; page++ {
		req, _ := http.NewRequest("GET", base+"/api/v1/timeline?limit=200&start="+next, nil)
		req.Header.Set("Authorization", "Bearer "+sess.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var p struct{ Next *string }
		_ = json.NewDecoder(resp.Body).Decode(&p)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || p.Next == nil {
			b.Fatalf("timeline page %d: status %d", page, resp.StatusCode)
		}
		next = *p.Next
	}
	return readyMs, vmHWM(b, cmd.Process.Pid)
}

// vmHWM reads a process's peak resident set size in MiB from /proc.
func vmHWM(b *testing.B, pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	b.Fatal("no VmHWM")
	return 0
}
