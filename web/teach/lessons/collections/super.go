package collections

import (
	"context"

	"twissandra/ports/teaching"
	"twissandra/web/teach/frame"
)

// The engine's side: the entry as seed 004 wrote it, a super column John of the learner's
// AddressBook row (the comparator lab's Scratch.AddressBook, teaching.PrimerSuper), each field
// a subcolumn written by one insert, then the same change as on the node.

// superStep is one write of the engine's run: the inserts it took, and John's subcolumns after
// it, with the highest timestamp before it (the subcolumns above it are the step's).
type superStep struct {
	What    string
	Calls   []string
	Columns []teaching.WideColumn
	Before  int64
}

// superRun is the engine's run: the row and its comparators, and the steps.
type superRun struct {
	Keyspace, ColumnFamily, Key string
	Comparator, SubComparator   string
	Steps                       []superStep
}

// Written is the subcolumns the last step wrote.
func (r superRun) Written() int {
	if len(r.Steps) == 0 {
		return 0
	}
	last, n := r.Steps[len(r.Steps)-1], 0
	for _, c := range last.Columns {
		if c.Timestamp > last.Before {
			n++
		}
	}
	return n
}

// Names is the subcolumns' names after step i, in the order the engine returned them.
func (r superRun) Names(i int) []string {
	var out []string
	for _, c := range r.Steps[i].Columns {
		out = append(out, c.Name)
	}
	return out
}

// changedFields are the fields a change writes: the city alone, or three of the four (the
// state left out), the city changed.
func changedFields(change teaching.AddressChange) []teaching.AddressField {
	var out []teaching.AddressField
	for _, f := range teaching.AddressEntry.Fields {
		switch {
		case f.Name == "city":
			out = append(out, teaching.AddressField{Name: f.Name, Value: teaching.ChangedCity})
		case change == teaching.Whole && f.Name != "state":
			out = append(out, f)
		}
	}
	return out
}

// runSuper writes the entry into session's AddressBook row, applies change (none when change is
// ""), and clears the row.
func runSuper(ctx context.Context, lab teaching.ColumnLab, session string, change teaching.AddressChange) (r superRun, err error) {
	defer func() {
		if cerr := lab.Clear(context.WithoutCancel(ctx), session); err == nil {
			err = cerr
		}
	}()
	var before int64
	write := func(what string, fields []teaching.AddressField) error {
		st := superStep{What: what, Before: before}
		var stored teaching.LabStored
		for _, f := range fields {
			var err error
			if stored, err = lab.Put(ctx, session, teaching.LabPut{SuperColumn: teaching.AddressEntry.Name, Name: f.Name, Value: f.Value}); err != nil {
				return err
			}
			st.Calls = append(st.Calls, stored.Call)
		}
		r.Keyspace, r.ColumnFamily, r.Key, r.Comparator, r.SubComparator = stored.Keyspace, stored.ColumnFamily, stored.Key, stored.Comparator, stored.SubComparator
		for _, sc := range stored.Columns {
			if frame.NameText(sc.Name) == teaching.AddressEntry.Name {
				for _, c := range sc.Columns {
					c.Name = frame.NameText(c.Name)
					st.Columns = append(st.Columns, c)
				}
			}
		}
		for _, c := range st.Columns {
			before = max(before, c.Timestamp)
		}
		r.Steps = append(r.Steps, st)
		return nil
	}
	if err := write("write the entry", teaching.AddressEntry.Fields); err != nil {
		return r, err
	}
	if change == "" {
		return r, nil
	}
	what := "change the city"
	if change == teaching.Whole {
		what = "write the address again with three fields"
	}
	return r, write(what, changedFields(change))
}
