package web

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"twissandra/domain"
)

func newTestTokens(t testing.TB, ttl time.Duration) (*Tokens, *fakeClock) {
	t.Helper()
	clock := newFakeClock()
	tk, err := NewTokens(testSecret, ttl, clock)
	if err != nil {
		t.Fatal(err)
	}
	return tk, clock
}

func TestTokenRoundTrip(t *testing.T) {
	t.Parallel()
	tk, clock := newTestTokens(t, time.Hour)
	tok, issued, err := tk.Issue("jericevans")
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) > 160 {
		t.Errorf("token is %d characters, want a compact one", len(tok))
	}
	got, err := tk.Parse(tok)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if got != issued {
		t.Fatalf("claims %+v, want %+v", got, issued)
	}
	if got.Username != "jericevans" || !got.IssuedAt.Equal(clock.Now()) || !got.ExpiresAt.Equal(clock.Now().Add(time.Hour)) {
		t.Fatalf("claims %+v", got)
	}
	tok2, c2, _ := tk.Issue("jericevans")
	if tok2 == tok || c2.ID == issued.ID {
		t.Fatal("two tokens of one user share an id")
	}
}

func TestNewTokensChecksSettings(t *testing.T) {
	t.Parallel()
	if _, err := NewTokens([]byte("short"), 0, nil); err == nil {
		t.Error("a 5-byte secret was accepted")
	}
	if _, err := NewTokens(testSecret, -time.Second, nil); err == nil {
		t.Error("a negative TTL was accepted")
	}
	tk, err := NewTokens(testSecret, 0, nil)
	if err != nil || tk.TTL() != DefaultTokenTTL {
		t.Errorf("default TTL: %v %v", tk, err)
	}
	if _, _, err := tk.Issue("not a name"); !errors.Is(err, domain.ErrInvalid) {
		t.Errorf("Issue of an invalid username: %v", err)
	}
}

// tamper flips one bit of the decoded payload and re-encodes it with the original MAC.
func tamper(tok string) string {
	p, mac, _ := strings.Cut(tok, ".")
	b, _ := tokenEncoding.DecodeString(p)
	b[len(b)-1] ^= 0x01
	return tokenEncoding.EncodeToString(b) + "." + mac
}

func TestTokenRejects(t *testing.T) {
	t.Parallel()
	tk, _ := newTestTokens(t, time.Hour)
	valid, _, _ := tk.Issue("ericflo")
	other, err := NewTokens([]byte("another secret, also 32 bytes long!"), time.Hour, newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	forged, _, _ := other.Issue("ericflo")
	payload, mac, _ := strings.Cut(valid, ".")
	macBytes, _ := tokenEncoding.DecodeString(mac)

	tests := []struct {
		name  string
		token string
		want  error
	}{
		{"empty", "", ErrTokenMalformed},
		{"no dot", payload + mac, ErrTokenMalformed},
		{"empty mac", payload + ".", ErrTokenMalformed},
		{"empty payload", "." + mac, ErrTokenMalformed},
		{"two dots", valid + ".x", ErrTokenMalformed},
		{"not base64", "!!!!." + mac, ErrTokenMalformed},
		{"padded base64", payload + "." + base64.URLEncoding.EncodeToString(macBytes), ErrTokenMalformed},
		{"std alphabet", strings.NewReplacer("-", "+", "_", "/").Replace(valid) + "+/", ErrTokenMalformed},
		{"short mac", payload + "." + tokenEncoding.EncodeToString(macBytes[:16]), ErrTokenMalformed},
		{"overlong", valid + strings.Repeat("A", 300), ErrTokenMalformed},
		{"forged with another secret", forged, ErrTokenSignature},
		{"tampered username", tamper(valid), ErrTokenSignature},
		{"someone else's mac", strings.SplitN(forged, ".", 2)[0] + "." + mac, ErrTokenSignature},
		{"jwt-like", "eyJhbGciOiJub25lIn0.eyJzdWIiOiJlcmljZmxvIn0.", ErrTokenMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := tk.Parse(tt.token)
			if !errors.Is(err, tt.want) || !errors.Is(err, domain.ErrUnauthenticated) {
				t.Fatalf("Parse(%q) = %v, want %v", tt.token, err, tt.want)
			}
		})
	}
}

func TestTokenExpiry(t *testing.T) {
	t.Parallel()
	tk, clock := newTestTokens(t, time.Hour)
	tok, _, _ := tk.Issue("ericflo")
	clock.Advance(time.Hour - time.Second)
	if _, err := tk.Parse(tok); err != nil {
		t.Fatalf("a second before expiry: %v", err)
	}
	clock.Advance(time.Second)
	if _, err := tk.Parse(tok); !errors.Is(err, ErrTokenExpired) {
		t.Fatalf("at expiry: %v, want ErrTokenExpired", err)
	}
}

func TestBearerToken(t *testing.T) {
	t.Parallel()
	tests := []struct {
		header, want string
		ok           bool
	}{
		{"Bearer abc.def", "abc.def", true},
		{"bearer abc.def", "abc.def", true},
		{"BEARER  abc.def ", "abc.def", true},
		{"", "", false},
		{"Bearer ", "", false},
		{"Basic dXNlcjpwYXNz", "", false},
		{"abc.def", "", false},
	}
	for _, tt := range tests {
		got, err := bearerToken(tt.header)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("bearerToken(%q) = %q, %v", tt.header, got, err)
		}
		if err != nil && !errors.Is(err, domain.ErrUnauthenticated) {
			t.Errorf("bearerToken(%q) error %v does not match ErrUnauthenticated", tt.header, err)
		}
	}
}

// FuzzParseToken: the parser never panics, only ever accepts what Issue could have produced
// (the accepted claims re-encode to exactly the input), and rejects with ErrUnauthenticated.
func FuzzParseToken(f *testing.F) {
	tk, _ := newTestTokens(f, time.Hour)
	valid, _, _ := tk.Issue("jericevans")
	f.Add(valid)
	f.Add(tamper(valid))
	f.Add("")
	f.Add(".")
	f.Add("a.b")
	f.Add(valid[:len(valid)-1])
	f.Add(valid + "A")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := tk.Parse(s)
		if err != nil {
			if !errors.Is(err, domain.ErrUnauthenticated) {
				t.Fatalf("Parse(%q) error %v does not match ErrUnauthenticated", s, err)
			}
			return
		}
		if got := tk.encode(c); got != s {
			t.Fatalf("accepted %q, which re-encodes to %q", s, got)
		}
		if domain.ValidateUsername(c.Username) != nil {
			t.Fatalf("accepted a token for invalid username %q", c.Username)
		}
	})
}
