package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/internal/testkit/cqltest"
	"twissandra/tools/bench"
	"twissandra/web"
)

// BenchmarkCQL3PageVersusRawSlice pairs the JSON API's pages of 40 on the cql3 backend (home
// timeline, public line) with the raw driver's slice of the same 40 rows of one partition,
// alternating rounds of 256 requests by 32 concurrent clients so that both see the same load,
// and reports each rate and their ratio (the target: the API at least 0.8x the raw slice).
// Between the two, the use case called in process (the same page, no HTTP) tells where the API
// loses what it loses: in the adapter and driver, or in HTTP and JSON.
// 8 authors of 30 tweets each, all followed by the reader.
//
//	TWISSANDRA_CQL_HOSTS=127.0.0.1 go test -run '^$' -bench CQL3PageVersusRawSlice -benchtime 10x ./cmd/twissandra/
//
// TWISSANDRA_BENCH_CLIENTS sets the concurrent clients (32; rounds stay about 256 requests).
func BenchmarkCQL3PageVersusRawSlice(b *testing.B) {
	store, rawSess := cqltest.Keyspace(b, "twissandra_test_bench_")
	ctx := context.Background()
	svc := social.New(store, store, store, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	srv, err := web.NewServer(web.Config{TokenSecret: []byte(strings.Repeat("k", 32))}, web.Deps{Social: svc, Access: social.NewAccess(svc, store, nil)})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv.Engine)
	b.Cleanup(ts.Close)
	if _, err := svc.SignUp(ctx, "reader", "password1"); err != nil {
		b.Fatal(err)
	}
	for a := range 8 {
		author := fmt.Sprintf("author%d", a)
		if _, err := svc.SignUp(ctx, author, "password1"); err != nil {
			b.Fatal(err)
		}
		if err := svc.Follow(ctx, "reader", author); err != nil {
			b.Fatal(err)
		}
		for i := range 30 {
			if _, err := svc.Post(ctx, author, fmt.Sprintf("tweet %d of %s, of some ordinary length for a tweet", i, author)); err != nil {
				b.Fatal(err)
			}
		}
	}
	resp, err := http.Post(ts.URL+"/api/v1/sessions", "application/json", strings.NewReader(`{"username":"reader","password":"password1"}`))
	if err != nil {
		b.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	token := strings.Split(strings.Split(string(body), `"token":"`)[1], `"`)[0]
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	get := func(path string) func() error {
		return func() error {
			req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("%s: %d", path, resp.StatusCode)
			}
			return nil
		}
	}
	day := time.Now().UTC().Truncate(24 * time.Hour)
	slice := func(table string, key any) func() error {
		stmt := "SELECT " + bench.RawPageColumns + " FROM " + table + " WHERE " +
			map[string]string{"timeline": "username", "public_line": "day"}[table] + " = ? LIMIT 40"
		return func() error { return bench.ReadRawPage(rawSess.Query(stmt, key), 40) }
	}
	clients, perClient := 32, 8
	if v, err := strconv.Atoi(os.Getenv("TWISSANDRA_BENCH_CLIENTS")); err == nil && v > 0 {
		clients, perClient = v, max(1, 256/v)
	}
	round := func(op func() error) time.Duration {
		var wg sync.WaitGroup
		errs := make(chan error, clients)
		start := time.Now()
		for range clients {
			wg.Go(func() {
				for range perClient {
					if err := op(); err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		elapsed := time.Since(start)
		select {
		case err := <-errs:
			b.Fatal(err)
		default:
		}
		return elapsed
	}
	page := func(read func() (social.TweetPage, error)) func() error {
		return func() error {
			p, err := read()
			if err == nil && len(p.Tweets) != 40 {
				err = fmt.Errorf("a page of %d tweets", len(p.Tweets))
			}
			return err
		}
	}
	pairs := []struct {
		name              string
		api, usecase, raw func() error
	}{
		{"timeline", get("/api/v1/timeline?limit=40"),
			page(func() (social.TweetPage, error) { return svc.Timeline(ctx, "reader", "", 40) }),
			slice("timeline", "reader")},
		{"public", get("/api/v1/public?limit=40"),
			page(func() (social.TweetPage, error) { return svc.PublicLine(ctx, "", 40) }),
			slice("public_line", day)},
	}
	for _, p := range pairs { // warm: prepared statements, connections
		round(p.api)
		round(p.usecase)
		round(p.raw)
	}
	b.ResetTimer()
	for _, p := range pairs {
		var tAPI, tUse, tRaw time.Duration
		for range b.N {
			tAPI += round(p.api)
			tUse += round(p.usecase)
			tRaw += round(p.raw)
		}
		n := float64(clients * perClient * b.N)
		b.ReportMetric(n/tAPI.Seconds(), p.name+"-api-pages/s")
		b.ReportMetric(n/tUse.Seconds(), p.name+"-usecase-pages/s")
		b.ReportMetric(n/tRaw.Seconds(), p.name+"-raw-slices/s")
		b.ReportMetric(tRaw.Seconds()/tAPI.Seconds(), p.name+"-ratio")
		b.ReportMetric(tRaw.Seconds()/tUse.Seconds(), p.name+"-usecase-ratio")
	}
}
