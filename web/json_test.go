package web

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"twissandra/domain"
	"twissandra/domain/social"
)

func TestAppendTweetMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	bodies := []string{"plain", `"quoted" \ back`, "<script>&</script>", "tab\tnew\nline\r\b\f\x01\x1f", "emoji 😀 é 用", "\u2028\u2029", "bad \xff utf8", ""}
	times := []time.Time{
		time.Date(2010, 3, 1, 12, 0, 0, 0, time.UTC),
		time.Date(2010, 3, 1, 12, 0, 0, 123456000, time.FixedZone("x", 3600)),
		time.UnixMicro(1),
	}
	for _, body := range bodies {
		for _, ts := range times {
			tw := domain.Tweet{ID: domain.NewTimeUUID(ts.UnixMicro()), Username: "user_1", Body: body, CreatedAt: ts}
			want, err := json.Marshal(tweetJSON{ID: tw.ID.String(), Username: tw.Username, Body: tw.Body, CreatedAt: ts.UTC().Format("2006-01-02T15:04:05.000000Z07:00")})
			if err != nil {
				t.Fatal(err)
			}
			if got := appendTweet(nil, tw); string(got) != string(want) {
				t.Errorf("appendTweet\n got %s\nwant %s", got, want)
			}
		}
	}
	created := string(appendTweet(nil, domain.Tweet{CreatedAt: times[1]}))
	if !strings.Contains(created, `"created_at":"2010-03-01T11:00:00.123456Z"`) {
		t.Errorf("created_at not UTC with microseconds: %s", created)
	}
}

func TestAppendTweetPage(t *testing.T) {
	t.Parallel()
	tw := domain.Tweet{ID: domain.NewTimeUUID(1), Username: "a", Body: "b", CreatedAt: time.UnixMicro(1)}
	tests := []struct {
		page social.TweetPage
		want string
	}{
		{social.TweetPage{}, `{"tweets":[],"next":null}`},
		{social.TweetPage{Tweets: []domain.Tweet{tw, tw}, Next: "AQ"}, `{"tweets":[` + string(appendTweet(nil, tw)) + `,` + string(appendTweet(nil, tw)) + `],"next":"AQ"}`},
	}
	for _, tt := range tests {
		got := string(appendTweetPage(nil, tt.page, nil))
		if got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("invalid JSON %s", got)
		}
	}
}

// FuzzAppendJSONString: the hand-written quoting is byte for byte encoding/json's.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "a", `"\`, "<>&", "\u2028", "\xff", "\x00\x7f", "😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	})
}

func TestAppendTimestamp(t *testing.T) {
	t.Parallel()
	times := []time.Time{
		time.Unix(0, 0),
		time.UnixMicro(-1),
		time.Date(2000, 2, 29, 23, 59, 59, 999999999, time.UTC),
		time.Date(2010, 3, 1, 12, 0, 0, 1000, time.FixedZone("x", -7*3600)),
		time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999000, time.UTC),
		time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC),
	}
	for m := int64(-400 * 366 * 86400e6); m < 400*366*86400e6; m += 86400e6*17 + 3_600_000_123 {
		times = append(times, time.UnixMicro(m))
	}
	for _, ts := range times {
		want := ts.UTC().Truncate(time.Microsecond).Format(TimeFormat)
		if got := string(appendTimestamp(nil, ts)); got != want {
			t.Fatalf("appendTimestamp(%v) = %s, want %s", ts, got, want)
		}
	}
}

func TestTweetCache(t *testing.T) {
	t.Parallel()
	tc := NewTweetCache(3)
	var tweets []domain.Tweet
	for i := range 5 {
		tweets = append(tweets, domain.Tweet{ID: domain.NewTimeUUID(int64(i + 1)), Username: "u", Body: "<b>" + strings.Repeat("x", i), CreatedAt: time.UnixMicro(int64(i + 1))})
	}
	for _, page := range []social.TweetPage{
		{Tweets: tweets[:2]},
		{Tweets: tweets[:2], Next: "AQ"},
		{Tweets: tweets},
		{Tweets: tweets[3:]},
		{},
	} {
		for range 2 {
			if got, want := string(tc.appendPage(nil, page)), string(appendTweetPage(nil, page, nil)); got != want {
				t.Fatalf("cached page\n got %s\nwant %s", got, want)
			}
		}
		if n := tc.len(); n > 3 {
			t.Fatalf("cache holds %d, bound 3", n)
		}
	}
}
