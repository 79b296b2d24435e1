package domain

import "testing"

func TestRedactColumn(t *testing.T) {
	t.Parallel()
	bcrypt := []byte("$2a$10$abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWXYZ01234")
	cases := []struct {
		name  string
		value []byte
		want  string
		ok    bool
	}{
		{"password", bcrypt, "<bcrypt hash, 60 bytes>", true},
		{"Password", []byte("xyz"), "<password hash, 3 bytes>", true},
		{"email", []byte("a@example.com"), "<email, hidden>", true},
		{"body", []byte("hello"), "", false},
		{"username", []byte("ericflo"), "", false},
	}
	for _, c := range cases {
		got, ok := RedactColumn(c.name, c.value)
		if got != c.want || ok != c.ok {
			t.Errorf("RedactColumn(%q) = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
