package engine

import (
	"slices"
	"unicode/utf8"
)

func validateKey(key string) error {
	switch {
	case key == "":
		return invalidf("Key may not be empty")
	case len(key) > MaxNameLength:
		return invalidf("Key length of %d is longer than maximum of %d", len(key), MaxNameLength)
	case !utf8.ValidString(key):
		return invalidf("Key must be valid UTF-8")
	}
	return nil
}

func validateConsistency(cl ConsistencyLevel, read bool) error {
	if cl < ZERO || cl > ANY {
		return invalidf("invalid consistency level %d", int32(cl))
	}
	if read && cl == ZERO {
		return invalidf("Consistency level zero may not be applied to read operations")
	}
	if read && cl == ANY {
		return invalidf("Consistency level any may not be applied to read operations")
	}
	return nil
}

// validateName checks a column or super column name that is to be stored
// or looked up (not a slice bound, which may be empty).
func validateName(c Comparator, name []byte) error {
	if len(name) == 0 {
		return invalidf("column name must not be empty")
	}
	if len(name) > MaxNameLength {
		return invalidf("column name length must not be greater than %d", MaxNameLength)
	}
	return c.Validate(name)
}

// validateParent checks a ColumnParent and returns the comparator that
// orders what lives directly under it.
func validateParent(cf *cfInfo, p *ColumnParent) (Comparator, error) {
	if !cf.super {
		if len(p.SuperColumn) != 0 {
			return 0, invalidf("columnfamily alone is required for standard CF %s", cf.name)
		}
		return cf.cmp, nil
	}
	if len(p.SuperColumn) == 0 {
		return cf.cmp, nil
	}
	if err := validateName(cf.cmp, p.SuperColumn); err != nil {
		return 0, err
	}
	return cf.sub, nil
}

// validatePredicate checks a predicate against the comparator of the names
// it selects and returns the column_names sorted in comparator order,
// without duplicates.
func validatePredicate(c Comparator, p *SlicePredicate) ([][]byte, error) {
	if p.ColumnNames != nil && p.SliceRange != nil {
		return nil, invalidf("predicate column_names and slice_range may not both be present")
	}
	if p.ColumnNames == nil && p.SliceRange == nil {
		return nil, invalidf("A SlicePredicate must be given a list of Columns, a SliceRange, or both")
	}
	if p.SliceRange != nil {
		return nil, validateRange(c, p.SliceRange)
	}
	for _, name := range p.ColumnNames {
		if err := validateName(c, name); err != nil {
			return nil, err
		}
	}
	names := slices.Clone(p.ColumnNames)
	slices.SortFunc(names, c.Compare)
	return slices.CompactFunc(names, func(a, b []byte) bool { return c.Compare(a, b) == 0 }), nil
}

func validateRange(c Comparator, r *SliceRange) error {
	if r.Count < 0 {
		return invalidf("get_slice requires non-negative count")
	}
	for _, b := range [][]byte{r.Start, r.Finish} {
		if len(b) > MaxNameLength {
			return invalidf("column name length must not be greater than %d", MaxNameLength)
		}
		if err := c.Validate(b); err != nil {
			return err
		}
	}
	if len(r.Start) > 0 && len(r.Finish) > 0 {
		cmp := c.Compare(r.Start, r.Finish)
		if (!r.Reversed && cmp > 0) || (r.Reversed && cmp < 0) {
			return invalidf("range finish must come after start in the order of traversal")
		}
	}
	return nil
}

// validateStandardPath checks the path of one column of a standard CF (a get or an insert).
func validateStandardPath(cf *cfInfo, p *ColumnPath) error {
	if len(p.SuperColumn) > 0 {
		return invalidf("supercolumn parameter is invalid for standard CF %s", cf.name)
	}
	if len(p.Column) == 0 {
		return invalidf("column parameter is not optional for standard CF %s", cf.name)
	}
	return validateName(cf.cmp, p.Column)
}
