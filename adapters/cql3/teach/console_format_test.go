package teach

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"
)

func TestCqlshFormatsValuesAsCqlshDoes(t *testing.T) {
	nt := func(typ gocql.Type) gocql.TypeInfo { return gocql.NewNativeType(4, typ, "") }
	coll := func(typ gocql.Type, key, elem gocql.TypeInfo) gocql.TypeInfo {
		return gocql.CollectionType{NativeType: gocql.NewNativeType(4, typ, ""), Key: key, Elem: elem}
	}
	at := time.Date(2026, 11, 28, 14, 5, 6, 123000000, time.UTC)
	for _, tc := range []struct {
		ti   gocql.TypeInfo
		v    any
		want string
	}{
		{nt(gocql.TypeText), "it's", "it's"},
		{nt(gocql.TypeBoolean), true, "True"},
		{nt(gocql.TypeBoolean), false, "False"},
		{nt(gocql.TypeInt), 42, "42"},
		{nt(gocql.TypeFloat), float32(1.0 / 3), "0.33333"},
		{nt(gocql.TypeDouble), 1.0 / 3, "0.333333333333"},
		{nt(gocql.TypeTimestamp), at, "2026-11-28 14:05:06.123000+0000"},
		{nt(gocql.TypeDate), at, "2026-11-28"},
		{nt(gocql.TypeBlob), []byte{0xca, 0xfe}, "0xcafe"},
		{coll(gocql.TypeList, nil, nt(gocql.TypeText)), []string{"a", "b'c"}, "['a', 'b''c']"},
		{coll(gocql.TypeSet, nil, nt(gocql.TypeInt)), []int{1, 2}, "{1, 2}"},
		{coll(gocql.TypeMap, nt(gocql.TypeInt), nt(gocql.TypeText)), map[int]string{10: "x", 9: "y"}, "{9: 'y', 10: 'x'}"},
		{nt(gocql.TypeDuration), gocql.Duration{Months: 14, Days: 2, Nanoseconds: int64(90 * time.Minute)}, "1y2mo2d1h30m"},
	} {
		if got := formatCQL(tc.ti, reflect.ValueOf(tc.v), false); got != tc.want {
			t.Errorf("%v %v: %q, want %q", tc.ti, tc.v, got, tc.want)
		}
	}
	var b strings.Builder
	cqlshTable(&b, []string{"k", "value"}, [][]string{{"1", "a"}, {"22", "bbbbbbb"}})
	if want := " k  | value\n----+---------\n  1 |       a\n 22 | bbbbbbb\n\n"; b.String() != want {
		t.Errorf("cqlshTable:\n%q\nwant\n%q", b.String(), want)
	}
}
