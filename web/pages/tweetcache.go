package pages

import (
	"bytes"
	"context"
	"io"

	"github.com/a-h/templ"

	"twissandra/domain"
	"twissandra/web"
)

// tweetHTML keeps each tweet's <li> (tweetItem) as rendered, by ID, as the API keeps each
// tweet's JSON (web.TweetCache): a tweet never changes after it is posted, and its markup is the
// same for every reader. The lines are still read from the store on every page, and the footer
// lists those reads; only the rendering of a tweet already rendered is saved, which was most of
// a page's time.
var tweetHTML = web.NewTweetCache(web.TweetCacheSize)

// tweetItems writes the <li> of each tweet of ts, from tweetHTML where it can.
func tweetItems(ts []domain.Tweet) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		return tweetHTML.WriteEach(w, ts, "", func(b []byte, t domain.Tweet) ([]byte, error) {
			aw := bytes.NewBuffer(b)
			err := tweetItem(t).Render(ctx, aw)
			return aw.Bytes(), err
		})
	})
}
