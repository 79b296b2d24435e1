package web

import (
	"net/http"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/domain/social"
)

// Lines are the API's hottest responses, so tweets are written by hand into pooled buffers
// rather than through reflection. The output is byte for byte what encoding/json would write
// for tweetJSON (the tests check this).

const jsonContentType = "application/json; charset=utf-8"

// TimeFormat is the API's timestamp format: RFC 3339 in UTC with exactly six fractional digits.
const TimeFormat = "2006-01-02T15:04:05.000000Z07:00"

// tweetJSON documents the tweet's JSON shape; appendTweet writes the same bytes.
type tweetJSON struct {
	ID        string `json:"id"`
	Username  string `json:"username"`
	Body      string `json:"body"`
	CreatedAt string `json:"created_at"`
}

func formatTime(t time.Time) string { return t.UTC().Format(TimeFormat) }

// maxPooledBuf keeps one odd, huge response from pinning its buffer in the pool.
const maxPooledBuf = 64 << 10

var bufPool = sync.Pool{New: func() any {
	b := make([]byte, 0, 16<<10)
	return &b
}}

// writeJSONBytes builds a body with fill in a pooled buffer and writes it.
func writeJSONBytes(c *gin.Context, status int, fill func([]byte) []byte) {
	bp := bufPool.Get().(*[]byte)
	b := fill((*bp)[:0])
	c.Data(status, jsonContentType, b)
	if cap(b) <= maxPooledBuf {
		*bp = b
		bufPool.Put(bp)
	}
}

func writeTweet(c *gin.Context, status int, t domain.Tweet) {
	writeJSONBytes(c, status, func(b []byte) []byte { return appendTweet(b, t) })
}

func (s *Server) writeTweetPage(c *gin.Context, page social.TweetPage) {
	writeJSONBytes(c, http.StatusOK, func(b []byte) []byte { return s.tweets.appendPage(b, page) })
}

// appendTweetPage writes {"tweets":[...],"next":"..."|null}, the one encoder of a page of
// tweets: tweets appends the page's tweets, comma-separated (the tweet cache's copies, say), and
// a nil tweets means each appendTweet.
func appendTweetPage(b []byte, page social.TweetPage, tweets func(b []byte) []byte) []byte {
	b = append(b, `{"tweets":[`...)
	if tweets != nil {
		b = tweets(b)
	} else {
		for i, t := range page.Tweets {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendTweet(b, t)
		}
	}
	b = append(b, `],"next":`...)
	if page.Next == "" {
		b = append(b, "null"...)
	} else {
		b = appendJSONString(b, page.Next)
	}
	return append(b, '}')
}

func appendTweet(b []byte, t domain.Tweet) []byte {
	b = append(b, `{"id":"`...)
	b = domain.AppendUUID(b, t.ID)
	b = append(b, `","username":`...)
	b = appendJSONString(b, t.Username)
	b = append(b, `,"body":`...)
	b = appendJSONString(b, t.Body)
	b = append(b, `,"created_at":"`...)
	b = appendTimestamp(b, t.CreatedAt)
	return append(b, `"}`...)
}

// appendTimestamp writes t in TimeFormat. time.Time.AppendFormat parses its layout on every
// call, which was a third of a public-line page's CPU; this is the fixed layout done directly.
// Years outside 0000-9999 (never a tweet's) fall back to AppendFormat.
func appendTimestamp(b []byte, t time.Time) []byte {
	micros := t.UnixMicro()
	days := floorDiv(micros, 86_400_000_000)
	if days < -719_468 || days > 2_932_896 {
		return t.UTC().AppendFormat(b, TimeFormat)
	}
	rem := micros - days*86_400_000_000
	y, m, d := civilFromDays(days)
	secs := rem / 1_000_000
	frac := rem % 1_000_000
	var s [27]byte
	put4(s[0:4], y)
	s[4] = '-'
	put2(s[5:7], m)
	s[7] = '-'
	put2(s[8:10], d)
	s[10] = 'T'
	put2(s[11:13], secs/3600)
	s[13] = ':'
	put2(s[14:16], secs/60%60)
	s[16] = ':'
	put2(s[17:19], secs%60)
	s[19] = '.'
	put2(s[20:22], frac/10000)
	put2(s[22:24], frac/100%100)
	put2(s[24:26], frac%100)
	s[26] = 'Z'
	return append(b, s[:]...)
}

const digitPairs = "00010203040506070809101112131415161718192021222324252627282930313233343536373839" +
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// put2 writes 0 <= v < 100 as two digits.
func put2(dst []byte, v int64) {
	_ = dst[1]
	dst[0], dst[1] = digitPairs[2*v], digitPairs[2*v+1]
}

// put4 writes 0 <= v < 10000 as four digits.
func put4(dst []byte, v int64) {
	put2(dst[0:2], v/100)
	put2(dst[2:4], v%100)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// civilFromDays converts days since 1970-01-01 to a proleptic Gregorian date (the algorithm of
// Howard Hinnant's "chrono-Compatible Low-Level Date Algorithms").
func civilFromDays(z int64) (year, month, day int64) {
	z += 719_468
	era := floorDiv(z, 146_097)
	doe := z - era*146_097
	yoe := (doe - doe/1460 + doe/36524 - doe/146_096) / 365
	year = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	day = doy - (153*mp+2)/5 + 1
	if mp < 10 {
		month = mp + 3
	} else {
		month = mp - 9
	}
	if month <= 2 {
		year++
	}
	return year, month, day
}

const hexDigits = "0123456789abcdef"

// jsonSafe marks the ASCII bytes encoding/json writes as they are (with HTML escaping on).
var jsonSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		switch c {
		case '"', '\\', '<', '>', '&':
		default:
			t[c] = true
		}
	}
	return t
}()

// appendJSONString quotes s as encoding/json does: HTML-sensitive characters, control
// characters, U+2028 and U+2029 escaped, invalid UTF-8 replaced by U+FFFD.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
