package social

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
)

// GateLimits bound an action anyone may ask for, in any Window: at most PerDevice from one
// device (a browser that logged in or signed up before; see Client), PerAddressDevices from the
// devices behind one address together, PerAddress from one address without a device, and
// PerServer on this server from everyone. The first three are counted in the store, so every
// server of a cluster counts the same; the last in the process.
type GateLimits struct {
	Window            time.Duration
	PerDevice         int
	PerAddressDevices int
	PerAddress        int
	PerServer         int
}

// SignUpLimits bound sign-ups: a classroom of 200 behind one address signs up within the
// window, a script making accounts by the thousand does not. Each sign-up is also a bcrypt hash,
// which the hasher runs on all but one core (domain.PasswordHasher).
var SignUpLimits = GateLimits{Window: 10 * time.Minute, PerDevice: 20, PerAddressDevices: 250, PerAddress: 250, PerServer: 1000}

// CommentLimits bound the blog's anonymous comments (each at most 2,000 characters).
var CommentLimits = GateLimits{Window: time.Minute, PerDevice: 10, PerAddressDevices: 120, PerAddress: 20, PerServer: 300}

// Gate admits an action under GateLimits. Every admitted action counts, for the whole window,
// unless it is undone (Pass.Undo: an action that failed, such as a comment on no entry, so that
// only what was done counts).
type Gate struct {
	what   string
	limits GateLimits
	tally  *tally
	server serverWindow
}

// NewGate makes a gate of what ("sign-up", "comment"), counted in the Access's store.
func (a *Access) NewGate(what string, l GateLimits) *Gate {
	return &Gate{what: what, limits: l, tally: a.tally, server: serverWindow{window: l.Window, limit: l.PerServer}}
}

// Admit counts one action of client, or refuses it with a *domain.RetryError
// (domain.ErrTooManyAttempts) saying when to try again.
func (g *Gate) Admit(ctx context.Context, client Client) (*Pass, error) {
	now := g.tally.clock.Now()
	if wait := g.server.take(now); wait > 0 {
		return nil, tooMany(g.what+"s on this server", wait)
	}
	_, addrKey := LoginKeys("", client.Addr)
	addr := strings.TrimPrefix(addrKey, "addr:")
	var cs []loginCounter
	if client.Device != "" {
		cs = []loginCounter{{g.what + "-device:" + client.Device, g.limits.PerDevice},
			{g.what + "-devices:" + addr, g.limits.PerAddressDevices}}
	} else {
		cs = []loginCounter{{g.what + "-addr:" + addr, g.limits.PerAddress}}
	}
	id, err := g.tally.take(ctx, cs, g.limits.Window, g.what+"s")
	if err != nil {
		g.server.give(now)
		return nil, err
	}
	return &Pass{gate: g, at: now, counters: cs, id: id}, nil
}

// Pass is one admitted action.
type Pass struct {
	gate     *Gate
	at       time.Time
	counters []loginCounter
	id       uuid.UUID
}

// Undo takes the action out of every count, for an action that was not done after all.
func (p *Pass) Undo(ctx context.Context) error {
	if p == nil {
		return nil
	}
	p.gate.server.give(p.at)
	return p.gate.tally.drop(ctx, p.counters, p.id)
}

// serverWindow counts one process's actions in a sliding window.
type serverWindow struct {
	mu     sync.Mutex
	window time.Duration
	limit  int
	times  []time.Time // oldest first
}

// take counts an action at now, or says how long until one would be counted.
func (w *serverWindow) take(now time.Time) time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	cut := 0
	for cut < len(w.times) && !w.times[cut].After(now.Add(-w.window)) {
		cut++
	}
	w.times = w.times[cut:]
	if len(w.times) >= w.limit {
		return w.times[0].Add(w.window).Sub(now)
	}
	w.times = append(w.times, now)
	return 0
}

// give takes back the action counted at now (refused by a count after this one).
func (w *serverWindow) give(now time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.times) - 1; i >= 0; i-- {
		if w.times[i].Equal(now) {
			w.times = append(w.times[:i], w.times[i+1:]...)
			return
		}
	}
}
