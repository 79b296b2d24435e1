package teach

import (
	"encoding/binary"
	"testing"

	"github.com/google/uuid"

	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
)

func TestDecodeName(t *testing.T) {
	t.Parallel()
	long := make([]byte, 8)
	binary.BigEndian.PutUint64(long, 1273656000123456)
	small := make([]byte, 8)
	binary.BigEndian.PutUint64(small, 42)
	tu := domain.NewTimeUUID(1273656000123456)
	lex := uuid.MustParse("00000000-0000-4000-8000-000000000001")
	tests := []struct {
		name       string
		cmp        engine.Comparator
		in         []byte
		want, note string
	}{
		{"long as micros", engine.LongType, long, "1273656000123456", "2010-05-12 09:20:00.123456 UTC"},
		{"small long", engine.LongType, small, "42", ""},
		{"time uuid", engine.TimeUUIDType, tu[:], tu.String(), "2010-05-12 09:20:00.123456 UTC"},
		{"lexical uuid", engine.LexicalUUIDType, lex[:], lex.String(), ""},
		{"utf8", engine.UTF8Type, []byte("héllo"), `"héllo"`, ""},
		{"printable bytes", engine.BytesType, []byte("id"), `"id"`, ""},
		{"binary bytes", engine.BytesType, []byte{0, 1, 0xff}, "0x0001ff", ""},
		{"bad long", engine.LongType, []byte{1, 2}, "0x0102", ""},
	}
	for _, tc := range tests {
		got, note := decodeName(tc.cmp, tc.in)
		if got != tc.want || note != tc.note {
			t.Errorf("%s: got %q /* %q */, want %q /* %q */", tc.name, got, note, tc.want, tc.note)
		}
	}
}

func TestParseBound(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmp     engine.Comparator
		in      string
		want    []byte
		wantErr bool
	}{
		{engine.LongType, "", nil, false},
		{engine.LongType, "258", []byte{0, 0, 0, 0, 0, 0, 1, 2}, false},
		{engine.LongType, "1970-01-01T00:00:00.000258Z", []byte{0, 0, 0, 0, 0, 0, 1, 2}, false},
		{engine.LongType, "soon", nil, true},
		{engine.TimeUUIDType, "nope", nil, true},
		{engine.BytesType, "0x0aff", []byte{0x0a, 0xff}, false},
		{engine.BytesType, "0xzz", nil, true},
		{engine.BytesType, "abc", []byte("abc"), false},
		{engine.UTF8Type, "0x00", []byte("0x00"), false},
	}
	for _, tc := range tests {
		got, err := parseBound(tc.cmp, tc.in)
		if (err != nil) != tc.wantErr || string(got) != string(tc.want) {
			t.Errorf("parseBound(%v, %q) = %x, %v", tc.cmp, tc.in, got, err)
		}
	}
}
