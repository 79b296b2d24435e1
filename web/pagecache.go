package web

import (
	"net/http"
	"sync"

	"github.com/gin-gonic/gin"
)

// PageCacheHeader says whether a public-line page came from the page cache ("hit") or from the
// stores ("miss"); it is set only when the cache is on (Config.CachePublicPages).
const PageCacheHeader = "Page-Cache" // canonical: set into the header map directly

// The header's values, shared by every response (net/http never changes them in place).
var pageCacheHit, pageCacheMiss = []string{"hit"}, []string{"miss"}

// pageCache keeps the encoded first pages of the public line, one per limit, with the version
// of the line they were read at (social.Service.PublicLineVersion). The public line is the
// busiest read of the application and changes only when someone posts, so between two posts
// every visitor gets the same bytes: the first visitor after a post reads the stores (and sees
// the storage operations), the others are served from here. Pages further down (with a start
// cursor) are not kept: there are too many of them to be worth it.
type pageCache struct {
	mu      sync.RWMutex
	version uint64
	pages   map[int][]byte
}

func newPageCache() *pageCache { return &pageCache{pages: map[int][]byte{}} }

// get returns the page of limit tweets kept at version, if there is one.
func (pc *pageCache) get(limit int, version uint64) ([]byte, bool) {
	pc.mu.RLock()
	defer pc.mu.RUnlock()
	if pc.version != version {
		return nil, false
	}
	b, ok := pc.pages[limit]
	return b, ok
}

// put keeps body as the page of limit tweets at version; a newer version drops the pages of
// the older one, and a page of an older version than those kept is not kept.
func (pc *pageCache) put(limit int, version uint64, body []byte) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	switch {
	case version < pc.version:
		return
	case version > pc.version:
		clear(pc.pages)
		pc.version = version
	}
	pc.pages[limit] = body
}

// servePublicFirstPage answers GET /api/v1/public without a start cursor from the page cache,
// or reads the page and keeps it when no post touched the line meanwhile.
func (s *Server) servePublicFirstPage(c *gin.Context, limit int) {
	before, ok := s.deps.Social.PublicLineVersion()
	if ok {
		if body, hit := s.pages.get(limit, before); hit {
			c.Writer.Header()[PageCacheHeader] = pageCacheHit
			c.Data(http.StatusOK, jsonContentType, body)
			return
		}
	}
	page, err := s.deps.Social.PublicLine(c.Request.Context(), "", limit)
	if err != nil {
		s.WriteError(c, err)
		return
	}
	body := s.tweets.appendPage(nil, page) // owned: the cache keeps it
	if after, ok2 := s.deps.Social.PublicLineVersion(); ok && ok2 && after == before {
		s.pages.put(limit, before, body)
	}
	c.Writer.Header()[PageCacheHeader] = pageCacheMiss
	c.Data(http.StatusOK, jsonContentType, body)
}
