package cql3

import (
	"context"
	"errors"
	"time"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"
)

// DetourSession opens a session of the store's settings on its keyspace whose connections dial
// makes (the counters lesson's link that loses a node's answer), whose requests time out after
// timeout, and whose queries obs sees after the operation log has. The caller closes it. A store
// whose connections are TLS has none: a detour would see only ciphertext.
func (s *Store) DetourSession(dial gocql.Dialer, timeout time.Duration, obs gocql.QueryObserver) (gocqlx.Session, error) {
	if s.cfg.TLS.Enabled || s.cfg.TLS.CAFile != "" || s.cfg.TLS.CertFile != "" {
		return gocqlx.Session{}, errors.New("cql3: no detour on a TLS connection")
	}
	c, err := s.cfg.cluster(s.cfg.Keyspace)
	if err != nil {
		return gocqlx.Session{}, err
	}
	c.Logger = driverLogger{s.logger}
	c.Dialer, c.Timeout = dial, timeout
	c.NumConns = 1
	o := c.QueryObserver.(opsObserver)
	o.queries = queryObservers{o.queries, obs}
	c.QueryObserver = o
	return gocqlx.WrapSession(c.CreateSession())
}

// queryObservers passes an observation to each of its observers that is set.
type queryObservers []gocql.QueryObserver

func (qs queryObservers) ObserveQuery(ctx context.Context, q gocql.ObservedQuery) {
	for _, o := range qs {
		if o != nil {
			o.ObserveQuery(ctx, q)
		}
	}
}
