package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// proxies are the trusted proxies' addresses, parsed once (Config.TrustedProxies).
type proxies []netip.Prefix

func parseProxies(list []string) (proxies, error) {
	out := make(proxies, 0, len(list))
	for _, p := range list {
		p = strings.TrimSpace(p)
		if !strings.Contains(p, "/") {
			a, err := netip.ParseAddr(p)
			if err != nil {
				return nil, fmt.Errorf("trusted proxy %q: %w", p, err)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		pre, err := netip.ParsePrefix(p)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: %w", p, err)
		}
		out = append(out, pre.Masked())
	}
	return out, nil
}

func (ps proxies) trusted(remoteAddr string) bool {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// HTTPS reports whether the client reached this server over TLS: the connection is TLS, or a
// trusted proxy (Config.TrustedProxies) says so in X-Forwarded-Proto. Nobody else is believed: a
// client could claim it to get its cookies marked Secure, which harms only itself, but the
// answer must not depend on what a client claims.
func (s *Server) HTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	return strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") && s.proxies.trusted(r.RemoteAddr)
}
