package cql3

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
)

type pyColumn struct {
	Kind            string `json:"kind"`
	Type            string `json:"type"`
	ClusteringOrder string `json:"clustering_order"`
}

type pyReadback struct {
	Columns map[string]map[string]pyColumn `json:"columns"`
	User    *struct {
		Username  string `json:"username"`
		ID        string `json:"id"`
		Password  string `json:"password"`
		CreatedAt string `json:"created_at"`
	} `json:"user"`
	Userline []struct {
		Time    string `json:"time"`
		TweetID string `json:"tweet_id"`
		Micros  int64  `json:"micros"`
	} `json:"userline"`
	Tweets map[string]struct {
		Username string `json:"username"`
		Body     string `json:"body"`
	} `json:"tweets"`
	Timeline []string `json:"timeline"`
}

// TestIndependentClientReadsTables writes through the use cases, then reads the tables with
// the DataStax Python driver (installed by scripts/pycql.sh into a venv of its own) and finds
// the documented columns and rows there.
func TestIndependentClientReadsTables(t *testing.T) {
	s := sharedStore(t)
	cfg := nodeConfig(t)
	ctx := testCtx(t, 5*time.Minute)
	svc := social.New(s, s, s, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	user, fan := "py_"+uuid.NewString()[:8], "pyfan_"+uuid.NewString()[:8]
	u, err := svc.SignUp(ctx, user, "password1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SignUp(ctx, fan, "password1"); err != nil {
		t.Fatal(err)
	}
	if err := svc.Follow(ctx, fan, user); err != nil {
		t.Fatal(err)
	}
	var posted []domain.Tweet // newest first
	for i := 0; i < 3; i++ {
		tw, err := svc.Post(ctx, user, fmt.Sprintf("tweet %d: it's 'quoted'; ✓", i))
		if err != nil {
			t.Fatal(err)
		}
		posted = append([]domain.Tweet{tw}, posted...)
	}

	script, err := filepath.Abs("../../scripts/pycql.sh")
	if err != nil {
		t.Fatal(err)
	}
	port := cfg.Port
	if port == 0 {
		port = DefaultPort
	}
	cmd := exec.CommandContext(ctx, script, "testdata/readback.py", cfg.Hosts[0], strconv.Itoa(port), s.Keyspace(), user)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scripts/pycql.sh testdata/readback.py: %v\n%s", err, stderr.String())
	}
	var got pyReadback
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("readback output: %v\n%s", err, stdout.String())
	}

	// The documented schema.
	schema := map[string]map[string]string{
		"users":        {"username": "text", "id": "uuid", "password": "blob", "created_at": "timestamp"},
		"friends":      {"username": "text", "friend": "text", "since": "timestamp"},
		"followers":    {"username": "text", "follower": "text", "since": "timestamp"},
		"tweets":       {"tweet_id": "timeuuid", "username": "text", "body": "text", "created_at": "timestamp"},
		"userline":     {"username": "text", "time": "timeuuid", "tweet_id": "timeuuid"},
		"timeline":     {"username": "text", "time": "timeuuid", "tweet_id": "timeuuid"},
		"public_line":  {"day": "date", "time": "timeuuid", "tweet_id": "timeuuid"},
		"public_days":  {"line": "text", "day": "date"},
		"authors":      {"name": "text", "profile": "map<text, text>", "posts": "bigint"},
		"blog_entries": {"slug": "text", "id": "timeuuid", "title": "text", "tags": "set<text>", "published_at": "timestamp"},
		"tagged_posts": {"tag": "text", "time": "timeuuid", "slug": "text"},
		"comments":     {"slug": "text", "time": "timeuuid", "name": "text", "email": "text", "body": "text"},
	}
	for table, cols := range schema {
		for col, typ := range cols {
			if c, ok := got.Columns[table][col]; !ok || c.Type != typ {
				t.Errorf("%s.%s = %+v, want type %s", table, col, c, typ)
			}
		}
	}
	for table, order := range map[string]string{"userline": "desc", "timeline": "desc", "public_line": "desc", "public_days": "desc", "tagged_posts": "desc", "comments": "asc"} {
		key := "time"
		if table == "public_days" {
			key = "day"
		}
		if c := got.Columns[table][key]; c.Kind != "clustering" || c.ClusteringOrder != order {
			t.Errorf("%s.%s = %+v, want a clustering column in %s order", table, key, c, order)
		}
	}
	for table, pk := range map[string]string{"users": "username", "tweets": "tweet_id", "userline": "username", "public_line": "day"} {
		if c := got.Columns[table][pk]; c.Kind != "partition_key" {
			t.Errorf("%s.%s is %q, want the partition key", table, pk, c.Kind)
		}
	}

	// The rows.
	if got.User == nil || got.User.Username != user || got.User.ID != u.ID.String() || got.User.Password != string(u.PasswordHash) {
		t.Fatalf("users row = %+v, want %s with its bcrypt hash", got.User, user)
	}
	if err := bcrypt.CompareHashAndPassword([]byte(got.User.Password), []byte("password1")); err != nil {
		t.Fatalf("the stored password is not a bcrypt hash of the password: %v", err)
	}
	var line []string
	for i, r := range got.Userline {
		line = append(line, r.TweetID)
		if i > 0 && r.Micros >= got.Userline[i-1].Micros {
			t.Fatalf("userline rows are not newest first at %d: %+v", i, got.Userline)
		}
		if r.Time != r.TweetID {
			t.Errorf("userline row time %s differs from its tweet %s", r.Time, r.TweetID)
		}
	}
	var want []string
	for _, tw := range posted {
		want = append(want, tw.ID.String())
		if b := got.Tweets[tw.ID.String()]; b.Body != tw.Body || b.Username != user {
			t.Errorf("tweets row %s = %+v, want %q by %s", tw.ID, b, tw.Body, user)
		}
	}
	if !slices.Equal(line, want) {
		t.Fatalf("userline = %v, want %v", line, want)
	}
	if !slices.Equal(got.Timeline, want) {
		t.Fatalf("the author's timeline = %v, want %v", got.Timeline, want)
	}
}
