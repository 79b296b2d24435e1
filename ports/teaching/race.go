package teaching

// The uniqueness race of the teaching views: n concurrent sign-ups of one name, first as the
// 2014 Twissandra made them (read the name, then write it if it was free), then with the
// store's lightweight transaction. Without the transaction several sign-ups can read "free"
// before any of them writes, and every one of them is told it won; the last write silently
// replaces the others. With it, exactly one wins.

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
)

// MaxRacers bounds n.
const MaxRacers = 200

// RaceWay is the outcome of one way of signing up: how many racers were told they won, which owner
// the store holds at the end, and how long the race took.
type RaceWay struct {
	Key       string // the name raced for in the sandbox, released at the end
	Winners   int
	Owner     string // the racer the store names at the end
	Owners    []string
	Errors    int
	Took      time.Duration
	Statement string
}

// RaceResult is a race run both ways on one name.
type RaceResult struct {
	Name   string
	Racers int
	// Hashed says whether each racer hashed a password between its read and its write.
	Hashed        bool
	ReadThenWrite RaceWay
	LWT           RaceWay
}

// Race races n sign-ups of name both ways in claims, each way on a name of its own (name plus a
// run ID, released when the way is over), all racers released at once by a start barrier.
//
// The window of the read-then-write race is whatever lies between a racer's read and its
// write. With hasher nil nothing does: the window is the store's own round trip (a network
// round trip on cql3, a few microseconds in process). With a hasher each racer hashes a
// password there, as this application's sign-up does before it writes (the 2014 code kept
// passwords in plain text), and in the LWT way before its one statement.
func Race(ctx context.Context, claims NameClaims, hasher *domain.PasswordHasher, name string, n int) (RaceResult, error) {
	if n < 2 || n > MaxRacers {
		return RaceResult{}, domain.Invalid("racers", "must be from 2 to %d", MaxRacers)
	}
	if err := domain.ValidateUsername(name); err != nil {
		return RaceResult{}, err
	}
	hash := func(me string) error {
		if hasher == nil {
			return nil
		}
		_, err := hasher.Hash("password of " + me)
		return err
	}
	read, write, lwt := claims.Statements()
	run := uuid.NewString()[:8]
	res := RaceResult{Name: name, Racers: n, Hashed: hasher != nil}
	var err error
	res.ReadThenWrite, err = raceOneWay(ctx, claims, name+"#rtw-"+run, n, func(ctx context.Context, key, me string) (bool, error) {
		if _, found, err := claims.Lookup(ctx, key); err != nil || found {
			return false, err
		}
		if err := hash(me); err != nil {
			return false, err
		}
		return true, claims.Write(ctx, key, me)
	})
	if err != nil {
		return res, err
	}
	res.ReadThenWrite.Statement = read + "; if nothing came back, "
	if res.Hashed {
		res.ReadThenWrite.Statement += "hash the password, then "
	}
	res.ReadThenWrite.Statement += write
	res.LWT, err = raceOneWay(ctx, claims, name+"#lwt-"+run, n, func(ctx context.Context, key, me string) (bool, error) {
		if err := hash(me); err != nil {
			return false, err
		}
		return claims.WriteIfAbsent(ctx, key, me)
	})
	res.LWT.Statement = lwt
	return res, err
}

func raceOneWay(ctx context.Context, claims NameClaims, key string, n int, signUp func(ctx context.Context, key, me string) (bool, error)) (RaceWay, error) {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		way   = RaceWay{Key: key}
		start = make(chan struct{})
	)
	for i := range n {
		me := fmt.Sprintf("racer %d", i+1)
		wg.Go(func() {
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
		})
	}
	began := time.Now()
	close(start)
	wg.Wait()
	way.Took = time.Since(began)
	// The clean-up does not depend on the client: a visitor who leaves mid-race must not leave
	// the sandbox's row behind. It keeps the request's values (its operation log), not its end.
	cleanup, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	owner, _, err := claims.Lookup(cleanup, key)
	way.Owner = owner
	err = errors.Join(err, claims.Release(cleanup, key))
	if cerr := ctx.Err(); cerr != nil {
		return way, errors.Join(cerr, err) // the client left: context.Canceled says so
	}
	if way.Errors == n {
		return way, fmt.Errorf("every sign-up failed: %w", domain.ErrUnavailable)
	}
	return way, err
}

// releaseTimeout bounds the clean-up of one way of the race.
const releaseTimeout = 10 * time.Second
