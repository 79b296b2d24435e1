package cql3

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gocql/gocql"
)

// Config says which cluster to use and how.
type Config struct {
	// Hosts are the contact points; the driver discovers the rest of the ring from them.
	Hosts []string
	// Port is the native protocol port (default 9042).
	Port int
	// Keyspace holds every table; it is created (IF NOT EXISTS) before the migrations run.
	Keyspace string
	// Replication of a keyspace created here: "SimpleStrategy:RF" or
	// "NetworkTopologyStrategy:dc1=3,dc2=2". An existing keyspace is left as it is.
	Replication string
	// Consistency of reads and writes (default LOCAL_QUORUM).
	Consistency string
	// SerialConsistency of lightweight transactions: SERIAL or LOCAL_SERIAL (default).
	SerialConsistency string
	// Timeout bounds one request (default 5s); ConnectTimeout one connection attempt (5s).
	Timeout        time.Duration
	ConnectTimeout time.Duration
	// Retries is how often a failed idempotent query is retried, with exponential backoff
	// (default 3; negative: never). Lightweight transactions are never retried: a retry of a
	// write that did apply would report it as lost.
	Retries int
	// LocalDC enables token-aware, DC-aware host selection with this data centre as local;
	// empty: token-aware round robin over all hosts.
	LocalDC string
	// Username and Password, for clusters with the PasswordAuthenticator.
	Username string
	Password string
	// TLS of the client connections.
	TLS TLSConfig
	// FanoutConcurrency bounds the concurrent inserts of one fan-out (default 32).
	FanoutConcurrency int
	// StartTimeout is how long Start keeps trying to reach a cold cluster (default 2m).
	StartTimeout time.Duration

	// QueryObserver and BatchObserver, if set, see every query and batch the driver sends
	// (metrics, tracing, and the tests that count round trips).
	QueryObserver gocql.QueryObserver
	BatchObserver gocql.BatchObserver
}

// TLSConfig configures TLS to the cluster.
type TLSConfig struct {
	Enabled    bool
	CAFile     string
	CertFile   string
	KeyFile    string
	SkipVerify bool
}

// Defaults of the zero values of Config.
const (
	DefaultPort              = 9042
	DefaultKeyspace          = "twissandra"
	DefaultReplication       = "SimpleStrategy:1"
	DefaultConsistency       = "LOCAL_QUORUM"
	DefaultSerialConsistency = "LOCAL_SERIAL"
	DefaultTimeout           = 5 * time.Second
	DefaultConnectTimeout    = 5 * time.Second
	DefaultRetries           = 3
	DefaultFanoutConcurrency = 32
	DefaultStartTimeout      = 2 * time.Minute
)

// keyspacePattern is stricter than CQL's: lower case only, because an unquoted name is folded to
// lower case by CREATE KEYSPACE while the driver quotes the name it USEs.
var keyspacePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,47}$`)

// dcPattern is what a data-centre name may hold here. It goes into the CQL of CREATE KEYSPACE
// as a string literal (replication maps cannot be bound), so no quote can ever pass.
var dcPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$`)

// maxRF bounds a replication factor to something a real cluster could have.
const maxRF = 99

// Replication is a parsed, validated replication setting.
type Replication struct {
	// Class is SimpleStrategy or NetworkTopologyStrategy.
	Class string
	// Factor is SimpleStrategy's replication factor.
	Factor int
	// DCs are NetworkTopologyStrategy's factors per data centre.
	DCs map[string]int
}

// ParseReplication reads "SimpleStrategy:RF" or "NetworkTopologyStrategy:dc1=3,dc2=2".
func ParseReplication(s string) (Replication, error) {
	class, params, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Replication{}, fmt.Errorf("replication %q: want SimpleStrategy:RF or NetworkTopologyStrategy:dc1=RF1,dc2=RF2", s)
	}
	switch strings.TrimSpace(class) {
	case "SimpleStrategy":
		rf, err := parseRF(params)
		if err != nil {
			return Replication{}, fmt.Errorf("replication %q: %w", s, err)
		}
		return Replication{Class: "SimpleStrategy", Factor: rf}, nil
	case "NetworkTopologyStrategy":
		dcs := map[string]int{}
		for _, part := range strings.Split(params, ",") {
			dc, rfs, ok := strings.Cut(strings.TrimSpace(part), "=")
			dc = strings.TrimSpace(dc)
			if !ok || !dcPattern.MatchString(dc) {
				return Replication{}, fmt.Errorf("replication %q: %q is not dc=RF with a data centre name of letters, digits, '_', '.', '-'", s, part)
			}
			if _, dup := dcs[dc]; dup {
				return Replication{}, fmt.Errorf("replication %q: data centre %q given twice", s, dc)
			}
			rf, err := parseRF(rfs)
			if err != nil {
				return Replication{}, fmt.Errorf("replication %q: %s: %w", s, dc, err)
			}
			dcs[dc] = rf
		}
		return Replication{Class: "NetworkTopologyStrategy", DCs: dcs}, nil
	}
	return Replication{}, fmt.Errorf("replication %q: class must be SimpleStrategy or NetworkTopologyStrategy", s)
}

func parseRF(s string) (int, error) {
	rf, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || rf < 1 || rf > maxRF {
		return 0, fmt.Errorf("replication factor %q: want 1 to %d", s, maxRF)
	}
	return rf, nil
}

// CQL renders the replication map. Every piece of it was validated by ParseReplication: the
// class is one of two constants, the factors are integers and the data-centre names match
// dcPattern, which admits no quote.
func (r Replication) CQL() string {
	if r.Class == "SimpleStrategy" {
		return fmt.Sprintf("{'class': 'SimpleStrategy', 'replication_factor': %d}", r.Factor)
	}
	var b strings.Builder
	b.WriteString("{'class': 'NetworkTopologyStrategy'")
	dcs := make([]string, 0, len(r.DCs))
	for dc := range r.DCs {
		dcs = append(dcs, dc)
	}
	slices.Sort(dcs)
	for _, dc := range dcs {
		fmt.Fprintf(&b, ", '%s': %d", dc, r.DCs[dc])
	}
	b.WriteString("}")
	return b.String()
}

// parseSerial reads SERIAL or LOCAL_SERIAL.
func parseSerial(s string) (gocql.SerialConsistency, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "SERIAL":
		return gocql.Serial, nil
	case "LOCAL_SERIAL":
		return gocql.LocalSerial, nil
	}
	return 0, fmt.Errorf("serial consistency %q: want SERIAL or LOCAL_SERIAL", s)
}

// parseConsistency reads a consistency level name; the serial ones are refused for plain
// reads and writes.
func parseConsistency(s string) (gocql.Consistency, error) {
	c, err := gocql.ParseConsistencyWrapper(strings.ToUpper(strings.TrimSpace(s)))
	if err != nil {
		return 0, fmt.Errorf("consistency %q: %w", s, err)
	}
	if c == gocql.Any || c == gocql.Consistency(gocql.Serial) || c == gocql.Consistency(gocql.LocalSerial) {
		return 0, fmt.Errorf("consistency %q: not usable for both reads and writes", s)
	}
	return c, nil
}

// settings is a Config with defaults applied and every string parsed.
type settings struct {
	Config
	replication Replication
	consistency gocql.Consistency
	serial      gocql.SerialConsistency
}

func (c Config) settings() (settings, error) {
	if c.Port == 0 {
		c.Port = DefaultPort
	}
	if c.Keyspace == "" {
		c.Keyspace = DefaultKeyspace
	}
	if c.Replication == "" {
		c.Replication = DefaultReplication
	}
	if c.Consistency == "" {
		c.Consistency = DefaultConsistency
	}
	if c.SerialConsistency == "" {
		c.SerialConsistency = DefaultSerialConsistency
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.ConnectTimeout == 0 {
		c.ConnectTimeout = DefaultConnectTimeout
	}
	if c.Retries == 0 {
		c.Retries = DefaultRetries
	}
	if c.FanoutConcurrency == 0 {
		c.FanoutConcurrency = DefaultFanoutConcurrency
	}
	if c.StartTimeout == 0 {
		c.StartTimeout = DefaultStartTimeout
	}
	var hosts []string
	for _, h := range c.Hosts {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	c.Hosts = hosts
	s := settings{Config: c}
	var errs []error
	if len(c.Hosts) == 0 {
		errs = append(errs, errors.New("no hosts"))
	}
	if c.Port < 1 || c.Port > 65535 {
		errs = append(errs, fmt.Errorf("port %d: want 1 to 65535", c.Port))
	}
	if !keyspacePattern.MatchString(c.Keyspace) {
		errs = append(errs, fmt.Errorf("keyspace %q: want a lower-case letter, then up to 47 lower-case letters, digits or '_'", c.Keyspace))
	}
	var err error
	if s.replication, err = ParseReplication(c.Replication); err != nil {
		errs = append(errs, err)
	}
	if s.consistency, err = parseConsistency(c.Consistency); err != nil {
		errs = append(errs, err)
	}
	if s.serial, err = parseSerial(c.SerialConsistency); err != nil {
		errs = append(errs, err)
	}
	if c.Timeout < 0 || c.ConnectTimeout < 0 || c.StartTimeout < 0 {
		errs = append(errs, errors.New("timeouts must not be negative"))
	}
	if c.FanoutConcurrency < 1 {
		errs = append(errs, fmt.Errorf("fan-out concurrency %d: want at least 1", c.FanoutConcurrency))
	}
	if c.LocalDC != "" && !dcPattern.MatchString(c.LocalDC) {
		errs = append(errs, fmt.Errorf("local DC %q: not a data centre name", c.LocalDC))
	}
	if (c.TLS.CertFile == "") != (c.TLS.KeyFile == "") {
		errs = append(errs, errors.New("TLS: give both the certificate and the key file, or neither"))
	}
	if err := errors.Join(errs...); err != nil {
		return settings{}, fmt.Errorf("cql3 config: %w", err)
	}
	return s, nil
}

// cluster builds the driver's configuration. keyspace may be "" (the session that creates the
// keyspace).
func (s settings) cluster(keyspace string) (*gocql.ClusterConfig, error) {
	c := gocql.NewCluster(s.Hosts...)
	c.Port = s.Port
	c.Keyspace = keyspace
	c.Consistency = s.consistency
	c.SerialConsistency = s.serial
	c.Timeout = s.Timeout
	c.ConnectTimeout = s.ConnectTimeout
	c.ProtoVersion = 4
	if s.Retries > 0 {
		c.RetryPolicy = &gocql.ExponentialBackoffRetryPolicy{NumRetries: s.Retries, Min: 50 * time.Millisecond, Max: time.Second}
	} else {
		c.RetryPolicy = nil
	}
	// Token-aware routing sends each single-partition statement straight to a replica; the
	// fallback picks among the local data centre's hosts when one is named.
	if s.LocalDC != "" {
		c.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.DCAwareRoundRobinPolicy(s.LocalDC))
	} else {
		c.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.RoundRobinHostPolicy())
	}
	if s.Username != "" {
		c.Authenticator = gocql.PasswordAuthenticator{Username: s.Username, Password: s.Password}
	}
	if s.TLS.Enabled || s.TLS.CAFile != "" || s.TLS.CertFile != "" {
		tc, err := s.TLS.config()
		if err != nil {
			return nil, err
		}
		c.SslOpts = &gocql.SslOptions{Config: tc, EnableHostVerification: !s.TLS.SkipVerify}
	}
	obs := opsObserver{queries: s.QueryObserver, batches: s.BatchObserver, consistency: s.consistency, serial: s.serial}
	c.QueryObserver, c.BatchObserver = obs, obs
	return c, nil
}

func (t TLSConfig) config() (*tls.Config, error) {
	tc := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: t.SkipVerify} //nolint:gosec // an explicit, documented testing knob
	if t.CAFile != "" {
		pem, err := os.ReadFile(t.CAFile)
		if err != nil {
			return nil, fmt.Errorf("cql3 TLS CA: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("cql3 TLS CA %s: no PEM certificate in it", t.CAFile)
		}
		tc.RootCAs = pool
	}
	if t.CertFile != "" {
		cert, err := tls.LoadX509KeyPair(t.CertFile, t.KeyFile)
		if err != nil {
			return nil, fmt.Errorf("cql3 TLS client certificate: %w", err)
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}
