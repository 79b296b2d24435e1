package teach

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/scylladb/gocqlx/v2"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// The collections lesson's lab (teaching.AddressBookLab) on the real node: seed 004's
// AddressBook entry written in four tables of the server's keyspace, one per form, made at first
// use (with their type) and owned by the lesson. Each learner's rows are a partition of their
// own (the owner, a scratch id), deleted at the end of each run, and every table expires what a
// run left behind (addressBookTTL). The statements are composed here with literals, the one
// place they are: the keyspace comes from validated settings, the owner passes ownerPattern,
// and every other value is the seed's (teaching.AddressEntry).
//
// The cells are read with WRITETIME: in Cassandra 5.0 it takes a field of a user type
// (WRITETIME(address.city)) and a whole non-frozen collection, whose answer is a list with a
// write time per element, in the elements' order (CASSANDRA-8877); a frozen value is one cell,
// with one write time.

const (
	// addressBookTTL is every lab table's default_time_to_live: a run's rows outlive it only
	// when its last statement failed, and go then.
	addressBookTTL = 600
	// addressBookGrace is every lab table's gc_grace_seconds: the tombstones of the runs'
	// deletions (and of their expired cells) go at the first compaction an hour on, not ten
	// days on; a replica that missed a deletion can bring back only cells that expire anyway.
	addressBookGrace = 3600
	// addressBookRuns is how many runs one learner may start a minute on one server.
	addressBookRuns = 20
)

// ownerPattern is what an owner may be: a scratch id.
var ownerPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// addressBook is the lab's state in this process.
type addressBook struct {
	mu    sync.Mutex
	ready bool
	runs  trialLimiter
}

// addressTables are the lab's tables by form.
var addressTables = map[teaching.AddressForm]string{
	teaching.Rows: "addressbook_rows", teaching.Map: "addressbook_map", teaching.UDT: "addressbook_udt", teaching.Frozen: "addressbook_frozen"}

const addressType = "addressbook_address"

// AddressSchema implements teaching.AddressBookLab.
func (s *Store) AddressSchema() []string {
	ks := s.Keyspace()
	with := fmt.Sprintf(" WITH default_time_to_live = %d AND gc_grace_seconds = %d", addressBookTTL, addressBookGrace)
	var fields []string
	for _, f := range teaching.AddressEntry.Fields {
		fields = append(fields, f.Name+" text")
	}
	return []string{
		"CREATE TYPE IF NOT EXISTS " + ks + "." + addressType + " (" + strings.Join(fields, ", ") + ")",
		"CREATE TABLE IF NOT EXISTS " + ks + ".addressbook_rows (owner text, entry text, field text, value text, PRIMARY KEY (owner, entry, field))" + with,
		"CREATE TABLE IF NOT EXISTS " + ks + ".addressbook_map (owner text, entry text, address map<text, text>, PRIMARY KEY (owner, entry))" + with,
		"CREATE TABLE IF NOT EXISTS " + ks + ".addressbook_udt (owner text, entry text, address " + addressType + ", PRIMARY KEY (owner, entry))" + with,
		"CREATE TABLE IF NOT EXISTS " + ks + ".addressbook_frozen (owner text, entry text, address frozen<" + addressType + ">, PRIMARY KEY (owner, entry))" + with,
	}
}

// ensureAddressBook makes the lab's type and tables, once per process, and waits until the
// cluster agrees on them.
// It returns the statements it sent: none once the process has made them.
func (s *Store) ensureAddressBook(ctx context.Context, sess gocqlx.Session) ([]teaching.LabStatement, error) {
	b := &s.book
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ready {
		return nil, nil
	}
	var sent []teaching.LabStatement
	for _, stmt := range s.AddressSchema() {
		st, err := addressExec(ctx, sess, stmt)
		sent = append(sent, st)
		if err != nil {
			return sent, wrap("address book schema", err)
		}
	}
	if err := sess.AwaitSchemaAgreement(ctx); err != nil {
		return sent, wrap("address book schema agreement", err)
	}
	b.ready = true
	return sent, nil
}

// lit is s as a CQL string literal, its quotes doubled: the lessons' statements are shown as
// sent, values inline, so that a learner can copy one into cqlsh.
func lit(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// addressFields are the entry's fields, the city changed when city is set, the state left out
// when three is.
func addressFields(city string, three bool) []teaching.AddressField {
	var out []teaching.AddressField
	for _, f := range teaching.AddressEntry.Fields {
		if city != "" && f.Name == "city" {
			f.Value = city
		}
		if three && f.Name == "state" {
			continue
		}
		out = append(out, f)
	}
	return out
}

// mapLiteral and udtLiteral write fields as a map's literal and a user type's.
func mapLiteral(fs []teaching.AddressField) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, lit(f.Name)+": "+lit(f.Value))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func udtLiteral(fs []teaching.AddressField) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, f.Name+": "+lit(f.Value))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// addressWrite is the statement that writes fields at ts into form's table for owner: an
// insert of the entry, or an update of its address.
func addressWrite(ks, owner string, form teaching.AddressForm, fs []teaching.AddressField, ts int64, update bool) string {
	table, entry := ks+"."+addressTables[form], teaching.AddressEntry.Name
	switch form {
	case teaching.Rows:
		var ins []string
		for _, f := range fs {
			ins = append(ins, fmt.Sprintf("INSERT INTO %s (owner, entry, field, value) VALUES (%s, %s, %s, %s);", table, lit(owner), lit(entry), lit(f.Name), lit(f.Value)))
		}
		return fmt.Sprintf("BEGIN UNLOGGED BATCH USING TIMESTAMP %d %s APPLY BATCH", ts, strings.Join(ins, " "))
	case teaching.Map:
		if update {
			return fmt.Sprintf("UPDATE %s USING TIMESTAMP %d SET address = %s WHERE owner = %s AND entry = %s", table, ts, mapLiteral(fs), lit(owner), lit(entry))
		}
		return fmt.Sprintf("INSERT INTO %s (owner, entry, address) VALUES (%s, %s, %s) USING TIMESTAMP %d", table, lit(owner), lit(entry), mapLiteral(fs), ts)
	default:
		if update {
			return fmt.Sprintf("UPDATE %s USING TIMESTAMP %d SET address = %s WHERE owner = %s AND entry = %s", table, ts, udtLiteral(fs), lit(owner), lit(entry))
		}
		return fmt.Sprintf("INSERT INTO %s (owner, entry, address) VALUES (%s, %s, %s) USING TIMESTAMP %d", table, lit(owner), lit(entry), udtLiteral(fs), ts)
	}
}

// addressFieldUpdate is the statement that sets the city alone.
func addressFieldUpdate(ks, owner string, form teaching.AddressForm, city string, ts int64) string {
	table, entry := ks+"."+addressTables[form], teaching.AddressEntry.Name
	switch form {
	case teaching.Rows:
		return fmt.Sprintf("UPDATE %s USING TIMESTAMP %d SET value = %s WHERE owner = %s AND entry = %s AND field = 'city'", table, ts, lit(city), lit(owner), lit(entry))
	case teaching.Map:
		return fmt.Sprintf("UPDATE %s USING TIMESTAMP %d SET address['city'] = %s WHERE owner = %s AND entry = %s", table, ts, lit(city), lit(owner), lit(entry))
	default:
		return fmt.Sprintf("UPDATE %s USING TIMESTAMP %d SET address.city = %s WHERE owner = %s AND entry = %s", table, ts, lit(city), lit(owner), lit(entry))
	}
}

// addressRead is the statement that reads the entry's cells with their write times.
func addressRead(ks, owner string, form teaching.AddressForm) string {
	table, where := ks+"."+addressTables[form], " WHERE owner = "+lit(owner)+" AND entry = "+lit(teaching.AddressEntry.Name)
	var fields, times []string
	for _, f := range teaching.AddressEntry.Fields {
		fields = append(fields, "address."+f.Name)
		times = append(times, "WRITETIME(address."+f.Name+")")
	}
	switch form {
	case teaching.Rows:
		return "SELECT field, value, WRITETIME(value) FROM " + table + where
	case teaching.Map:
		return "SELECT address, WRITETIME(address) FROM " + table + where
	case teaching.UDT:
		return "SELECT " + strings.Join(fields, ", ") + ", " + strings.Join(times, ", ") + " FROM " + table + where
	default:
		return "SELECT " + strings.Join(fields, ", ") + ", WRITETIME(address) FROM " + table + where
	}
}

// addressRunsPerMinute bounds the address book lab's runs for the whole cluster (each writes
// and deletes one entry in a table of each form).
const addressRunsPerMinute = 60

// RunAddress implements teaching.AddressBookLab.
func (s *Store) RunAddress(ctx context.Context, learner, owner string, form teaching.AddressForm, change teaching.AddressChange) (run teaching.AddressRun, err error) {
	run = teaching.AddressRun{Form: form, Change: change, Table: addressTables[form]}
	if err := teaching.ValidAddress(form, change); err != nil {
		return run, err
	}
	if !ownerPattern.MatchString(owner) {
		return run, domain.Invalid("owner", "must be 1 to 64 letters, digits, - or _")
	}
	sess, err := s.sess()
	if err != nil {
		return run, err
	}
	if !s.book.runs.allow(learner, time.Now()) {
		return run, teaching.ErrTooManyTrials
	}
	if err := s.spendRun(ctx, sess, "addressbook", "the address book lab", addressRunsPerMinute); err != nil {
		return run, err
	}
	if run.Made, err = s.ensureAddressBook(ctx, sess); err != nil {
		return run, err
	}
	ks := s.Keyspace()
	t0 := time.Now().UnixMicro()
	t1 := t0 + 1000
	defer func() {
		stmt := "DELETE FROM " + ks + "." + run.Table + " WHERE owner = " + lit(owner)
		st, _ := addressExec(context.WithoutCancel(ctx), sess, stmt)
		run.Cleanup = st
	}()
	step := func(what string, ts int64, stmts ...string) error {
		st := teaching.AddressStep{What: what, Timestamp: ts}
		for i, stmt := range stmts {
			ls, err := addressExec(ctx, sess, stmt)
			st.Writes = append(st.Writes, ls)
			if err != nil {
				if _, refused := refusal(err); refused && i < len(stmts)-1 {
					continue // the frozen form's field: refused, then written whole
				}
				return wrap("address book", err)
			}
			break
		}
		read, cells, err := addressCells(ctx, sess, addressRead(ks, owner, form), form)
		st.Read, st.Cells = read, cells
		run.Steps = append(run.Steps, st)
		return err
	}
	if err := step("write the entry", t0, addressWrite(ks, owner, form, addressFields("", false), t0, false)); err != nil {
		return run, err
	}
	switch {
	case change == teaching.Whole:
		err = step("overwrite the address with three fields", t1, addressWrite(ks, owner, form, addressFields(teaching.ChangedCity, true), t1, true))
	case form == teaching.Frozen:
		err = step("change the city", t1, addressFieldUpdate(ks, owner, form, teaching.ChangedCity, t1),
			addressWrite(ks, owner, form, addressFields(teaching.ChangedCity, false), t1, true))
	default:
		err = step("change the city", t1, addressFieldUpdate(ks, owner, form, teaching.ChangedCity, t1))
	}
	return run, err
}

// addressExec runs a write of the lab and records it, with Cassandra's refusal when it refused.
func addressExec(ctx context.Context, sess gocqlx.Session, cql string) (teaching.LabStatement, error) {
	start := time.Now()
	err := sess.ContextQuery(ctx, cql, nil).ExecRelease()
	st := teaching.LabStatement{CQL: cql, Took: time.Since(start), Rows: -1}
	if err != nil {
		st.Error = "error"
		if msg, ok := refusal(err); ok {
			st.Error = "InvalidRequest: " + msg
		}
	}
	return st, err
}

// addressCells runs the read of an entry and returns its cells: a row's value each (rows), an
// element each, by key (map), a field each that is not null (udt), the whole value (frozen).
func addressCells(ctx context.Context, sess gocqlx.Session, cql string, form teaching.AddressForm) (teaching.LabStatement, []teaching.AddressCell, error) {
	start := time.Now()
	q := sess.ContextQuery(ctx, cql, nil)
	defer q.Release()
	iter := q.Iter()
	var cells []teaching.AddressCell
	rows := 0
	n := len(teaching.AddressEntry.Fields)
	switch form {
	case teaching.Rows:
		var field, value string
		var ts int64
		for iter.Scan(&field, &value, &ts) {
			rows++
			cells = append(cells, teaching.AddressCell{Name: field, Value: lit(value), Timestamp: ts})
		}
	case teaching.Map:
		var m map[string]string
		var ts []int64
		for iter.Scan(&m, &ts) {
			rows++
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys) // a map's elements are stored in its keys' order (UTF8Type: bytes)
			for i, k := range keys {
				c := teaching.AddressCell{Name: "address[" + lit(k) + "]", Value: lit(m[k])}
				if i < len(ts) {
					c.Timestamp = ts[i]
				}
				cells = append(cells, c)
			}
		}
	default:
		values, times := make([]*string, n), make([]*int64, n)
		dest := make([]any, 0, 2*n)
		for i := range values {
			dest = append(dest, &values[i])
		}
		if form == teaching.UDT {
			for i := range times {
				dest = append(dest, &times[i])
			}
		} else {
			times = times[:1]
			dest = append(dest, &times[0])
		}
		for iter.Scan(dest...) {
			rows++
			if form == teaching.Frozen {
				if times[0] == nil {
					continue
				}
				var parts []string
				for i, f := range teaching.AddressEntry.Fields {
					v := "null"
					if values[i] != nil {
						v = lit(*values[i])
					}
					parts = append(parts, f.Name+": "+v)
				}
				cells = append(cells, teaching.AddressCell{Name: "address", Value: "{" + strings.Join(parts, ", ") + "}", Timestamp: *times[0]})
				continue
			}
			for i, f := range teaching.AddressEntry.Fields {
				if times[i] == nil { // a null field is no cell
					continue
				}
				cells = append(cells, teaching.AddressCell{Name: "address." + f.Name, Value: lit(*values[i]), Timestamp: *times[i]})
			}
		}
	}
	err := iter.Close()
	st := teaching.LabStatement{CQL: cql, Took: time.Since(start), Rows: rows}
	if err != nil {
		st.Error, st.Rows = "error", -1
		return st, nil, wrap("address book read", err)
	}
	return st, cells, nil
}

// addressLimitNames are the guardrails of 5.0 on collections and user types.
var addressLimitNames = []string{"items_per_collection_warn_threshold", "items_per_collection_fail_threshold",
	"collection_size_warn_threshold", "collection_size_fail_threshold", "fields_per_udt_warn_threshold", "fields_per_udt_fail_threshold"}

// AddressLimits implements teaching.AddressBookLab.
func (s *Store) AddressLimits(ctx context.Context) ([]teaching.Setting, string, error) {
	sess, err := s.sess()
	if err != nil {
		return nil, "", err
	}
	stmt := "SELECT name, value FROM system_views.settings WHERE name IN ('" + strings.Join(addressLimitNames, "', '") + "')"
	iter := sess.ContextQuery(ctx, stmt, nil).Iter()
	var out []teaching.Setting
	var name string
	var value *string
	for iter.Scan(&name, &value) {
		st := teaching.Setting{Name: name}
		if value != nil {
			st.Value = *value
		}
		out = append(out, st)
	}
	if err := iter.Close(); err != nil {
		return nil, stmt, wrap("address book limits", err)
	}
	return out, stmt, nil
}
