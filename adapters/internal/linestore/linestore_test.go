package linestore

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"twissandra/domain"
)

// tweetMap is a ports.TweetStore of a map, answering GetTweets as the contract says: in the order
// asked, missing IDs dropped (and an ID asked twice answered twice).
type tweetMap map[uuid.UUID]domain.Tweet

func (m tweetMap) SaveTweet(_ context.Context, t domain.Tweet) error { m[t.ID] = t; return nil }
func (m tweetMap) GetTweet(_ context.Context, id uuid.UUID) (domain.Tweet, error) {
	if t, ok := m[id]; ok {
		return t, nil
	}
	return domain.Tweet{}, domain.ErrNotFound
}
func (m tweetMap) GetTweets(_ context.Context, ids []uuid.UUID) ([]domain.Tweet, error) {
	var out []domain.Tweet
	for _, id := range ids {
		if t, ok := m[id]; ok {
			out = append(out, t)
		}
	}
	return out, nil
}

// FillTweets gives each entry lacking its tweet the tweet of its own ID, whether every tweet
// was found (paired in one walk), one is missing, or one tweet is on the page twice; an entry
// that carries its tweet keeps it, and one whose tweet is gone stays without.
func TestFillTweets(t *testing.T) {
	store := tweetMap{}
	var ids []uuid.UUID
	for i := range 6 {
		tw := domain.Tweet{ID: uuid.New(), Body: "tweet " + string(rune('a'+i))}
		store[tw.ID] = tw
		ids = append(ids, tw.ID)
	}
	gone := uuid.New()
	carried := domain.Tweet{ID: ids[1], Body: "carried"}
	for name, page := range map[string][]uuid.UUID{
		"all found":     ids,
		"one missing":   {ids[0], gone, ids[2], ids[3]},
		"one twice":     {ids[0], ids[4], ids[0], ids[5]},
		"missing first": {gone, ids[1], ids[2]},
		"missing last":  {ids[3], ids[2], gone},
	} {
		t.Run(name, func(t *testing.T) {
			entries := make([]domain.LineEntry, len(page))
			for i, id := range page {
				entries[i] = domain.LineEntry{TweetID: id}
			}
			entries[1].Tweet = &carried // already carried: not asked again, kept
			if err := FillTweets(context.Background(), store, entries); err != nil {
				t.Fatal(err)
			}
			for i, e := range entries {
				switch {
				case i == 1:
					if e.Tweet != &carried {
						t.Errorf("entry 1 lost the tweet it carried: %+v", e.Tweet)
					}
				case e.TweetID == gone:
					if e.Tweet != nil {
						t.Errorf("entry %d of a missing tweet got %+v", i, e.Tweet)
					}
				case e.Tweet == nil || e.Tweet.ID != e.TweetID || e.Tweet.Body != store[e.TweetID].Body:
					t.Errorf("entry %d (%s) got %+v", i, e.TweetID, e.Tweet)
				}
			}
		})
	}
}
