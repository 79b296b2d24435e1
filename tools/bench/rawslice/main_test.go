package main

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/internal/testkit/cqltest"
)

func TestRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"-page", "3"},
		{"-conns", "0"},
		{"-duration", "0s"},
		{"-line", "userline"},
		{"-nosuchflag"},
		{"extra"},
	} {
		var out bytes.Buffer
		err := run(args, &out)
		if err == nil {
			t.Errorf("rawslice %v: no error", args)
		} else if strings.Contains(err.Error(), "\n") {
			t.Errorf("rawslice %v: %q is more than one line", args, err)
		}
		if out.Len() != 0 {
			t.Errorf("rawslice %v printed %q", args, out.String())
		}
	}
}

// TestReadsThePagesTheAPIServes runs the tool against the cql3 tables of a real node, filled
// through the use case: both pages of the home timeline and of the public line, and a refusal
// of a line that holds less than a page.
func TestReadsThePagesTheAPIServes(t *testing.T) {
	store, _ := cqltest.Keyspace(t, "twissandra_test_rawslice_")
	hosts, port := cqltest.Node(t)
	ctx := context.Background()
	svc := social.New(store, store, store, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	for _, u := range []string{"reader", "author"} {
		if _, err := svc.SignUp(ctx, u, "password1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Follow(ctx, "reader", "author"); err != nil {
		t.Fatal(err)
	}
	for i := range 81 {
		if _, err := svc.Post(ctx, "author", fmt.Sprintf("tweet %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	common := []string{"-hosts", strings.Join(hosts, ","), "-port", strconv.Itoa(port), "-keyspace", store.Keyspace(), "-conns", "4", "-duration", "200ms"}
	rate := regexp.MustCompile(`^Requests/sec: ([0-9]+)\n$`)
	for _, args := range [][]string{
		{"-line", "timeline", "-user", "reader", "-page", "1"},
		{"-line", "timeline", "-user", "reader", "-page", "2"},
		{"-line", "public", "-page", "1"},
		{"-line", "public", "-page", "2"},
	} {
		var out bytes.Buffer
		if err := run(append(common, args...), &out); err != nil {
			t.Fatalf("rawslice %v: %v", args, err)
		}
		m := rate.FindStringSubmatch(out.String())
		if m == nil || m[1] == "0" {
			t.Errorf("rawslice %v printed %q, not a rate", args, out.String())
		}
	}
	// A user with no timeline reads 0 rows: the tool says so instead of measuring a short page.
	var out bytes.Buffer
	err := run(append(common, "-line", "timeline", "-user", "nobody"), &out)
	if err == nil || !strings.Contains(err.Error(), "0 rows") {
		t.Errorf("a timeline of no rows: %v, %q", err, out.String())
	}
}
