package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"time"

	"twissandra/domain"
)

// Bearer tokens are "<payload>.<mac>", both unpadded base64url (strict: one spelling per byte
// string, so a token cannot be re-spelled to dodge anything keyed on its text).
//
// payload: version (1 byte) | issued-at (8, Unix seconds) | expires (8, Unix seconds) |
// token id (16 random bytes) | username (1..30 bytes)
//
// mac: HMAC-SHA256(secret, tokenMACContext || payload). The context string keeps these MACs
// apart from any other MAC made with the same secret (cookies, CSRF tokens).

const (
	tokenVersion      = 1
	tokenIDLen        = 16
	tokenFixedLen     = 1 + 8 + 8 + tokenIDLen
	tokenMaxPayload   = tokenFixedLen + domain.MaxUsernameLen
	tokenMACLen       = sha256.Size
	tokenMaxEncodedLn = 256 // far above the longest real token; longer input is refused unread
	// MinTokenSecretLen is the shortest accepted Config.TokenSecret.
	MinTokenSecretLen = 32
	// DefaultTokenTTL is how long a token lives when Config.TokenTTL is 0.
	DefaultTokenTTL = 24 * time.Hour
)

var (
	tokenMACContext = []byte("twissandra api token v1\x00")
	tokenEncoding   = base64.RawURLEncoding.Strict()
)

// Token errors. Each matches domain.ErrUnauthenticated and its text is safe to show a client.
var (
	ErrTokenMalformed = tokenError("bearer token is malformed")
	ErrTokenSignature = tokenError("bearer token signature is invalid")
	ErrTokenExpired   = tokenError("bearer token has expired")
	ErrTokenRevoked   = tokenError("bearer token has been revoked")
)

func tokenError(msg string) error { return &messageError{kind: domain.ErrUnauthenticated, msg: msg} }

// Claims is what a valid token says.
type Claims struct {
	Username  string
	IssuedAt  time.Time
	ExpiresAt time.Time
	ID        [tokenIDLen]byte
}

// Tokens issues and checks bearer tokens. A token is good until it expires unless its session
// was ended (a logout): that lives in the store, shared by every server (sessions.go), and
// RequireAuth asks it.
type Tokens struct {
	secret []byte
	ttl    time.Duration
	clock  domain.Clock
}

// NewTokens returns a Tokens signing with secret (at least MinTokenSecretLen bytes). ttl 0 means
// DefaultTokenTTL; clock nil means the wall clock.
func NewTokens(secret []byte, ttl time.Duration, clock domain.Clock) (*Tokens, error) {
	if len(secret) < MinTokenSecretLen {
		return nil, fmt.Errorf("web: token secret must be at least %d bytes, got %d", MinTokenSecretLen, len(secret))
	}
	if ttl < 0 {
		return nil, fmt.Errorf("web: token TTL must not be negative, got %s", ttl)
	}
	if ttl == 0 {
		ttl = DefaultTokenTTL
	}
	if clock == nil {
		clock = domain.SystemClock{}
	}
	return &Tokens{secret: append([]byte(nil), secret...), ttl: ttl, clock: clock}, nil
}

// TTL is the lifetime of the tokens issued.
func (t *Tokens) TTL() time.Duration { return t.ttl }

// Issue makes a token for username, valid from now for the TTL.
func (t *Tokens) Issue(username string) (string, Claims, error) {
	if err := domain.ValidateUsername(username); err != nil {
		return "", Claims{}, err
	}
	now := t.clock.Now()
	c := Claims{
		Username:  username,
		IssuedAt:  time.Unix(now.Unix(), 0).UTC(),
		ExpiresAt: time.Unix(now.Add(t.ttl).Unix(), 0).UTC(),
	}
	if _, err := rand.Read(c.ID[:]); err != nil {
		return "", Claims{}, fmt.Errorf("web: token id: %w", err)
	}
	return t.encode(c), c, nil
}

func (t *Tokens) encode(c Claims) string {
	payload := make([]byte, tokenFixedLen, tokenFixedLen+len(c.Username))
	payload[0] = tokenVersion
	binary.BigEndian.PutUint64(payload[1:9], uint64(c.IssuedAt.Unix()))
	binary.BigEndian.PutUint64(payload[9:17], uint64(c.ExpiresAt.Unix()))
	copy(payload[17:tokenFixedLen], c.ID[:])
	payload = append(payload, c.Username...)
	mac := t.mac(payload)
	return tokenEncoding.EncodeToString(payload) + "." + tokenEncoding.EncodeToString(mac)
}

func (t *Tokens) mac(payload []byte) []byte {
	h := hmac.New(sha256.New, t.secret)
	h.Write(tokenMACContext)
	h.Write(payload)
	return h.Sum(nil)
}

// Parse checks a token's form, signature (in constant time) and expiry; whether its session was
// ended is the store's to say (RequireAuth). Every failure matches domain.ErrUnauthenticated.
func (t *Tokens) Parse(token string) (Claims, error) {
	c, err := t.verify(token)
	if err != nil {
		return Claims{}, err
	}
	if !t.clock.Now().Before(c.ExpiresAt) {
		return Claims{}, ErrTokenExpired
	}
	return c, nil
}

// verify checks form and signature only.
func (t *Tokens) verify(token string) (Claims, error) {
	if len(token) == 0 || len(token) > tokenMaxEncodedLn {
		return Claims{}, ErrTokenMalformed
	}
	encPayload, encMAC, ok := strings.Cut(token, ".")
	if !ok {
		return Claims{}, ErrTokenMalformed
	}
	var payloadBuf [tokenMaxPayload]byte
	var macBuf [tokenMACLen]byte
	if tokenEncoding.DecodedLen(len(encPayload)) > len(payloadBuf) || tokenEncoding.DecodedLen(len(encMAC)) != len(macBuf) {
		return Claims{}, ErrTokenMalformed
	}
	n, err := tokenEncoding.Decode(payloadBuf[:], []byte(encPayload))
	if err != nil || n <= tokenFixedLen {
		return Claims{}, ErrTokenMalformed
	}
	payload := payloadBuf[:n]
	if m, err := tokenEncoding.Decode(macBuf[:], []byte(encMAC)); err != nil || m != tokenMACLen {
		return Claims{}, ErrTokenMalformed
	}
	if !hmac.Equal(t.mac(payload), macBuf[:]) {
		return Claims{}, ErrTokenSignature
	}
	// Only a payload this server signed gets this far, so the checks below guard against
	// a future format change more than against clients.
	if payload[0] != tokenVersion {
		return Claims{}, ErrTokenMalformed
	}
	iat := int64(binary.BigEndian.Uint64(payload[1:9]))
	exp := int64(binary.BigEndian.Uint64(payload[9:17]))
	username := string(payload[tokenFixedLen:])
	if exp < iat || domain.ValidateUsername(username) != nil {
		return Claims{}, ErrTokenMalformed
	}
	c := Claims{
		Username:  username,
		IssuedAt:  time.Unix(iat, 0).UTC(),
		ExpiresAt: time.Unix(exp, 0).UTC(),
	}
	copy(c.ID[:], payload[17:tokenFixedLen])
	return c, nil
}

// bearerToken extracts the token of an "Authorization: Bearer <token>" header.
func bearerToken(header string) (string, error) {
	const scheme = "bearer "
	if header == "" {
		return "", &messageError{kind: domain.ErrUnauthenticated, msg: "a bearer token is required"}
	}
	if len(header) <= len(scheme) || !strings.EqualFold(header[:len(scheme)], scheme) {
		return "", &messageError{kind: domain.ErrUnauthenticated, msg: "the Authorization header must be \"Bearer <token>\""}
	}
	return strings.TrimSpace(header[len(scheme):]), nil
}
