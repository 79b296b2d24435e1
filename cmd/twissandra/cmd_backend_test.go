package main

import (
	"context"
	"io"
	"testing"
	"twissandra/ports/scan"
)

// The tools reach the stores' optional scanners: openBackend hands out the bare stores.
func TestOpenBackendKeepsScanners(t *testing.T) {
	for _, backend := range []string{"memory", "widerow"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			b, err := openBackend(context.Background(), testConfig(t, backend), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if err := b.close(); err != nil {
					t.Error(err)
				}
			}()
			assertScanners(t, b)
		})
	}
}

func assertScanners(t *testing.T, b *openedBackend) {
	t.Helper()
	for name, ok := range map[string]bool{
		"users":   is[scan.Users](b.stores.Users),
		"tweets":  is[scan.Tweets](b.stores.Tweets),
		"authors": is[scan.Authors](b.stores.Authors),
		"entries": is[scan.Entries](b.stores.Entries),
	} {
		if !ok {
			t.Errorf("the %s store hides its scanner", name)
		}
	}
}

func is[T any](v any) bool { _, ok := v.(T); return ok }
