package teach

import (
	"context"
	"fmt"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
)

// NameClaims is the uniqueness race's sandbox (teaching.NameClaims) in the Scratch keyspace of a
// node, one row per name: Scratch.UTF8s['race:<name>']['owner']. The blind write is insert;
// the lightweight transaction is insert_if_absent, the engine's extension (0.6 had none).
type NameClaims struct {
	node  *engine.Node
	stamp *domain.Stamper
}

// NewNameClaims keeps the sandbox on node.
func NewNameClaims(node *engine.Node) *NameClaims {
	return &NameClaims{node: node, stamp: domain.NewStamper(domain.SystemClock{})}
}

const claimsCF = "UTF8s"

var claimColumn = []byte("owner")

func claimKey(name string) string { return "race:" + name }

// Lookup implements teaching.NameClaims.
func (c *NameClaims) Lookup(ctx context.Context, name string) (string, bool, error) {
	cols, err := c.node.GetSlice(ctx, labKeyspace, claimKey(name), engine.ColumnParent{ColumnFamily: claimsCF},
		engine.SlicePredicate{ColumnNames: [][]byte{claimColumn}}, engine.QUORUM)
	if err != nil {
		return "", false, widerow.Wrap("race lookup", err)
	}
	if len(cols) == 0 || cols[0].Column == nil {
		return "", false, nil
	}
	return string(cols[0].Column.Value), true, nil
}

// Write implements teaching.NameClaims.
func (c *NameClaims) Write(ctx context.Context, name, owner string) error {
	err := c.node.Insert(ctx, labKeyspace, claimKey(name), engine.ColumnPath{ColumnFamily: claimsCF, Column: claimColumn}, []byte(owner), c.stamp.Next(), engine.QUORUM)
	return widerow.Wrap("race write", err)
}

// WriteIfAbsent implements teaching.NameClaims.
func (c *NameClaims) WriteIfAbsent(ctx context.Context, name, owner string) (bool, error) {
	applied, _, err := c.node.InsertIfAbsent(ctx, labKeyspace, claimKey(name), engine.ColumnParent{ColumnFamily: claimsCF},
		engine.Column{Name: claimColumn, Value: []byte(owner), Timestamp: c.stamp.Next()}, engine.QUORUM)
	return applied, widerow.Wrap("race insert_if_absent", err)
}

// Release implements teaching.NameClaims: a row tombstone, newer than every claim written.
func (c *NameClaims) Release(ctx context.Context, name string) error {
	err := c.node.Remove(ctx, labKeyspace, claimKey(name), engine.ColumnPath{ColumnFamily: claimsCF}, c.stamp.Next(), engine.QUORUM)
	return widerow.Wrap("race release", err)
}

// Statements implements teaching.NameClaims.
func (c *NameClaims) Statements() (read, write, lwt string) {
	return fmt.Sprintf("get_slice Scratch.%s['race:<name>'] names=['owner']", claimsCF),
		fmt.Sprintf("insert Scratch.%s['race:<name>']['owner'] = '<racer>'", claimsCF),
		fmt.Sprintf("insert_if_absent Scratch.%s['race:<name>']['owner'] = '<racer>' (the engine's extension: 0.6 had no way to make a name unique)", claimsCF)
}
