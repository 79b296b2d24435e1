package widerow

import "twissandra/domain"

// The layout's names, for the teaching package beside this one (teach), which reads the rows
// these stores write: where a record lives, how wide its rows grow.
const (
	CFUser        = cfUser
	CFUsername    = cfUsername
	CFFriends     = cfFriends
	CFFollowers   = cfFollowers
	CFTweet       = cfTweet
	CFUserline    = cfUserline
	CFTimeline    = cfTimeline
	CFAuthors     = cfAuthors
	CFBlogEntries = cfBlogEntries
	CFTaggedPosts = cfTaggedPosts
	CFComments    = cfComments
)

// LineCF is the column family of a line of kind k: Timeline, or Userline (the public line is a
// row of Userline).
func LineCF(k domain.LineKind) string { return lineCF(k) }

// Wrap translates the engine's errors into the domain's sentinels, naming op and keeping the
// original, as every call of the stores does.
func Wrap(op string, err error) error { return wrap(op, err) }
