package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"twissandra/domain"
	"twissandra/internal/progress"
	"twissandra/tools/seed"
)

// seedCmd loads the articles' data and/or generates synthetic data through the ports.
func seedCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg := &Config{}
	fs := newFlagSet("seed", stderr)
	bindFlags(fs, cfg)
	articles := fs.Bool("articles", false, "load the seed articles' data: jericevans and ericflo (password "+strconv.Quote(seed.ArticlePassword)+"), ericflo following jericevans, jericevans' tweet, and the blog of \"WTF is a SuperColumn\"")
	o := seed.Options{}
	fs.IntVar(&o.Users, "users", 0, "generate this many users (with Zipf-distributed follower counts), each with the password "+strconv.Quote(seed.Password))
	fs.IntVar(&o.Tweets, "tweets", 0, "generate this many tweets, spread over --span")
	fs.DurationVar(&o.Span, "span", 720*time.Hour, "time the generated tweets are spread over, ending at --until")
	until := fs.String("until", "", "end of the span, RFC 3339 (default: now, to the hour); fix it to reproduce a data set")
	fs.Uint64Var(&o.Seed, "seed", 42, "random seed: the same seed, counts and --until give the same data")
	fs.Float64Var(&o.FollowSkew, "follow-skew", 1.2, "Zipf exponent of follower counts (> 1)")
	fs.IntVar(&o.Concurrency, "concurrency", 8, "posts in flight")
	celebrity := fs.String("celebrity", "", "make this user (password "+strconv.Quote(seed.Password)+") with --followers followers, NAME_f0000000 ...; resumable")
	fans := fs.Int("followers", 1_000_000, "followers of --celebrity")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := loadConfig(fs, args, cfg); err != nil {
		return err
	}
	if !*articles && o.Users == 0 && o.Tweets == 0 && *celebrity == "" {
		return errors.New("nothing to do: give --articles, --users N --tweets M and/or --celebrity NAME --followers N")
	}
	if *celebrity != "" {
		if err := domain.ValidateUsername(*celebrity); err != nil {
			return fmt.Errorf("--celebrity: %w", err)
		}
		if *fans < 0 || *fans > seed.MaxCelebrityFans {
			return fmt.Errorf("--followers %d: want 0 to %d", *fans, seed.MaxCelebrityFans)
		}
	}
	o.Until = time.Now().UTC().Truncate(time.Hour)
	if *until != "" {
		t, err := time.Parse(time.RFC3339, *until)
		if err != nil {
			return fmt.Errorf("--until: %w", err)
		}
		o.Until = t
	}
	b, err := openBackend(ctx, cfg, stderr)
	if err != nil {
		return err
	}
	err = func() error {
		if *articles {
			if err := seed.Articles(ctx, b.social, b.blog); err != nil {
				return err
			}
			fmt.Fprintln(stdout, "loaded the articles' data")
		}
		if *celebrity != "" {
			bar := progress.New(stderr, *quiet, int64(*fans), "followers")
			start := time.Now()
			err := seed.Celebrity(ctx, b.stores.Users, *celebrity, *fans, o.Concurrency, func() { bar.Add(1) })
			bar.Finish()
			if err != nil {
				return err
			}
			n, err := b.stores.Users.FollowerCount(ctx, *celebrity)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "%s has %d followers (made in %s)\n", *celebrity, n, time.Since(start).Round(time.Millisecond))
		}
		if o.Users == 0 && o.Tweets == 0 {
			return nil
		}
		bar := progress.New(stderr, *quiet, int64(o.Tweets), "tweets")
		o.Progress = func() { bar.Add(1) }
		start := time.Now()
		st, err := seed.Generate(ctx, o, b.stores.Users, b.social)
		bar.Finish()
		if err != nil {
			return err
		}
		d := time.Since(start)
		fmt.Fprintf(stdout, "generated %d users, %d follows (most followers: %d), %d tweets, %d line entries in %s (%.0f tweets/s)\n",
			st.Users, st.Follows, st.MaxFollower, st.Tweets, st.LineEntries, d.Round(time.Millisecond), float64(st.Tweets)/d.Seconds())
		return nil
	}()
	return errors.Join(err, b.close())
}
