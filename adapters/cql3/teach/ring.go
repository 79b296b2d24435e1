package teach

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/gocql/gocql"
	"github.com/google/uuid"

	"twissandra/adapters/internal/ring"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

const murmur3Class = "org.apache.cassandra.dht.Murmur3Partitioner"

// PlaceKey implements teaching.Ring: key is a text partition key (a username, a slug), its
// token Murmur3's of its UTF-8, and its replicas those the keyspace's replication picks on the
// ring of the hosts the driver knows, with the tokens each reported. sim is not used: this
// ring is the cluster's.
func (s *Store) PlaceKey(ctx context.Context, key string, _ teaching.RingSim) (teaching.KeyRing, error) {
	if key == "" || len(key) > teaching.MaxKeyBytes {
		return teaching.KeyRing{}, fmt.Errorf("%w: a partition key of 1 to %d bytes, please", teaching.ErrBadRing, teaching.MaxKeyBytes)
	}
	sess, err := s.sess()
	if err != nil {
		return teaching.KeyRing{}, err
	}
	hosts, partitioner := s.store.Hosts()
	if !strings.HasSuffix(partitioner, "Murmur3Partitioner") {
		return teaching.KeyRing{}, fmt.Errorf("the cluster's partitioner is %q: this page computes %s's tokens", partitioner, murmur3Class)
	}
	ks, err := sess.KeyspaceMetadata(s.Keyspace())
	if err != nil {
		return teaching.KeyRing{}, fmt.Errorf("cql3: the keyspace's replication: %w", err)
	}
	strategy, rf, err := strategyOf(ks)
	if err != nil {
		return teaching.KeyRing{}, err
	}
	tok := big.NewInt(ring.Murmur3Token([]byte(key)))
	out := teaching.KeyRing{Key: key, Partitioner: ring.Murmur3.Name, Token: tok.String(), Position: ring.Murmur3.Position(tok),
		Keyspace: s.Keyspace(), Strategy: shortClass(ks.StrategyClass), ReplicationFactor: rf,
		Source: "the driver's token metadata: each host and the tokens its node reported (system.local, system.peers)"}
	nodes := make([]ring.Node, 0, len(hosts))
	for _, h := range hosts {
		n := ring.Node{Name: h.ConnectAddressAndPort(), DC: h.DataCenter()}
		rn := teaching.RingNode{Name: n.Name, DC: n.DC}
		for _, t := range h.Tokens() {
			bt, err := ring.Murmur3.ParseToken(t)
			if err != nil {
				return teaching.KeyRing{}, fmt.Errorf("cql3: host %s: %w", n.Name, err)
			}
			n.Tokens = append(n.Tokens, bt)
			rn.Tokens = append(rn.Tokens, teaching.RingToken{Token: t, Position: ring.Murmur3.Position(bt)})
		}
		nodes = append(nodes, n)
		out.Nodes = append(out.Nodes, rn)
	}
	out.Replicas = strategy.Replicas(nodes, tok)
	if oplog.Detailed(ctx) {
		oplog.Record(ctx, oplog.Op{Model: "cql3", Kind: oplog.Note, Call: "token", Family: s.Keyspace(), Keys: []string{strconv.Quote(key)}, KeyCount: 1,
			Touched: "no call", Text: fmt.Sprintf("token(%q) = %s: Murmur3 of the key, as the driver computes it to route; no call to a node. Replicas: %s on the %d hosts the driver knows",
				key, out.Token, out.Strategy, len(nodes))})
	}
	return out, nil
}

// strategyOf reads a keyspace's replication as the driver reports it.
func strategyOf(ks *gocql.KeyspaceMetadata) (ring.Strategy, int, error) {
	factor := func(v any) (int, error) {
		n, err := strconv.Atoi(strings.TrimSpace(fmt.Sprint(v)))
		if err != nil || n < 0 {
			return 0, fmt.Errorf("cql3: keyspace %s: replication factor %v", ks.Name, v)
		}
		return n, nil
	}
	switch shortClass(ks.StrategyClass) {
	case "SimpleStrategy":
		rf, err := factor(ks.StrategyOptions["replication_factor"])
		return ring.Strategy{RF: rf}, rf, err
	case "NetworkTopologyStrategy":
		st := ring.Strategy{PerDC: map[string]int{}}
		total := 0
		for dc, v := range ks.StrategyOptions {
			rf, err := factor(v)
			if err != nil {
				return st, 0, err
			}
			st.PerDC[dc] = rf
			total += rf
		}
		return st, total, nil
	}
	return ring.Strategy{}, 0, fmt.Errorf("cql3: keyspace %s: replication %s is not one this page places", ks.Name, ks.StrategyClass)
}

func shortClass(c string) string { return c[strings.LastIndexByte(c, '.')+1:] }

// partitionKeyBytes is a partition key's value serialized as Cassandra hashes it, for the key
// types of the application's tables: text's UTF-8, a uuid's 16 bytes, a date's days since the
// epoch plus 2**31 in 4 bytes, an int's 4 and a bigint's 8.
func partitionKeyBytes(typ, value string) ([]byte, error) {
	switch typ {
	case "text", "varchar", "ascii":
		return []byte(value), nil
	case "uuid", "timeuuid":
		u, err := uuid.Parse(value)
		if err != nil {
			return nil, err
		}
		return u[:], nil
	case "date":
		d, err := time.Parse(time.DateOnly, value)
		if err != nil {
			return nil, err
		}
		return binary.BigEndian.AppendUint32(nil, uint32(d.Unix()/86400+1<<31)), nil
	case "int":
		n, err := strconv.ParseInt(value, 10, 32)
		if err != nil {
			return nil, err
		}
		return binary.BigEndian.AppendUint32(nil, uint32(n)), nil
	case "bigint":
		n, err := strconv.ParseInt(value, 10, 64)
		if err != nil {
			return nil, err
		}
		return binary.BigEndian.AppendUint64(nil, uint64(n)), nil
	}
	return nil, fmt.Errorf("no token computed here for a %s key", typ)
}

// keyToken is the Murmur3 token of a partition key's values, serialized as Cassandra hashes
// them: one column's value alone, or for a composite key each value as a 2-byte length, the
// bytes and a 0 byte. It is "" when the values do not fit the key (their number, a type not
// hashed here, a value of the wrong form).
func keyToken(t teaching.CQLTable, values ...string) string {
	if len(values) != len(t.PartitionKey) || len(values) == 0 {
		return ""
	}
	var key []byte
	for i, c := range t.PartitionKey {
		b, err := partitionKeyBytes(c.Type, values[i])
		if err != nil || (len(values) > 1 && len(b) > 0xffff) {
			return ""
		}
		if len(values) == 1 {
			key = b
			break
		}
		key = binary.BigEndian.AppendUint16(key, uint16(len(b)))
		key = append(append(key, b...), 0)
	}
	return strconv.FormatInt(ring.Murmur3Token(key), 10)
}

// Tokens implements teaching.Ring: the tokens of partition keys of table, hashed by the types
// of its partition key columns.
func (s *Store) Tokens(ctx context.Context, table string, keys [][]string) ([]string, error) {
	t, err := s.findTable(ctx, table)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = keyToken(t, k...)
	}
	return out, nil
}
