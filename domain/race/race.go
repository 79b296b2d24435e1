// Package race runs the uniqueness race of the teaching views: n concurrent sign-ups of one
// name, first as the 2014 Twissandra made them (read the name, then write it if it was free),
// then with the store's lightweight transaction. Without the transaction several sign-ups can
// read "free" before any of them writes, and every one of them is told it won; the last write
// silently replaces the others. With it, exactly one wins.
package race

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports"
)

// MaxRacers bounds n.
const MaxRacers = 200

// Way is the outcome of one way of signing up: how many racers were told they won, which owner
// the store holds at the end, and how long the race took.
type Way struct {
	Winners   int
	Owner     string // the racer the store names at the end
	Owners    []string
	Errors    int
	Took      time.Duration
	Statement string
}

// Result is a race run both ways on one name.
type Result struct {
	Name          string
	Racers        int
	ReadThenWrite Way
	LWT           Way
}

// Run races n sign-ups of name both ways in claims, each way on a name of its own (name plus a
// run ID), all racers released at once by a start barrier. Each racer hashes its password with
// hasher as a sign-up does: the read-then-write way between its read and its write, as the
// 2014 code did, the LWT way before its one statement.
func Run(ctx context.Context, claims ports.NameClaims, hasher *domain.PasswordHasher, name string, n int) (Result, error) {
	if n < 2 || n > MaxRacers {
		return Result{}, domain.Invalid("racers", "must be from 2 to %d", MaxRacers)
	}
	if err := domain.ValidateUsername(name); err != nil {
		return Result{}, err
	}
	read, write, lwt := claims.Statements()
	run := uuid.NewString()[:8]
	res := Result{Name: name, Racers: n}
	var err error
	res.ReadThenWrite, err = race(ctx, claims, name+"#rtw-"+run, n, func(ctx context.Context, key, me string) (bool, error) {
		if _, found, err := claims.Lookup(ctx, key); err != nil || found {
			return false, err
		}
		if _, err := hasher.Hash("password of " + me); err != nil {
			return false, err
		}
		return true, claims.Write(ctx, key, me)
	})
	if err != nil {
		return res, err
	}
	res.ReadThenWrite.Statement = read + "; if nothing came back, hash the password, then " + write
	res.LWT, err = race(ctx, claims, name+"#lwt-"+run, n, func(ctx context.Context, key, me string) (bool, error) {
		if _, err := hasher.Hash("password of " + me); err != nil {
			return false, err
		}
		return claims.WriteIfAbsent(ctx, key, me)
	})
	res.LWT.Statement = lwt
	return res, err
}

func race(ctx context.Context, claims ports.NameClaims, key string, n int, signUp func(ctx context.Context, key, me string) (bool, error)) (Way, error) {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		way   Way
		start = make(chan struct{})
	)
	for i := range n {
		me := fmt.Sprintf("racer %d", i+1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			won, err := signUp(ctx, key, me)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				way.Errors++
			case won:
				way.Winners++
				way.Owners = append(way.Owners, me)
			}
		}()
	}
	began := time.Now()
	close(start)
	wg.Wait()
	way.Took = time.Since(began)
	owner, _, err := claims.Lookup(ctx, key)
	way.Owner = owner
	if way.Errors == n {
		return way, fmt.Errorf("every sign-up failed: %w", domain.ErrUnavailable)
	}
	return way, err
}
