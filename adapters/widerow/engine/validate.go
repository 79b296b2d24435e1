package engine

import (
	"slices"
	"unicode/utf8"
)

// The validation below follows Cassandra 0.6.6's ThriftValidation and CassandraServer
// (the 0.6 branch as of October 2010; 0.6.2 says the same but for the Deletion checks): where
// 0.6 refused a request, the message is 0.6's own. Where 0.6 took a request and then failed
// inside (an assertion or a ClassCastException, no InvalidRequestException), the engine refuses
// it with a message of its own, and the comment there says so.

// validateKey checks a row key as 0.6's ThriftValidation.validateKey does: not empty, and
// at most 65535 bytes once encoded as Java's DataOutput.writeUTF writes it (the row key's
// 2-byte length in a commit log or an SSTable). Valid UTF-8 is the engine's own check: 0.6
// received keys as Java strings, which Thrift had already decoded.
func validateKey(key string) error {
	switch {
	case key == "":
		return invalidf("Key may not be empty")
	case len(key) > MaxNameLength/3: // shorter keys cannot encode to more than 65535 bytes
		if n := modifiedUTF8Length(key); n > MaxNameLength {
			return invalidf("Encoded key length of %d is longer than maximum of %d", n, MaxNameLength)
		}
	}
	if !utf8.ValidString(key) {
		return invalidf("Key must be valid UTF-8")
	}
	return nil
}

// modifiedUTF8Length is the length of s in Java's modified UTF-8 (0.6's
// FBUtilities.encodedUTF8Length): one byte for U+0001 to U+007F, two for U+0000 and up to
// U+07FF, three for every other UTF-16 code unit, so six for a character above U+FFFF (two
// surrogates). A byte that is not UTF-8 counts as the U+FFFD it decodes to.
func modifiedUTF8Length(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x01 && r <= 0x7f:
			n++
		case r <= 0x7ff:
			n += 2
		case r <= 0xffff:
			n += 3
		default:
			n += 6
		}
	}
	return n
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
	if len(name) > MaxNameLength {
		return invalidf("column name length must not be greater than %d", MaxNameLength)
	}
	if len(name) == 0 {
		return invalidf("column name must not be empty")
	}
	return c.Validate(name)
}

// validateColumns checks names as 0.6's ThriftValidation.validateColumns does: with a super
// column (hasSC), the super column's name and that the column family is super, then the names
// under the comparator of what they name.
func validateColumns(cf *cfInfo, sc []byte, hasSC bool, names ...[]byte) error {
	c := cf.cmp
	if hasSC {
		if len(sc) > MaxNameLength {
			return invalidf("supercolumn name length must not be greater than %d", MaxNameLength)
		}
		if len(sc) == 0 {
			return invalidf("supercolumn name must not be empty")
		}
		if !cf.super {
			return invalidf("supercolumn specified to ColumnFamily %s containing normal columns", cf.name)
		}
		c = cf.sub
	}
	for _, name := range names {
		if err := validateName(c, name); err != nil {
			return err
		}
	}
	return nil
}

// validatePath checks the path of one column or super column as 0.6's
// ThriftValidation.validateColumnPath does (insert, get, and each column of a
// ColumnOrSuperColumn): a standard CF takes a column and no super column, a super CF a super
// column, and then a column inside it or none. hasSC and hasCol say which are given.
func validatePath(cf *cfInfo, sc, col []byte, hasSC, hasCol bool) error {
	if !cf.super {
		if hasSC {
			return invalidf("supercolumn parameter is invalid for standard CF %s", cf.name)
		}
		if !hasCol {
			return invalidf("column parameter is not optional for standard CF %s", cf.name)
		}
	} else if !hasSC {
		return invalidf("supercolumn parameter is not optional for super CF %s", cf.name)
	}
	if hasCol {
		if err := validateColumns(cf, sc, hasSC, col); err != nil {
			return err
		}
	}
	if hasSC {
		return validateName(cf.cmp, sc)
	}
	return nil
}

// validateColumnPath is validatePath of a ColumnPath, whose empty names are absent ones.
func validateColumnPath(cf *cfInfo, p *ColumnPath) error {
	return validatePath(cf, p.SuperColumn, p.Column, len(p.SuperColumn) > 0, len(p.Column) > 0)
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
		return nil, invalidf("predicate column_names and slice_range may not both be null")
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

// validateRange checks a SliceRange in 0.6's order: its bounds under the comparator, its
// count, the order of its bounds. (0.6 did not bound a bound's length; the engine, which
// encodes bounds as names, does.)
func validateRange(c Comparator, r *SliceRange) error {
	for _, b := range [][]byte{r.Start, r.Finish} {
		if err := c.Validate(b); err != nil {
			return err
		}
	}
	if r.Count < 0 {
		return invalidf("get_slice requires non-negative count")
	}
	for _, b := range [][]byte{r.Start, r.Finish} {
		if len(b) > MaxNameLength {
			return invalidf("column name length must not be greater than %d", MaxNameLength)
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
