// Package stores bundles the ports of one backend, for the tools that read or write all of them.
package stores

import "twissandra/ports"

// Set is every store of one backend.
type Set struct {
	Users    ports.UserStore
	Tweets   ports.TweetStore
	Lines    ports.LineStore
	Authors  ports.AuthorStore
	Entries  ports.EntryStore
	Tags     ports.TagIndex
	Comments ports.CommentStore
}
