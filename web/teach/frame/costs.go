package frame

import (
	"sync/atomic"

	"twissandra/ports/oplog"
)

// costLedger keeps the last measured cost of a home timeline page and of a post. A home page
// writes it on every visit, so it takes no lock: each is one atomic pointer.
type costLedger struct {
	Page, Post atomic.Pointer[Measured]
}

// Measured is what a request cost, as the footer's headline says it (oplog.Log.Headline): its
// storage calls, and its notes apart.
type Measured struct {
	Summary, Secondary, SecondaryModel string
	// Who is the user whose request it was: the last post and page on a server are anyone's.
	Who string
}

// Whose says whose the request was, for me (the reader, "" for none): "yours", "@ann's", or
// "a visitor's".
func (m *Measured) Whose(me string) string {
	switch {
	case m.Who == "":
		return "a visitor's"
	case m.Who == me:
		return "yours"
	}
	return "@" + m.Who + "'s"
}

// costOf is what ops cost, or nil for a request that touched no storage.
func costOf(ops *oplog.Log) *Measured {
	if ops.Len() == 0 {
		return nil
	}
	m := &Measured{Summary: ops.Headline()}
	if model, shadow := ops.Shadowed(); shadow != nil {
		m.SecondaryModel, m.Secondary = model, shadow.Headline()
	}
	return m
}
