package main

import (
	"context"
	"io"
	"sync"
	"testing"
)

// server is one `twissandra serve` run in this process.
type server struct {
	addr string
	stop func() // stops it and waits; safe to call twice
}

// startServe runs serve on the memory backend with args added, and returns its address; it
// stops when the test ends.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	return startServer(t, append([]string{"--backend", "memory"}, args...)...).addr
}

// startServer runs serve with args (after --addr and a quick --bcrypt-cost), and waits until it is
// healthy. It stops when the test ends, if stop was not called before; a non-zero exit fails
// the test.
func startServer(t *testing.T, args ...string) server {
	t.Helper()
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var stderr syncBuffer
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", addr, "--bcrypt-cost", "4", "--warm-lessons=false"}, args...), io.Discard, &stderr)
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if code := <-done; code != 0 {
				t.Errorf("serve exited %d: %s", code, stderr.String())
			}
		})
	}
	t.Cleanup(stop)
	waitHealthy(t, "http://"+addr+"/healthz", done)
	return server{addr: addr, stop: stop}
}
