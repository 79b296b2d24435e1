package teaching

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"twissandra/domain"
)

// AddressBookLab is the collections lesson's lab: seed 004's AddressBook, a super column family
// of 0.6 (a row per owner, a super column per entry, a subcolumn per address field), written on
// a real node in each of the four forms CQL3 gives it (AddressForms), one address field changed
// or the address overwritten whole, and the cells read back after each statement with the
// timestamp each carries: what each form stores, and what one change writes.
//
// Only a store that speaks CQL can answer; the others return an error that wraps
// ErrNoAddressBook and says why.
type AddressBookLab interface {
	// AddressSchema is the lab's type and tables, each statement as the store sends it at first use.
	AddressSchema() []string
	// RunAddress writes the seed's entry John into form's table for owner (a scratch id of the
	// caller's), applies change, reads the cells back after each statement, and deletes the
	// owner's rows. learner is whom the limit counts (ErrTooManyTrials). An unknown form or
	// change, or an owner that is not a plain id, is domain.ErrInvalid.
	RunAddress(ctx context.Context, learner, owner string, form AddressForm, change AddressChange) (AddressRun, error)
	// AddressLimits reads the node's guardrails on collections and user types from
	// system_views.settings, and returns them with the statement that read them.
	AddressLimits(ctx context.Context) ([]Setting, string, error)
}

// ErrNoAddressBook is what a store without CQL answers with.
var ErrNoAddressBook = errors.New("no CQL node on this backend")

// NoAddressBook is ErrNoAddressBook, with why.
func NoAddressBook(why string) error { return fmt.Errorf("%w: %s", ErrNoAddressBook, why) }

// AddressForm is one way CQL3 stores a super column's subcolumns.
type AddressForm string

// The forms.
const (
	// Rows: the entry and the field are clustering columns, a row per field: the super
	// column's layout itself (the row key the partition key, the super column's name the first
	// clustering column, the subcolumn's the second).
	Rows AddressForm = "rows"
	// Map: a map<text, text> column, an element per field.
	Map AddressForm = "map"
	// UDT: a user-defined type, not frozen (5.0 and 3.6 on): a cell per field.
	UDT AddressForm = "udt"
	// Frozen: a frozen user-defined type: the whole value one cell.
	Frozen AddressForm = "frozen"
)

// AddressForms are the forms, in the order the lesson shows them.
var AddressForms = []AddressForm{Rows, Map, UDT, Frozen}

// AddressChange is what RunAddress does to the entry after writing it.
type AddressChange string

// The changes.
const (
	// OneField changes the city alone (the frozen form cannot: the node refuses, and the
	// whole value is written again with the new city).
	OneField AddressChange = "field"
	// Whole writes the address again as a value of three fields, without the state.
	Whole AddressChange = "whole"
)

// ValidAddress checks a form and a change.
func ValidAddress(form AddressForm, change AddressChange) error {
	if !slices.Contains(AddressForms, form) {
		return domain.Invalid("form", "no form %q (one of rows, map, udt, frozen)", form)
	}
	if change != OneField && change != Whole {
		return domain.Invalid("change", "no change %q (field or whole)", change)
	}
	return nil
}

// AddressField is a field of the seed's entry.
type AddressField struct{ Name, Value string }

// AddressEntry is the entry the lab writes: John in phatduckk's AddressBook (seed 004), its
// fields in the seed's order.
var AddressEntry = struct {
	Owner, Name string
	Fields      []AddressField
}{"phatduckk", "John", []AddressField{{"street", "Howard street"}, {"zip", "94404"}, {"city", "FC"}, {"state", "CA"}}}

// ChangedCity is the city the change writes.
const ChangedCity = "San Francisco"

// AddressRun is what RunAddress did: the table, and each step (the write, the change) with the cells
// the entry holds after it.
type AddressRun struct {
	Form   AddressForm
	Change AddressChange
	Table  string
	// Made is the lab's schema, when this run made it (its first in the process): each
	// statement sent.
	Made    []LabStatement
	Steps   []AddressStep
	Cleanup LabStatement
}

// AddressStep is one write of a run: its statements (a refused one, then the one that did it,
// for the frozen form's field), the timestamp it wrote at (USING TIMESTAMP), the read after it
// and the cells that read found.
type AddressStep struct {
	What      string
	Writes    []LabStatement
	Timestamp int64
	Read      LabStatement
	Cells     []AddressCell
}

// AddressCell is one cell of the entry as the node stores it: a row's value (rows), an element
// (map), a field (udt), or the whole value (frozen); its value in CQL's syntax, and its write
// time (WRITETIME, in microseconds).
type AddressCell struct {
	Name, Value string
	Timestamp   int64
}

// Written is the cells the change wrote: those of the last step that carry its timestamp.
func (r AddressRun) Written() []AddressCell {
	if len(r.Steps) == 0 {
		return nil
	}
	last := r.Steps[len(r.Steps)-1]
	var out []AddressCell
	for _, c := range last.Cells {
		if c.Timestamp == last.Timestamp {
			out = append(out, c)
		}
	}
	return out
}

// Gone is the names of the cells the first step left and the last one no longer holds: what
// the change deleted.
func (r AddressRun) Gone() []string {
	if len(r.Steps) < 2 {
		return nil
	}
	var out []string
	for _, c := range r.Steps[0].Cells {
		if !slices.ContainsFunc(r.Steps[len(r.Steps)-1].Cells, func(d AddressCell) bool { return d.Name == c.Name }) {
			out = append(out, c.Name)
		}
	}
	return out
}

// Setting is a setting of the node, as system_views.settings names it ("" for one unset).
type Setting struct{ Name, Value string }
