package cql3

import (
	"strings"
	"testing"
)

// The scratch keyspace's name stays within CQL's 48 characters and apart from the keyspace's.
func TestLabKeyspace(t *testing.T) {
	t.Parallel()
	for _, ks := range []string{"twissandra", strings.Repeat("k", 48)} {
		if got := LabKeyspace(ks); len(got) > 48 || got == ks || !strings.HasSuffix(got, "_lab") {
			t.Errorf("LabKeyspace(%q) = %q", ks, got)
		}
	}
}
