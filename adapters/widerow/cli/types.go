package cli

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
)

// TypeError is a term that cannot become the bytes its place needs: a bad type function, a bad
// argument, or a literal its comparator cannot read.
type TypeError struct {
	Pos int
	Msg string
}

func (e *TypeError) Error() string { return e.Msg }

func typeErr(t Term, format string, args ...any) error {
	return &TypeError{Pos: t.Pos, Msg: fmt.Sprintf(format, args...)}
}

// typeFuncs are the type functions a name or a value may be written with.
var typeFuncs = map[string]string{
	"long":        "long(123) or long('123'): 8 bytes, big-endian (LongType)",
	"timeuuid":    "timeuuid() for now, or timeuuid('uuid'): a version-1 UUID (TimeUUIDType)",
	"lexicaluuid": "lexicaluuid() for a random one, or lexicaluuid('uuid'): 16 bytes (LexicalUUIDType)",
	"utf8":        "utf8('text'): the text's UTF-8 bytes (UTF8Type)",
	"ascii":       "ascii('text'): ASCII bytes only (AsciiType)",
	"bytes":       "bytes('cafe'): the bytes written in hex (BytesType)",
}

// evalFunc computes the bytes of a type function call.
func evalFunc(t Term, now func() time.Time) ([]byte, error) {
	arg := ""
	if t.Arg != nil {
		arg = t.Arg.Text
	}
	switch t.Text {
	case "long":
		if t.Arg == nil {
			return nil, typeErr(t, "long() needs a number, e.g. long(123)")
		}
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil {
			return nil, typeErr(t, "%s: %q is not a 64-bit integer", t, arg)
		}
		return binary.BigEndian.AppendUint64(nil, uint64(n)), nil
	case "timeuuid":
		if t.Arg == nil {
			u := domain.NewTimeUUID(now().UnixMicro())
			return u[:], nil
		}
		u, err := uuid.Parse(arg)
		if err != nil || len(arg) != 36 {
			return nil, typeErr(t, "%s: %q is not a UUID", t, arg)
		}
		if u.Version() != 1 {
			return nil, typeErr(t, "%s: a TimeUUID must be version 1, this one is version %d", t, u.Version())
		}
		return u[:], nil
	case "lexicaluuid":
		if t.Arg == nil {
			var u uuid.UUID
			_, _ = rand.Read(u[:])
			u[6] = u[6]&0x0F | 0x40
			u[8] = u[8]&0x3F | 0x80
			return u[:], nil
		}
		u, err := uuid.Parse(arg)
		if err != nil || len(arg) != 36 {
			return nil, typeErr(t, "%s: %q is not a UUID", t, arg)
		}
		return u[:], nil
	case "utf8":
		if !utf8.ValidString(arg) {
			return nil, typeErr(t, "%s: not valid UTF-8", t)
		}
		return []byte(arg), nil
	case "ascii":
		for i := 0; i < len(arg); i++ {
			if arg[i] >= 0x80 {
				return nil, typeErr(t, "%s: not ASCII", t)
			}
		}
		return []byte(arg), nil
	case "bytes":
		b, err := hex.DecodeString(arg)
		if err != nil {
			return nil, typeErr(t, "%s: %q is not an even number of hex digits", t, arg)
		}
		return b, nil
	}
	return nil, typeErr(t, "unknown type function %s() (have long, timeuuid, lexicaluuid, utf8, ascii, bytes)", t.Text)
}

// nameBytes turns a term into a column name under comparator c. A type function gives its bytes
// (which the comparator then validates); a literal is read as the comparator's type: a number for
// LongType, UUID text for the UUID types, text otherwise.
func nameBytes(t Term, c engine.Comparator, now func() time.Time) ([]byte, error) {
	var b []byte
	if t.Kind == TermFunc {
		var err error
		if b, err = evalFunc(t, now); err != nil {
			return nil, err
		}
	} else {
		switch c {
		case engine.LongType:
			n, err := strconv.ParseInt(t.Text, 10, 64)
			if err != nil {
				return nil, typeErr(t, "%s is not a long (the column family compares with LongType): write a number", t)
			}
			b = binary.BigEndian.AppendUint64(nil, uint64(n))
		case engine.LexicalUUIDType, engine.TimeUUIDType:
			if t.Text == "" {
				break
			}
			u, err := uuid.Parse(t.Text)
			if err != nil || len(t.Text) != 36 {
				return nil, typeErr(t, "%s is not a UUID (the column family compares with %s)", t, c)
			}
			b = u[:]
		default:
			b = []byte(t.Text)
		}
	}
	if err := c.Validate(b); err != nil {
		return nil, typeErr(t, "%s is not a valid %s name: %v", t, c, err)
	}
	return b, nil
}

// valueBytes turns a term into a value: values have no type in 0.6, so a literal is its text.
func valueBytes(t Term, now func() time.Time) ([]byte, error) {
	if t.Kind == TermFunc {
		return evalFunc(t, now)
	}
	return []byte(t.Text), nil
}
