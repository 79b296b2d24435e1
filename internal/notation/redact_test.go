package notation

import (
	"bytes"
	"testing"

	"twissandra/adapters/widerow/engine"
)

func TestRedact(t *testing.T) {
	t.Parallel()
	hash := []byte("$2a$04$abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWXYZ01234")
	cols := []engine.ColumnOrSuperColumn{
		{Column: &engine.Column{Name: []byte("username"), Value: []byte("rita")}},
		{Column: &engine.Column{Name: []byte("password"), Value: hash}},
		{SuperColumn: &engine.SuperColumn{Name: []byte("c1"), Columns: []engine.Column{
			{Name: []byte("commenter"), Value: []byte("rita")},
			{Name: []byte("email"), Value: []byte("rita@example.com")},
		}}},
	}
	got := Redact(cols)
	if string(got[0].Column.Value) != "rita" {
		t.Errorf("username changed: %q", got[0].Column.Value)
	}
	if string(got[1].Column.Value) != "<bcrypt hash, 60 bytes>" {
		t.Errorf("password: %q", got[1].Column.Value)
	}
	sub := got[2].SuperColumn.Columns
	if string(sub[0].Value) != "rita" || string(sub[1].Value) != "<email, hidden>" {
		t.Errorf("super column: %q %q", sub[0].Value, sub[1].Value)
	}
	// The caller's columns are untouched.
	if !bytes.Equal(cols[1].Column.Value, hash) || string(cols[2].SuperColumn.Columns[1].Value) != "rita@example.com" {
		t.Error("Redact changed its input")
	}
	// Nothing secret: the same slice back.
	plain := cols[:1]
	if got := Redact(plain); &got[0] != &plain[0] {
		t.Error("a row without secrets was copied")
	}
}
