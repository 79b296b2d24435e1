package models

import (
	"strings"
	"testing"
	"time"
)

// The inspector says the running engine's grace and how often it compacts, in words.
func TestCompactText(t *testing.T) {
	for every, want := range map[time.Duration]string{time.Hour: "every 1h ", 90 * time.Minute: "every 1h30m ", 10 * time.Minute: "every 10m ",
		30 * time.Second: "every 30s ", 10 * time.Hour: "every 10h "} {
		if got := compactText(every); !strings.Contains(got, want) {
			t.Errorf("compactText(%v) = %q, want %q", every, got, want)
		}
	}
	if got := graceText(3600); got != "3600 s" {
		t.Errorf("graceText(3600) = %q", got)
	}
	if got := graceText(86400); got != "86400 s, 1 day" {
		t.Errorf("graceText(86400) = %q", got)
	}
}
