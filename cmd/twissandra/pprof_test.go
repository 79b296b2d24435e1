package main

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
)

// serveBeside starts serve on the memory backend at addr with a second listener: flag names it
// at second. It stops when the test ends.
func serveBeside(t *testing.T, addr, flag, second string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var stderr syncBuffer
	go func() {
		done <- run(ctx, []string{"serve", "--backend", "memory", "--addr", addr, flag, second, "--log-level", "warn"}, io.Discard, &stderr)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
	})
	waitHealthy(t, "http://"+addr+"/readyz", done)
}

func httpGet(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// --pprof-addr serves Go's profiles on a listener of its own, and the API's address never does.
func TestPprofOnItsOwnListener(t *testing.T) {
	addr, paddr := freeAddr(t), freeAddr(t)
	serveBeside(t, addr, "--pprof-addr", paddr)
	if code, body := httpGet(t, "http://"+paddr+"/debug/pprof/"); code != 200 || !strings.Contains(body, "goroutine") {
		t.Fatalf("profiles listener: %d %.200s", code, body)
	}
	if code, _ := httpGet(t, "http://"+addr+"/debug/pprof/"); code != http.StatusNotFound {
		t.Fatalf("the API's address serves /debug/pprof/: %d", code)
	}
}

// --metrics-addr serves /metrics on a listener of its own, and the public address then does not.
func TestMetricsOnTheirOwnListener(t *testing.T) {
	addr, maddr := freeAddr(t), freeAddr(t)
	serveBeside(t, addr, "--metrics-addr", maddr)
	if code, body := httpGet(t, "http://"+maddr+"/metrics"); code != 200 || !strings.Contains(body, "go_goroutines") {
		t.Fatalf("metrics listener: %d %.200s", code, body)
	}
	if code, _ := httpGet(t, "http://"+addr+"/metrics"); code != http.StatusNotFound {
		t.Fatalf("the public address serves /metrics beside --metrics-addr: %d", code)
	}
}
