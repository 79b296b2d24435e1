package domain

import (
	"fmt"
	"strings"
)

// Secret column names: the same in every model (the User column family and the users table
// hold "password", the Comments super column family and the comments table hold "email").
const (
	PasswordColumn = "password"
	EmailColumn    = "email"
)

// RedactColumn says how a page shows a stored column's value: a secret (a password hash, a
// commenter's email) is replaced by what it is, so that a learner sees that the column exists
// and how large it is, never its bytes. ok is false for columns that are not secret.
func RedactColumn(name string, value []byte) (shown string, ok bool) {
	switch strings.ToLower(name) {
	case PasswordColumn:
		kind := "password hash"
		if len(value) == 60 && strings.HasPrefix(string(value), "$2") {
			kind = "bcrypt hash"
		}
		return fmt.Sprintf("<%s, %d bytes>", kind, len(value)), true
	case EmailColumn:
		return "<email, hidden>", true
	}
	return "", false
}
