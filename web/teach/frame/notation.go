package frame

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

type NotationLine struct {
	Indent string
	Name   string
	Note   string
	Value  string
	// TS is a column's timestamp as the seeds write a column (name, value, timestamp): the
	// write's microseconds, with the date they stand for.
	TS    string
	Open  bool // the line opens a map: `name: {`
	Close bool // the line closes a map: `},`
	// NameHref and ValueHref link a UUID to what it names: a tweet's places, a user's row.
	NameHref, ValueHref string
	// Tombstone marks a deleted column: it shows its deletion time and no value.
	Tombstone bool
	List      bool // the line opens or closes a list: `[`, `],`
}

// closing is a closing line after its indent: `}` or `]`, and a comma inside another map.
func (l NotationLine) closing() string {
	s := "}"
	if l.List {
		s = "]"
	}
	return s + When(l.Indent != "", ",")
}

// opening is what follows an opening line's name: a colon inside another map, then `{` or `[`.
func (l NotationLine) opening() string {
	s := When(l.Indent != "" && l.Name != "", ":") + When(l.Name != "", " ")
	if l.List {
		return s + "["
	}
	return s + "{"
}

// UuidLinks links the UUIDs of a column of cf (a column family or a table) to what they name,
// as the seeds' layout defines them: a line's tweet ID to the tweet's places, a user UUID (a
// Username id, a Friends or Followers column name) to the user's User row.
func UuidLinks(cf, name, value string) (nameHref, valueHref string) {
	id := func(s string) (uuid.UUID, bool) {
		u, err := uuid.Parse(strings.Trim(s, `"'`))
		return u, err == nil && len(strings.Trim(s, `"'`)) == 36
	}
	user := func(u uuid.UUID) string {
		return "/models/inspect?" + url.Values{"cf_path": {"Twissandra.User"}, "key": {u.String()}}.Encode()
	}
	switch cf {
	case "Userline", "Timeline", "userline", "timeline", "public_line", "tweets":
		if u, ok := id(value); ok && (name == "tweet_id" || cf == "Userline" || cf == "Timeline") {
			valueHref = "/models/where?tweet=" + u.String()
		}
	case "Username":
		if u, ok := id(value); ok {
			valueHref = user(u)
		}
	case "Friends", "Followers":
		if u, ok := id(name); ok {
			nameHref = user(u)
		}
	}
	return nameHref, valueHref
}

// Notation renders a row as the seed articles write rows:
//
//	Timeline = {
//	    "<row key>": {
//	        1273656000123456 /* 2010-05-12 09:20:00.123456 UTC */: "<tweet uuid>",
//	    },
//	}
func Notation(cf, key string, cols []teaching.WideColumn) []NotationLine {
	const ind = "    "
	lines := []NotationLine{{Name: cf + " =", Open: true}}
	lines = append(lines, NotationLine{Indent: ind, Name: strconv.Quote(key), Note: "row key", Open: true})
	for _, c := range cols {
		if c.Columns == nil {
			lines = append(lines, columnLine(cf, ind+ind, c))
			continue
		}
		lines = append(lines, NotationLine{Indent: ind + ind, Name: c.Name, Note: c.Note, Open: true})
		for _, sc := range c.Columns {
			l := columnLine(cf, ind+ind+ind, sc)
			if sc.Name == "" {
				l.Name = "(the super column's deletion: every subcolumn written before it)"
			}
			lines = append(lines, l)
		}
		lines = append(lines, NotationLine{Indent: ind + ind, Close: true})
	}
	lines = append(lines, NotationLine{Indent: ind, Close: true})
	lines = append(lines, NotationLine{Close: true})
	return lines
}

func columnLine(cf, indent string, c teaching.WideColumn) NotationLine {
	l := NotationLine{Indent: indent, Name: c.Name, Note: c.Note, Value: c.Value, TS: TimestampNote(c.Timestamp)}
	l.NameHref, l.ValueHref = UuidLinks(cf, c.Name, c.Value)
	if l.Name == "" {
		l.Name = "(the row's deletion: every column written before it)"
	}
	if c.Deleted {
		l.Value, l.TS, l.Tombstone = "", "tombstone, deleted at "+strings.TrimPrefix(l.TS, "timestamp "), true
		if c.Received != 0 {
			l.TS += "; received " + time.Unix(c.Received, 0).UTC().Format("2006-01-02 15:04:05 UTC")
		}
	}
	return l
}

// TimestampNote shows a column's timestamp: the number the write gave, and its date when it is
// one (Twissandra writes microseconds since 1970; a client may give any number).
func TimestampNote(ts int64) string {
	if d := domain.MicrosDate(ts); d != "" {
		return "timestamp " + strconv.FormatInt(ts, 10) + ", " + d
	}
	return "timestamp " + strconv.FormatInt(ts, 10)
}
