package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"twissandra/domain/blog"
	"twissandra/domain/blog/model"
	"twissandra/domain/social"
)

// DeviceCookie names a browser that has opened the log-in form, logged in or signed up on this
// service before (OWASP's device cookie): a random ID, signed with a key derived from the token secret (so every server of a cluster reads it).
// The log-in limit counts a client that has one by its device rather than by its address
// (social.Client), so that learners behind one address are held to their own attempts, not to
// the room's. An API client keeps it as any cookie (curl -b/-c).
const DeviceCookie = "twissandra_device"

// deviceMaxAge is how long a browser keeps its device: 400 days, the longest browsers allow.
const deviceMaxAge = 400 * 24 * 60 * 60

// deviceIDLen is the device ID's length in bytes, and deviceMACLen its signature's.
const (
	deviceIDLen  = 16
	deviceMACLen = 16
)

// Device is the device of the request's browser, or "" when it has none or its cookie is not
// one this service signed.
func (s *Server) Device(c *gin.Context) string {
	v, err := c.Cookie(DeviceCookie)
	if err != nil {
		return ""
	}
	id, mac, ok := strings.Cut(v, ".")
	if !ok || len(id) != base64.RawURLEncoding.EncodedLen(deviceIDLen) {
		return ""
	}
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil || !hmac.Equal(got, s.deviceMAC(id)) {
		return ""
	}
	return id
}

// GiveDevice gives the request's browser a device, unless it has one.
func (s *Server) GiveDevice(c *gin.Context) {
	if s.Device(c) != "" {
		return
	}
	b := make([]byte, deviceIDLen)
	_, _ = rand.Read(b)
	id := base64.RawURLEncoding.EncodeToString(b)
	http.SetCookie(c.Writer, &http.Cookie{
		Name:     DeviceCookie,
		Value:    id + "." + base64.RawURLEncoding.EncodeToString(s.deviceMAC(id)),
		Path:     "/",
		MaxAge:   deviceMaxAge,
		HttpOnly: true,
		Secure:   s.HTTPS(c.Request),
		SameSite: http.SameSiteLaxMode,
	})
}

// LoginClient is who a log-in attempt of this request comes from, for social.Access.
func (s *Server) LoginClient(c *gin.Context) social.Client {
	return social.Client{Addr: c.ClientIP(), Device: s.Device(c)}
}

func (s *Server) deviceMAC(id string) []byte {
	m := hmac.New(sha256.New, s.deviceKey)
	m.Write([]byte(id))
	return m.Sum(nil)[:deviceMACLen]
}

// Comment posts a blog comment on svc for the request's client under social.CommentLimits:
// refused with a *domain.RetryError (429 with Retry-After) past them; a comment the blog refuses
// (no such entry, bad text) does not count.
func (s *Server) Comment(c *gin.Context, svc *blog.Service, slug string, d blog.CommentDraft) (model.Comment, error) {
	ctx := c.Request.Context()
	pass, err := s.comments.Admit(ctx, s.LoginClient(c))
	if err != nil {
		return model.Comment{}, err
	}
	cm, err := svc.Comment(ctx, slug, d)
	if err != nil {
		return model.Comment{}, errors.Join(err, pass.Undo(context.WithoutCancel(ctx)))
	}
	return cm, nil
}
