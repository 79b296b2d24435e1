package teach

import (
	"context"
	"sync"
)

// NameClaims is the uniqueness race's sandbox (teaching.NameClaims) in a map of its own. Each call
// holds the lock for itself only, so a read then a write are two steps another racer can come
// between, as two round trips to a database are.
type NameClaims struct {
	mu sync.Mutex
	m  map[string]string
}

// maxClaims empties the sandbox when it grows past this many names: nothing in it is kept.
const maxClaims = 100000

// NewNameClaims returns an empty sandbox.
func NewNameClaims() *NameClaims { return &NameClaims{m: map[string]string{}} }

// Lookup implements teaching.NameClaims.
func (c *NameClaims) Lookup(ctx context.Context, name string) (string, bool, error) {
	if err := done(ctx); err != nil {
		return "", false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	owner, ok := c.m[name]
	return owner, ok, nil
}

// Write implements teaching.NameClaims.
func (c *NameClaims) Write(ctx context.Context, name, owner string) error {
	if err := done(ctx); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.put(name, owner)
	return nil
}

// WriteIfAbsent implements teaching.NameClaims.
func (c *NameClaims) WriteIfAbsent(ctx context.Context, name, owner string) (bool, error) {
	if err := done(ctx); err != nil {
		return false, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[name]; ok {
		return false, nil
	}
	c.put(name, owner)
	return true, nil
}

// Release implements teaching.NameClaims.
func (c *NameClaims) Release(ctx context.Context, name string) error {
	if err := done(ctx); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, name)
	return nil
}

func (c *NameClaims) put(name, owner string) {
	if len(c.m) >= maxClaims {
		clear(c.m)
	}
	c.m[name] = owner
}

// Statements implements teaching.NameClaims.
func (c *NameClaims) Statements() (read, write, lwt string) {
	return "owner, ok := claims[name] (one lock held for the read)",
		"claims[name] = owner (one lock held for the write)",
		"if _, ok := claims[name]; !ok { claims[name] = owner } (the check and the write under one lock)"
}
