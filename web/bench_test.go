package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/adapters/memory"
	"twissandra/domain"
	"twissandra/domain/social"
)

// benchEnv is a server with 40 tweets on the public line, configured as serve configures it
// on the memory store (first pages of the public line cached between posts).
func benchEnv(b *testing.B, logger *slog.Logger) (*Server, []byte) {
	return benchEnvWith(b, logger, true)
}

func benchEnvWith(b *testing.B, logger *slog.Logger, cache bool) (*Server, []byte) {
	b.Helper()
	store := memory.New()
	svc := social.New(store, store, store, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	ctx := context.Background()
	if _, err := svc.SignUp(ctx, "jericevans", testPassword); err != nil {
		b.Fatal(err)
	}
	for i := range 40 {
		if _, err := svc.Post(ctx, "jericevans", "@ericflo thanks for Twissandra, it helps! #"+strconv.Itoa(i)); err != nil {
			b.Fatal(err)
		}
	}
	srv, err := NewServer(Config{TokenSecret: testSecret, CachePublicPages: cache}, Deps{Social: svc, Access: social.NewAccess(svc, memory.NewSessions(), nil), Logger: logger})
	if err != nil {
		b.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.Engine.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/api/v1/public?limit=40", nil))
	if rec.Code != http.StatusOK {
		b.Fatalf("public line: %d %s", rec.Code, rec.Body)
	}
	return srv, rec.Body.Bytes()
}

func benchServe(b *testing.B, h http.Handler, wantLen int) {
	req := httptest.NewRequest(http.MethodGet, "/api/v1/public?limit=40", nil)
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Body.Len() != wantLen {
			b.Fatalf("status %d, %d bytes", rec.Code, rec.Body.Len())
		}
	}
}

// BenchmarkPublicLineAPI is GET /api/v1/public?limit=40 through the whole engine: "quiet" with
// request logging disabled, "logged" with a JSON Info log written to io.Discard, both as serve
// runs on memory (the page served from the page cache between posts); "uncached" is "quiet"
// with the page cache off, so every request reads the stores and encodes the page (as on
// cql3, and as the first request after each post).
func BenchmarkPublicLineAPI(b *testing.B) {
	for _, bc := range []struct {
		name   string
		logger *slog.Logger
		cache  bool
	}{
		{"quiet", nil, true},
		{"logged", slog.New(slog.NewJSONHandler(io.Discard, nil)), true},
		{"uncached", nil, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			srv, body := benchEnvWith(b, bc.logger, bc.cache)
			b.SetBytes(int64(len(body)))
			benchServe(b, srv.Engine, len(body))
		})
	}
}

// BenchmarkBareGin serves the bytes the API returned from a bare gin engine: the floor the API
// is compared with.
func BenchmarkBareGin(b *testing.B) {
	_, body := benchEnv(b, nil)
	gin.SetMode(gin.ReleaseMode)
	bare := gin.New()
	bare.GET("/api/v1/public", func(c *gin.Context) { c.Data(http.StatusOK, jsonContentType, body) })
	b.SetBytes(int64(len(body)))
	benchServe(b, bare, len(body))
}

// seedFollowers creates author and n followers directly in the store (no bcrypt), each
// following author.
func seedFollowers(b *testing.B, store *memory.Store, author string, n int) {
	b.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	mk := func(name string) {
		if err := store.CreateUser(ctx, domain.User{ID: uuid.New(), Username: name, PasswordHash: []byte("x"), CreatedAt: now}); err != nil {
			b.Fatal(err)
		}
	}
	mk(author)
	for i := range n {
		name := "f" + strconv.Itoa(i)
		mk(name)
		if err := store.Follow(ctx, name, author, now); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPost is one tweet's fan-out through social.Service on the memory store.
func BenchmarkPost(b *testing.B) {
	for _, n := range []int{0, 100, 10000} {
		b.Run("followers="+strconv.Itoa(n), func(b *testing.B) {
			store := memory.New()
			svc := social.New(store, store, store, nil, nil)
			seedFollowers(b, store, "author", n)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := svc.Post(ctx, "author", "@ericflo thanks for Twissandra, it helps!"); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTimelinePage40 reads the first page of a timeline holding 200 tweets of 10 friends.
func BenchmarkTimelinePage40(b *testing.B) {
	store := memory.New()
	svc := social.New(store, store, store, nil, nil)
	ctx := context.Background()
	seedFollowers(b, store, "reader", 0)
	for i := range 10 {
		friend := "friend" + strconv.Itoa(i)
		seedFollowers(b, store, friend, 0)
		if err := svc.Follow(ctx, "reader", friend); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 200 {
		if _, err := svc.Post(ctx, "friend"+strconv.Itoa(i%10), "tweet "+strconv.Itoa(i)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		page, err := svc.Timeline(ctx, "reader", "", 40)
		if err != nil || len(page.Tweets) != 40 || page.Next == "" {
			b.Fatalf("page of %d, next %q, %v", len(page.Tweets), page.Next, err)
		}
	}
}

// BenchmarkPublicLineService is the service's share of BenchmarkPublicLineAPI: the same page
// read through social.Service without HTTP or JSON.
func BenchmarkPublicLineService(b *testing.B) {
	srv, _ := benchEnv(b, nil)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		page, err := srv.deps.Social.PublicLine(ctx, "", 40)
		if err != nil || len(page.Tweets) != 40 {
			b.Fatalf("page of %d: %v", len(page.Tweets), err)
		}
	}
}

// BenchmarkBareGinParallel is BenchmarkBareGin from every P at once.
func BenchmarkBareGinParallel(b *testing.B) {
	_, body := benchEnv(b, nil)
	gin.SetMode(gin.ReleaseMode)
	bare := gin.New()
	bare.GET("/api/v1/public", func(c *gin.Context) { c.Data(http.StatusOK, jsonContentType, body) })
	b.SetBytes(int64(len(body)))
	benchServeParallel(b, bare, len(body))
}

// BenchmarkPublicLineAPIParallel is BenchmarkPublicLineAPI/quiet from every P at once: the read
// locks of the store and the tweet cache, and the pools, under contention.
func BenchmarkPublicLineAPIParallel(b *testing.B) {
	srv, body := benchEnv(b, nil)
	b.SetBytes(int64(len(body)))
	benchServeParallel(b, srv.Engine, len(body))
}

func benchServeParallel(b *testing.B, h http.Handler, wantLen int) {
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		req := httptest.NewRequest(http.MethodGet, "/api/v1/public?limit=40", nil)
		for pb.Next() {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK || rec.Body.Len() != wantLen {
				b.Errorf("status %d, %d bytes", rec.Code, rec.Body.Len())
				return
			}
		}
	})
}

// BenchmarkPublicLineVsBareGin measures the API's public line and the bare gin handler in
// alternating rounds of 64 requests, so both meet the same machine (shared machines are noisy
// from second to second), and reports the API's throughput as a share of the bare handler's
// ("ratio"), with each one's ns per request. "cached" is the API as serve runs it on memory,
// "uncached" with the page cache off.
func BenchmarkPublicLineVsBareGin(b *testing.B) {
	for _, cache := range []bool{true, false} {
		name := map[bool]string{true: "cached", false: "uncached"}[cache]
		b.Run(name, func(b *testing.B) {
			srv, body := benchEnvWith(b, nil, cache)
			gin.SetMode(gin.ReleaseMode)
			bare := gin.New()
			bare.GET("/api/v1/public", func(c *gin.Context) { c.Data(http.StatusOK, jsonContentType, body) })
			req := httptest.NewRequest(http.MethodGet, "/api/v1/public?limit=40", nil)
			round := func(h http.Handler) time.Duration {
				start := time.Now()
				for range 64 {
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					if rec.Code != http.StatusOK || rec.Body.Len() != len(body) {
						b.Fatalf("status %d, %d bytes", rec.Code, rec.Body.Len())
					}
				}
				return time.Since(start)
			}
			var api, floor time.Duration
			rounds := 0
			for b.Loop() {
				api += round(srv.Engine)
				floor += round(bare)
				rounds++
			}
			n := float64(64 * rounds)
			b.ReportMetric(float64(floor)/float64(api), "ratio")
			b.ReportMetric(float64(api.Nanoseconds())/n, "api-ns/req")
			b.ReportMetric(float64(floor.Nanoseconds())/n, "bare-ns/req")
			b.ReportMetric(0, "ns/op")
		})
	}
}
