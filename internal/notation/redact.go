package notation

import (
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
)

// Redact returns cols with each secret column's value (a password hash, an email) replaced by
// what it is, "<bcrypt hash, 60 bytes>" (domain.RedactColumn), for the operator tools' default
// output. cols is not changed; it is returned as it is when it holds no secret.
func Redact(cols []engine.ColumnOrSuperColumn) []engine.ColumnOrSuperColumn {
	var out []engine.ColumnOrSuperColumn
	set := func(i int, c engine.ColumnOrSuperColumn) {
		if out == nil {
			out = append([]engine.ColumnOrSuperColumn(nil), cols...)
		}
		out[i] = c
	}
	for i, c := range cols {
		switch {
		case c.Column != nil:
			if col, ok := redactColumn(*c.Column); ok {
				set(i, engine.ColumnOrSuperColumn{Column: &col})
			}
		case c.SuperColumn != nil:
			var sub []engine.Column
			for j, sc := range c.SuperColumn.Columns {
				if col, ok := redactColumn(sc); ok {
					if sub == nil {
						sub = append([]engine.Column(nil), c.SuperColumn.Columns...)
					}
					sub[j] = col
				}
			}
			if sub != nil {
				set(i, engine.ColumnOrSuperColumn{SuperColumn: &engine.SuperColumn{Name: c.SuperColumn.Name, Columns: sub}})
			}
		}
	}
	if out == nil {
		return cols
	}
	return out
}

func redactColumn(c engine.Column) (engine.Column, bool) {
	shown, ok := domain.RedactColumn(string(c.Name), c.Value)
	if ok {
		c.Value = []byte(shown)
	}
	return c, ok
}
