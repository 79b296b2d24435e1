package teach

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Locate implements teaching.Locator: each locus at its row and column of the seeds' layout (see
// the package comment), read now.
func (in *Inspector) Locate(ctx context.Context, loci []teaching.Locus) ([]teaching.Placement, error) {
	var out []teaching.Placement
	ids := map[string]string{} // username -> user uuid, "" for none
	userKey := func(name string) (string, error) {
		if id, ok := ids[name]; ok {
			return id, nil
		}
		id, err := in.UserRowKey(ctx, name)
		if errors.Is(err, domain.ErrNotFound) {
			err = nil
		}
		ids[name] = id
		return id, err
	}
	for _, lc := range loci {
		var ps []teaching.Placement
		var err error
		switch lc.Kind {
		case teaching.LocusUser:
			var id string
			if id, err = userKey(lc.User); err == nil {
				ps, err = in.places(ctx, lc, []place{{widerow.KeyspaceTwissandra, widerow.CFUsername, lc.User, []byte("id")}, {widerow.KeyspaceTwissandra, widerow.CFUser, orUnknown(id), nil}})
			}
			parts(ps, "the Username index: the name → the user's UUID, seed 001's inverted index", "the User row, keyed by the user's UUID")
		case teaching.LocusTweet:
			ps, err = in.places(ctx, lc, []place{{widerow.KeyspaceTwissandra, widerow.CFTweet, lc.Tweet.String(), nil}})
		case teaching.LocusLineEntry:
			key := widerow.PublicKey
			if lc.Line.Kind != domain.Public {
				key, err = userKey(lc.Line.Owner)
			}
			if err == nil {
				ps, err = in.places(ctx, lc, []place{{widerow.KeyspaceTwissandra, widerow.LineCF(lc.Line.Kind), orUnknown(key), widerow.LongName(lc.Time)}})
			}
			for i := range ps { // the column must name this tweet
				ps[i].Present = ps[i].Present && len(ps[i].Cells) == 1 && ps[i].Cells[0].Value == strconv.Quote(lc.Tweet.String())
			}
		case teaching.LocusFollow:
			var a, b string
			if a, err = userKey(lc.User); err == nil {
				if b, err = userKey(lc.Other); err == nil {
					ps, err = in.places(ctx, lc, []place{{widerow.KeyspaceTwissandra, widerow.CFFriends, orUnknown(a), []byte(orUnknown(b))}, {widerow.KeyspaceTwissandra, widerow.CFFollowers, orUnknown(b), []byte(orUnknown(a))}})
				}
			}
			parts(ps, teaching.FriendSide(lc), teaching.FollowerSide(lc))
		case teaching.LocusAuthor:
			ps, err = in.places(ctx, lc, []place{{widerow.KeyspaceBloggyAppy, widerow.CFAuthors, lc.Name, nil}})
		case teaching.LocusEntry:
			ps, err = in.places(ctx, lc, []place{{widerow.KeyspaceBloggyAppy, widerow.CFBlogEntries, lc.Slug, nil}})
		case teaching.LocusTagRef:
			ps, err = in.places(ctx, lc, []place{{widerow.KeyspaceBloggyAppy, widerow.CFTaggedPosts, lc.Tag, lc.ID[:]}})
		case teaching.LocusComment:
			ps, err = in.places(ctx, lc, []place{{widerow.KeyspaceBloggyAppy, widerow.CFComments, lc.Slug, lc.ID[:]}})
		}
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

// parts names the placements' parts, in order.
func parts(ps []teaching.Placement, names ...string) {
	for i := range min(len(ps), len(names)) {
		ps[i].Part = names[i]
	}
}

// orUnknown stands in for the row key of a user who does not exist: no row has it.
func orUnknown(key string) string {
	if key == "" {
		return "?"
	}
	return key
}

// place is one row (column nil) or one column of a row.
type place struct {
	keyspace, cf, key string
	column            []byte
}

func (in *Inspector) places(ctx context.Context, lc teaching.Locus, ws []place) ([]teaching.Placement, error) {
	out := make([]teaching.Placement, 0, len(ws))
	for _, w := range ws {
		cf, err := in.cf(w.keyspace, w.cf)
		if err != nil {
			return nil, err
		}
		p := teaching.Placement{Locus: lc, Model: "widerow", Container: w.keyspace + "." + w.cf, Key: w.key, Token: in.token(w.key)}
		q := url.Values{"cf_path": {p.Container}, "key": {w.key}}
		pred := engine.SlicePredicate{SliceRange: &engine.SliceRange{Count: inspectRowMax}}
		p.Address = fmt.Sprintf("%s[%s]", p.Container, strconv.Quote(w.key))
		if w.column != nil {
			name, _ := decodeName(cf.CompareWith, w.column)
			p.Address += "[" + name + "]"
			pred = engine.SlicePredicate{ColumnNames: [][]byte{w.column}}
			bound := strings.Trim(name, `"`)
			if cf.CompareWith == engine.BytesType && strings.HasPrefix(name, "0x") {
				bound = name
			}
			q.Set("start", bound)
			q.Set("finish", bound)
		}
		p.Inspect = q.Encode()
		cols := []engine.ColumnOrSuperColumn(nil)
		if w.key != "?" {
			if cols, err = in.node.GetSlice(ctx, w.keyspace, w.key, engine.ColumnParent{ColumnFamily: w.cf}, pred, inspectCL); err != nil {
				return nil, widerow.Wrap("locate", err)
			}
		}
		for _, c := range wideColumns(cf, cols) {
			if len(c.Columns) > 0 {
				for _, sub := range c.Columns {
					p.Cells = append(p.Cells, teaching.Cell{Name: sub.Name, Value: sub.Value, Timestamp: sub.Timestamp, Super: c.Name})
				}
				continue
			}
			p.Cells = append(p.Cells, teaching.Cell{Name: c.Name, Value: c.Value, Timestamp: c.Timestamp})
		}
		p.Present = len(p.Cells) > 0
		out = append(out, p)
	}
	return out, nil
}
