package seed

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/internal/parallel"
	"twissandra/ports"
)

// FanName is the username of the i-th follower Celebrity makes for name.
func FanName(name string, i int) string { return fmt.Sprintf("%s_f%07d", name, i) }

// maxCelebrityName leaves room for FanName's suffix within a username's 30 characters.
const maxCelebrityName = domain.MaxUsernameLen - 9

// MaxCelebrityFans is the most followers Celebrity makes (FanName's seven digits).
const MaxCelebrityFans = 10_000_000

// Celebrity makes name, with the password Password, followed by followers users
// (FanName(name, 0) ...), each made if missing. It is resumable: a second run, or one with more
// followers, makes only what is missing. The follows go through the store alone, without the
// use case's backfill (a fan's timeline would copy the author's newest tweets). progress, when
// set, is called after each follower (from several goroutines).
func Celebrity(ctx context.Context, users ports.UserStore, name string, followers, concurrency int, progress func()) error {
	if err := domain.ValidateUsername(name); err != nil {
		return err
	}
	if len(name) > maxCelebrityName {
		return domain.Invalid("celebrity", "must be at most %d characters, to leave room for the followers' names", maxCelebrityName)
	}
	if followers < 0 || followers > MaxCelebrityFans {
		return domain.Invalid("followers", "must be 0 to %d", MaxCelebrityFans)
	}
	since := time.Now().UTC().Truncate(time.Millisecond)
	if err := createUser(ctx, users, celebrityUser(name, since)); err != nil {
		return err
	}
	return parallel.For(ctx, followers, workers(concurrency), func(ctx context.Context, i int) error {
		fan := FanName(name, i)
		err := createUser(ctx, users, celebrityUser(fan, since))
		if err == nil {
			err = users.Follow(ctx, fan, name, since)
		}
		if err != nil {
			return fmt.Errorf("follower %s: %w", fan, err)
		}
		if progress != nil {
			progress()
		}
		return nil
	})
}

// celebrityUser is the user name is made as: its ID derived from the name, so that a re-run
// finds the same user.
func celebrityUser(name string, at time.Time) domain.User {
	return domain.User{ID: uuid.NewSHA1(uuid.NameSpaceOID, []byte("twissandra-celebrity/"+name)), Username: name, PasswordHash: []byte(passwordHash), CreatedAt: at}
}
