package teach

import (
	"strings"
	"testing"
	"time"

	"twissandra/ports/teaching"
)

// The storage inspector reads the collections lesson's tables: a non-frozen user type, like a
// collection, is read without one WRITETIME (on 5.0 its write times are a list, one per field),
// a frozen one with its one; a user type's value is written as CQL writes it, its fields in the
// type's order.
func TestInspectorReadsTheAddressBookForms(t *testing.T) {
	t.Parallel()
	s := sharedStore(t)
	ctx := testCtx(t, time.Minute)
	sess := mustSess(t, s)
	if _, err := s.ensureAddressBook(ctx, sess); err != nil {
		t.Fatal(err)
	}
	owner := "inspect-" + strings.ReplaceAll(t.Name(), "/", "-")
	for _, f := range teaching.AddressForms {
		stmt := addressWrite(s.Keyspace(), owner, f, teaching.AddressEntry.Fields, time.Now().UnixMicro(), false)
		if _, err := addressExec(ctx, sess, stmt); err != nil {
			t.Fatal(err)
		}
		rows, err := s.ReadPartition(ctx, addressTables[f], []string{owner}, teaching.Slice{Count: 10})
		if err != nil || len(rows) == 0 {
			t.Fatalf("%s: %v, %d rows", f, err, len(rows))
		}
		// The address (the value of the first field's row for rows), with a write time where
		// it is one cell.
		last := rows[0][len(rows[0])-1]
		oneCell := f == teaching.Rows || f == teaching.Frozen
		value := map[teaching.AddressForm]string{teaching.Rows: "'FC'", teaching.Map: "{'city': 'FC', 'state': 'CA', 'street': 'Howard street', 'zip': '94404'}",
			teaching.UDT: "{street: 'Howard street', zip: '94404', city: 'FC', state: 'CA'}", teaching.Frozen: "{street: 'Howard street', zip: '94404', city: 'FC', state: 'CA'}"}[f]
		if (last.Timestamp != 0) != oneCell || last.Value != value {
			t.Errorf("%s: the inspector's last cell %+v", f, last)
		}
	}
}

func TestMultiCell(t *testing.T) {
	for typ, want := range map[string]bool{"map<text, text>": true, "set<int>": true, "list<text>": true, "addressbook_address": true,
		"frozen<addressbook_address>": false, "frozen<map<text, text>>": false, "text": false, "timeuuid": false, "tuple<int, text>": false} {
		if got := multiCell(typ); got != want {
			t.Errorf("multiCell(%q) = %v, want %v", typ, got, want)
		}
	}
}
