package teach

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"

	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// The consistency lab (teaching.ConsistencyLab): a ring of three replicas of one row, each an
// engine node of its own beside the lab's scratch node, a coordinator that speaks to them on a
// virtual clock, 0.6's consistency levels, hinted handoff and read repair. A step is played on
// the nodes, every call a real Thrift call on the replica that receives it. The trials play the
// same steps on a register of three cells reconciled by the same rule (newest), so that
// 100,000 of them per pair of levels take a moment; a test holds that the two stores give
// the same runs.

// ringColumn is the column of the lab's row; the row's key is the session's lab key plus
// ringSuffix, and a replica's hints are the columns of its hints row (hintsSuffix), one per
// replica it keeps a hint for, whose value is the key of the row to replay.
const (
	ringColumn  = "value"
	ringSuffix  = "/ring"
	hintsSuffix = "/hints"
)

// ringStore is what the coordinator's messages do on the replicas: apply a version of the
// column, read it, and keep, list and drop hints.
type ringStore interface {
	apply(i int, c engine.StoredCell) error
	// read returns what replica i holds of the column (ok false: nothing).
	read(i int) (c engine.StoredCell, ok bool, err error)
	// keepHint and dropHint keep and drop a hint during the step of the write of timestamp ts:
	// a hint kept in a step outlives one dropped earlier in the same step.
	keepHint(holder, target int, ts int64) error
	dropHint(holder, target int, ts int64) error
	hints(holder int) ([]int, error)
}

// register is a ringStore in memory: the trials'.
type register struct {
	cells [teaching.RingReplicas]engine.StoredCell
	held  [teaching.RingReplicas]bool
	hint  [teaching.RingReplicas][teaching.RingReplicas]bool
	// applied and reads count the calls, for the trials' note.
	applied, reads int
}

func (r *register) apply(i int, c engine.StoredCell) error {
	r.applied++
	if !r.held[i] || newest(&r.cells[i], &c) == &c {
		r.cells[i], r.held[i] = c, true
	}
	return nil
}

func (r *register) read(i int) (engine.StoredCell, bool, error) {
	r.reads++
	return r.cells[i], r.held[i], nil
}

func (r *register) keepHint(holder, target int, _ int64) error {
	r.hint[holder][target] = true
	return nil
}

func (r *register) dropHint(holder, target int, _ int64) error {
	r.hint[holder][target] = false
	return nil
}
func (r *register) hints(holder int) ([]int, error) {
	var out []int
	for t, ok := range r.hint[holder] {
		if ok {
			out = append(out, t)
		}
	}
	return out, nil
}

// nodeRing is a ringStore on the ring's engine nodes: the lab's steps.
type nodeRing struct {
	ctx   context.Context
	nodes [teaching.RingReplicas]*engine.Node
	key   string
}

func (r *nodeRing) path(col string) engine.ColumnPath {
	return engine.ColumnPath{ColumnFamily: replicaCF, Column: []byte(col)}
}

func (r *nodeRing) apply(i int, c engine.StoredCell) error {
	n := r.nodes[i]
	if c.Tombstone {
		return widerow.Wrap("lab", n.Remove(r.ctx, labKeyspace, r.key+ringSuffix, r.path(ringColumn), c.Timestamp, engine.ONE))
	}
	return widerow.Wrap("lab", n.Insert(r.ctx, labKeyspace, r.key+ringSuffix, r.path(ringColumn), c.Value, c.Timestamp, engine.ONE))
}

func (r *nodeRing) read(i int) (engine.StoredCell, bool, error) {
	got, err := r.nodes[i].Get(r.ctx, labKeyspace, r.key+ringSuffix, r.path(ringColumn), engine.ONE)
	if errors.Is(err, engine.ErrNotFound) {
		return engine.StoredCell{}, false, nil
	}
	if err != nil || got.Column == nil {
		return engine.StoredCell{}, false, widerow.Wrap("lab", err)
	}
	return engine.StoredCell{Name: got.Column.Name, Value: got.Column.Value, Timestamp: got.Column.Timestamp}, true, nil
}

// quiet is r reading without recording: what the lab looks at around a step (what the replicas
// held before it, and after) is no call of the step's.
func (r *nodeRing) quiet() *nodeRing {
	q := *r
	q.ctx = oplog.With(r.ctx, nil)
	return &q
}

// The hints' timestamps: a step drops hints as it begins, and keeps them as its write arrives,
// so a hint kept in a step is newer than one dropped in it (2ts+1 against 2ts), and both newer
// than every earlier step's.
func (r *nodeRing) keepHint(holder, target int, ts int64) error {
	return widerow.Wrap("lab", r.nodes[holder].Insert(r.ctx, labKeyspace, r.key+hintsSuffix, r.path(teaching.ReplicaName(target)), []byte(r.key+ringSuffix), 2*ts+1, engine.ONE))
}

func (r *nodeRing) dropHint(holder, target int, ts int64) error {
	return widerow.Wrap("lab", r.nodes[holder].Remove(r.ctx, labKeyspace, r.key+hintsSuffix, r.path(teaching.ReplicaName(target)), 2*ts, engine.ONE))
}

func (r *nodeRing) hints(holder int) ([]int, error) {
	cols, err := r.nodes[holder].GetSlice(r.ctx, labKeyspace, r.key+hintsSuffix, engine.ColumnParent{ColumnFamily: replicaCF}, all(teaching.RingReplicas), engine.ONE)
	if err != nil {
		return nil, widerow.Wrap("lab", err)
	}
	var out []int
	for _, c := range cols {
		if c.Column != nil && len(c.Column.Name) == 1 {
			out = append(out, int(c.Column.Name[0]-'A'))
		}
	}
	return out, nil
}

// checkStep says what is wrong with s.
func checkStep(s teaching.ConsistencyStep) error {
	if err := s.Ring.Check(); err != nil {
		return err
	}
	for _, l := range []struct{ what, level string }{{"write", s.Write}, {"read", s.Read}} {
		if l.level == "" {
			continue
		}
		if _, err := teaching.BlockFor(l.level, teaching.RingReplicas); err != nil {
			return domain.Invalid(l.what, "its level must be ONE, QUORUM or ALL, not %q", l.level)
		}
	}
	switch {
	case len(s.Value) > LabMaxName:
		return domain.Invalid("value", "must be at most %d bytes", LabMaxName)
	case s.Gap < 0 || s.Gap > teaching.MaxRingDelay:
		return domain.Invalid("gap", "must be from 0 to %d µs", teaching.MaxRingDelay)
	}
	return nil
}

// The kinds of the coordinator's events.
const (
	evHint        = iota // a hinted row reaches the replica that was stopped
	evWriteArrive        // the write reaches a replica, which applies it
	evWriteAck           // its acknowledgement reaches the coordinator
	evReadStart          // the client sends the read
	evReadArrive         // a read reaches a replica, which reads its row
	evReadReply          // its reply reaches the coordinator
	evRepair             // a read repair's version reaches a replica
)

type ringEvent struct {
	at      int64
	sent    int64 // when the message left
	from    int   // the replica that sent it (a hint's holder, a reply's), -1 for the coordinator
	seq     int
	kind    int
	replica int
	cell    *engine.StoredCell // the version carried (nil: nothing)
	check   bool               // a read of 0.6's consistency check, after a read at ONE
}

// eventQueue is a binary heap of events, the earliest first (the first scheduled on a tie).
type eventQueue []ringEvent

func (q eventQueue) less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}

func (q *eventQueue) push(e ringEvent) {
	*q = append(*q, e)
	h := *q
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if !h.less(i, p) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *eventQueue) pop() ringEvent {
	h := *q
	e := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(h) && h.less(l, m) {
			m = l
		}
		if r < len(h) && h.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	*q = h
	return e
}

// coordinator plays steps on a store. detail keeps the events and replies in words (the lab);
// the trials keep only what they count.
type coordinator struct {
	store  ringStore
	rng    *rand.Rand
	detail bool
	key    string

	queue eventQueue
	// slab holds the versions the step's messages carry; a pointer into it stays valid (an
	// append that grows it leaves the old array to the pointers into it).
	slab []engine.StoredCell
	seq  int
	run  *teaching.ConsistencyRun // &out
	out  teaching.ConsistencyRun
	up   [teaching.RingReplicas]bool
	s    teaching.ConsistencyStep
	ts   int64 // the step's write timestamp
	now  int64 // the virtual clock: the time of the event being handled

	writeCell    engine.StoredCell
	writeBlock   int
	acks         int
	readBlock    int
	readTarget   int // the replica a read at ONE asks, -1 for QUORUM and ALL
	replies      [teaching.RingReplicas]*engine.StoredCell
	replied      [teaching.RingReplicas]bool
	nReplies     int
	expect       int // the replies the read waits for before its repair, checks included
	answer       *engine.StoredCell
	expected     *engine.StoredCell
	readAnswered bool
}

func newCoordinator(store ringStore, seed uint64, detail bool, key string) *coordinator {
	return &coordinator{store: store, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), detail: detail, key: key}
}

// draw is one message's delay to or from replica i: an exponential draw of mean its delay.
func (c *coordinator) draw(i int) int64 {
	d := c.s.Ring.Delays[i]
	if d == 0 {
		return 0
	}
	return int64(float64(d) * c.rng.ExpFloat64())
}

func (c *coordinator) at(at int64, kind, replica int, cell *engine.StoredCell, check bool) {
	c.seq++
	c.queue.push(ringEvent{at: at, sent: c.now, from: -1, seq: c.seq, kind: kind, replica: replica, cell: cell, check: check})
}

// messageKinds name the events that are messages, for the step's diagram.
var messageKinds = [...]string{evHint: "hint", evWriteArrive: "write", evWriteAck: "ack", evReadStart: "", evReadArrive: "read", evReadReply: "reply", evRepair: "repair"}

// message records e, a message that just arrived, for the step's diagram: from the coordinator
// (or the hint's holder) to a replica, or from a replica back.
func (c *coordinator) message(e ringEvent, holder int) {
	if !c.detail || messageKinds[e.kind] == "" {
		return
	}
	m := teaching.RingMessage{Kind: messageKinds[e.kind], Sent: e.sent, At: e.at, To: teaching.ReplicaName(e.replica)}
	switch {
	case e.kind == evWriteAck || e.kind == evReadReply:
		m.From, m.To = m.To, ""
	case holder >= 0:
		m.From = teaching.ReplicaName(holder)
	}
	if e.check {
		m.Kind = "check"
	}
	c.run.Messages = append(c.run.Messages, m)
}

func (c *coordinator) say(at int64, replica int, format string, args ...any) {
	if !c.detail {
		return
	}
	name := ""
	if replica >= 0 {
		name = teaching.ReplicaName(replica)
	}
	c.run.Events = append(c.run.Events, teaching.RingEvent{At: at, Replica: name, What: fmt.Sprintf(format, args...)})
}

// play runs s to its end: every message delivered. ts is the write's timestamp; expected is
// the version the last acknowledged write left (nil: none), against which the read is judged.
func (c *coordinator) play(s teaching.ConsistencyStep, ts int64, expected *engine.StoredCell) (teaching.ConsistencyRun, error) {
	*c = coordinator{store: c.store, rng: c.rng, detail: c.detail, key: c.key, queue: c.queue[:0], slab: c.slab[:0], s: s, readTarget: -1, expected: expected}
	c.ts = ts
	c.out = teaching.ConsistencyRun{Step: s, Column: ringColumn}
	c.run = &c.out
	run := c.run
	if c.detail {
		run.Key = c.key + ringSuffix
	}
	for i := range c.up {
		c.up[i] = !s.Ring.Stopped[i]
	}
	live := 0
	for _, u := range c.up {
		if u {
			live++
		}
	}
	// Hinted handoff: a live replica replays its hints to the replicas up again.
	for h := range c.up {
		if !c.up[h] {
			continue
		}
		targets, err := c.store.hints(h)
		if err != nil {
			return *run, err
		}
		for _, t := range targets {
			if !c.up[t] {
				continue
			}
			cell, err := c.readAt(h)
			if err != nil {
				return *run, err
			}
			if err := c.store.dropHint(h, t, c.ts); err != nil {
				return *run, err
			}
			run.Delivered = append(run.Delivered, teaching.ReplicaName(t))
			if c.detail {
				c.say(0, h, "hinted handoff: %s is up again; %s replays the row it holds a hint for (%s) and drops the hint", teaching.ReplicaName(t), teaching.ReplicaName(h), c.describe(cell))
			}
			c.seq++
			c.queue.push(ringEvent{at: c.draw(t), from: h, seq: c.seq, kind: evHint, replica: t, cell: cell})
		}
	}
	readAt := s.Gap
	if s.Write != "" {
		c.writeBlock, _ = teaching.BlockFor(s.Write, teaching.RingReplicas)
		if live < c.writeBlock {
			run.WriteUnavailable = unavailable(s.Write, c.writeBlock, live)
			if c.detail {
				c.say(0, -1, "write at %s: %s", s.Write, run.WriteUnavailable)
			}
		} else {
			c.writeCell = engine.StoredCell{Timestamp: ts}
			if c.detail { // the trials compare timestamps only
				c.writeCell.Name, c.writeCell.Value = []byte(ringColumn), []byte(s.Value)
			}
			run.WriteTS = ts
			if c.detail {
				c.say(0, -1, "write at %s: the coordinator sends the insert (timestamp %d) to every live replica and waits for %d %s", s.Write, ts, c.writeBlock, plural(c.writeBlock, "acknowledgement", "acknowledgements"))
			}
			for i, u := range c.up {
				if u {
					c.at(c.draw(i), evWriteArrive, i, &c.writeCell, false)
				}
			}
			readAt = -1 // the read waits for the write's answer
		}
	}
	c.readBlock = 0
	if s.Read != "" {
		c.readBlock, _ = teaching.BlockFor(s.Read, teaching.RingReplicas)
		if readAt >= 0 {
			c.at(readAt, evReadStart, -1, nil, false)
		}
	}
	for len(c.queue) > 0 {
		e := c.queue.pop()
		c.now = e.at
		c.message(e, e.from)
		if err := c.handle(e, live); err != nil {
			return *run, err
		}
	}
	if s.Read != "" && run.ReadUnavailable == "" && c.readAnswered {
		if c.answer != nil && !c.answer.Tombstone {
			run.ReadFound, run.ReadTS = true, c.answer.Timestamp
			if c.detail {
				run.ReadValue = string(c.answer.Value)
			}
		}
		if c.expected != nil {
			run.ExpectedTS = c.expected.Timestamp
			if c.detail {
				run.Expected = string(c.expected.Value)
			}
			run.Stale = c.answer == nil || newest(c.answer, c.expected) != c.answer
		}
	}
	return *run, nil
}

// readAt is what replica i holds now, kept in the slab (nil: nothing).
func (c *coordinator) readAt(i int) (*engine.StoredCell, error) {
	cell, ok, err := c.store.read(i)
	if err != nil || !ok {
		return nil, err
	}
	c.slab = append(c.slab, cell)
	return &c.slab[len(c.slab)-1], nil
}

func unavailable(level string, block, live int) string {
	return fmt.Sprintf("UnavailableException: %s blocks for %d %s and %d %s up", level, block, plural(block, "replica", "replicas"), live, plural(live, "is", "are"))
}

func (c *coordinator) describe(cell *engine.StoredCell) string {
	if !c.detail {
		return ""
	}
	return describeCell(cell)
}

func (c *coordinator) handle(e ringEvent, live int) error {
	run := c.run
	switch e.kind {
	case evHint, evRepair:
		if err := c.store.apply(e.replica, *e.cell); err != nil {
			return err
		}
		what := "the hinted row"
		if e.kind == evRepair {
			what = "the read repair"
		}
		if c.detail {
			c.say(e.at, e.replica, "%s arrives: insert(key='%s', column='%s', value=%q, timestamp=%d)", what, run.Key, ringColumn, e.cell.Value, e.cell.Timestamp)
		}
	case evWriteArrive:
		if err := c.store.apply(e.replica, *e.cell); err != nil {
			return err
		}
		if c.detail {
			c.say(e.at, e.replica, "the write arrives: insert(key='%s', column='%s', value=%q, timestamp=%d, consistency_level=%s)", run.Key, ringColumn, e.cell.Value, e.cell.Timestamp, c.s.Write)
		}
		// 0.6's hinted handoff: the next live replica on the ring keeps a hint for each stopped
		// one, with the write.
		for t, u := range c.up {
			if !u && c.holder(t) == e.replica {
				if err := c.store.keepHint(e.replica, t, c.ts); err != nil {
					return err
				}
				run.Hinted = append(run.Hinted, teaching.ReplicaName(t))
				if c.detail {
					c.say(e.at, e.replica, "%s is stopped: %s keeps a hint for it (the row's key, in its HintsColumnFamily)", teaching.ReplicaName(t), teaching.ReplicaName(e.replica))
				}
			}
		}
		c.at(e.at+c.draw(e.replica), evWriteAck, e.replica, nil, false)
	case evWriteAck:
		c.acks++
		if c.detail {
			run.WriteAcks = append(run.WriteAcks, teaching.ReplicaName(e.replica))
		}
		if c.acks == c.writeBlock {
			run.WriteAnswered = e.at
			c.expected = &c.writeCell
			if c.detail {
				c.say(e.at, e.replica, "its acknowledgement is the %s: the write answers the client", ordinal(c.acks))
			}
			if c.readBlock > 0 {
				c.at(e.at+c.s.Gap, evReadStart, -1, nil, false)
			}
		} else {
			if c.detail {
				c.say(e.at, e.replica, "acknowledges the write")
			}
		}
	case evReadStart:
		run.ReadAsked = e.at
		if live < c.readBlock {
			run.ReadUnavailable = unavailable(c.s.Read, c.readBlock, live)
			if c.detail {
				c.say(e.at, -1, "read at %s: %s", c.s.Read, run.ReadUnavailable)
			}
			return nil
		}
		if c.readBlock == 1 {
			c.readTarget = c.nearest()
			c.expect = 1
			if c.detail {
				c.say(e.at, -1, "read at ONE: the coordinator asks %s, the nearest live replica", teaching.ReplicaName(c.readTarget))
			}
			c.at(e.at+c.draw(c.readTarget), evReadArrive, c.readTarget, nil, false)
			return nil
		}
		c.expect = live
		if c.detail {
			c.say(e.at, -1, "read at %s: the coordinator asks every live replica and waits for %d replies", c.s.Read, c.readBlock)
		}
		for i, u := range c.up {
			if u {
				c.at(e.at+c.draw(i), evReadArrive, i, nil, false)
			}
		}
	case evReadArrive:
		cell, err := c.readAt(e.replica)
		if err != nil {
			return err
		}
		if c.detail {
			c.say(e.at, e.replica, "get(key='%s', column='%s'): it holds %s", run.Key, ringColumn, c.describe(cell))
		}
		c.at(e.at+c.draw(e.replica), evReadReply, e.replica, cell, e.check)
	case evReadReply:
		c.replies[e.replica], c.replied[e.replica] = e.cell, true
		c.nReplies++
		answered := !c.readAnswered
		if answered && (c.answer == nil || newest(c.answer, e.cell) == e.cell) {
			c.answer = e.cell
		}
		if c.detail {
			r := teaching.ReplicaReply{Replica: teaching.ReplicaName(e.replica), At: e.at, Answered: answered}
			if e.cell != nil && !e.cell.Tombstone {
				r.Found, r.Value, r.TS = true, string(e.cell.Value), e.cell.Timestamp
			}
			run.Replies = append(run.Replies, r)
		}
		switch {
		case answered && c.nReplies == c.readBlock:
			c.readAnswered = true
			run.ReadAnswered = e.at
			if c.detail {
				c.say(e.at, e.replica, "its reply is the %s: the read answers the client with %s", ordinal(c.nReplies), c.describe(c.answer))
			}
			if c.readBlock == 1 {
				// 0.6's consistency check: the other live replicas are read in the background.
				for i, u := range c.up {
					if u && i != c.readTarget {
						c.expect++
						c.at(e.at+c.draw(i), evReadArrive, i, nil, true)
					}
				}
				if c.expect > 1 {
					if c.detail {
						c.say(e.at, -1, "the consistency check asks the other live replicas in the background")
					}
				}
			}
		case e.check:
			if c.detail {
				c.say(e.at, e.replica, "replies to the consistency check")
			}
		default:
			if c.detail {
				c.say(e.at, e.replica, "replies")
			}
		}
		if c.nReplies == c.expect {
			return c.repair(e.at)
		}
	}
	return nil
}

// repair sends the newest version among the replies to every replica that replied older.
func (c *coordinator) repair(at int64) error {
	var w *engine.StoredCell
	for i, ok := range c.replied {
		if ok {
			w = newest(w, c.replies[i])
		}
	}
	if w == nil {
		return nil
	}
	for i, ok := range c.replied {
		if !ok {
			continue
		}
		if got := c.replies[i]; got != nil && got.Timestamp == w.Timestamp && got.Tombstone == w.Tombstone && string(got.Value) == string(w.Value) {
			continue
		}
		c.run.Repaired = append(c.run.Repaired, teaching.ReplicaName(i))
		if c.detail {
			c.say(at, -1, "read repair: %s replied older; the coordinator sends it the newest version", teaching.ReplicaName(i))
		}
		c.at(at+c.draw(i), evRepair, i, w, false)
	}
	return nil
}

// holder is the live replica that keeps the hints for stopped replica t: the next live one on
// the ring after it (-1: none).
func (c *coordinator) holder(t int) int {
	for k := 1; k < teaching.RingReplicas; k++ {
		if h := (t + k) % teaching.RingReplicas; c.up[h] {
			return h
		}
	}
	return -1
}

// nearest is the live replica a read at ONE asks: the snitch's first, here the one of the
// smallest delay, the first on the ring on a tie.
func (c *coordinator) nearest() int {
	best := -1
	for i, u := range c.up {
		if u && (best < 0 || c.s.Ring.Delays[i] < c.s.Ring.Delays[best]) {
			best = i
		}
	}
	return best
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return strconv.Itoa(n) + "th"
}

// newestHeld is the newest version any replica of store holds: what the last acknowledged
// write left once every message of its step was delivered.
func newestHeld(store ringStore) (*engine.StoredCell, error) {
	var w *engine.StoredCell
	for i := range teaching.RingReplicas {
		c, ok, err := store.read(i)
		if err != nil {
			return nil, err
		}
		if ok {
			w = newest(w, &c)
		}
	}
	return w, nil
}

// Step implements teaching.ConsistencyLab.
func (l *Lab) Step(ctx context.Context, session string, s teaching.ConsistencyStep) (teaching.ConsistencyRun, error) {
	key, err := labKey(session)
	if err != nil {
		return teaching.ConsistencyRun{}, err
	}
	if err := checkStep(s); err != nil {
		return teaching.ConsistencyRun{}, err
	}
	var run teaching.ConsistencyRun
	// A step writes at most: the write and a repair on each replica, and a hint.
	err = l.withRing(3*teaching.RingReplicas, func(nodes [teaching.RingReplicas]*engine.Node) error {
		store := &nodeRing{ctx: ctx, nodes: nodes, key: key}
		look := store.quiet()
		expected, err := newestHeld(look)
		if err != nil {
			return err
		}
		c := newCoordinator(store, s.Seed, true, key)
		if run, err = c.play(s, l.now(), expected); err != nil {
			return err
		}
		for i := range teaching.RingReplicas {
			cell, ok, err := look.read(i)
			if err != nil {
				return err
			}
			hints, err := look.hints(i)
			if err != nil {
				return err
			}
			h := teaching.ReplicaHeld{Replica: teaching.ReplicaName(i), Stopped: s.Ring.Stopped[i]}
			if ok && !cell.Tombstone {
				h.Found, h.Value, h.TS = true, string(cell.Value), cell.Timestamp
			}
			for _, t := range hints {
				h.Hints = append(h.Hints, teaching.ReplicaName(t))
			}
			run.Held = append(run.Held, h)
		}
		return nil
	})
	return run, err
}

// Trials implements teaching.ConsistencyLab: every pair on a register of its own, seeded by
// seed and the pair's place, each trial a write of a fresh value then a read.
func (l *Lab) Trials(ctx context.Context, ring teaching.LabRing, gap int64, seed uint64, trials int) (teaching.TrialRun, error) {
	if trials < 1 || trials > teaching.MaxTrials {
		return teaching.TrialRun{}, domain.Invalid("trials", "must be from 1 to %d", teaching.MaxTrials)
	}
	if err := checkStep(teaching.ConsistencyStep{Ring: ring, Gap: gap}); err != nil {
		return teaching.TrialRun{}, err
	}
	run, err := runTrials(ctx, ring, gap, seed, trials)
	if err == nil {
		noteTrials(ctx, run)
	}
	return run, err
}

// noteTrials says what the trials cost: no Thrift call, and what they did on the register.
func noteTrials(ctx context.Context, run teaching.TrialRun) {
	if !oplog.Detailed(ctx) {
		oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "trials"})
		return
	}
	applied, read := 0, 0
	for _, p := range run.Pairs {
		applied, read = applied+p.Applied, read+p.Reads
	}
	oplog.Record(ctx, oplog.Op{Model: "widerow", Kind: oplog.Note, Call: "trials", Touched: fmt.Sprintf("%d trials", run.Trials*len(run.Pairs)),
		Text: fmt.Sprintf("trials: %d pairs of levels × %d trials on a register of three replicas in memory: %d versions applied, %d replica reads simulated; no call reached a node",
			len(run.Pairs), run.Trials, applied, read)})
}

func runTrials(ctx context.Context, ring teaching.LabRing, gap int64, seed uint64, trials int) (teaching.TrialRun, error) {
	out := teaching.TrialRun{Ring: ring, Gap: gap, Seed: seed, Trials: trials}
	for wi, w := range teaching.Levels {
		for ri, r := range teaching.Levels {
			p, err := trialPair(ctx, ring, gap, seed+uint64(wi*len(teaching.Levels)+ri), trials, w, r)
			if err != nil {
				return out, err
			}
			out.Pairs = append(out.Pairs, p)
		}
	}
	return out, nil
}

// trialPair plays trials steps of one pair on a fresh register.
func trialPair(ctx context.Context, ring teaching.LabRing, gap int64, seed uint64, trials int, w, r string) (teaching.TrialPair, error) {
	wb, _ := teaching.BlockFor(w, teaching.RingReplicas)
	rb, _ := teaching.BlockFor(r, teaching.RingReplicas)
	p := teaching.TrialPair{Write: w, Read: r, Overlap: wb+rb > teaching.RingReplicas, Trials: trials}
	store := &register{}
	c := newCoordinator(store, seed, false, "")
	s := teaching.ConsistencyStep{Ring: ring, Write: w, Read: r, Gap: gap}
	var (
		expected *engine.StoredCell
		last     engine.StoredCell
	)
	for t := range trials {
		if t%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return p, err
			}
		}
		run, err := c.play(s, int64(t+1), expected)
		if err != nil {
			return p, err
		}
		if run.WriteUnavailable != "" || run.ReadUnavailable != "" {
			p.Unavailable++
		} else if run.Stale {
			p.Stale++
		}
		if run.WriteUnavailable == "" {
			last = engine.StoredCell{Timestamp: int64(t + 1)}
			expected = &last
		}
	}
	p.Applied, p.Reads = store.applied, store.reads
	return p, nil
}

var _ teaching.ConsistencyLab = (*Lab)(nil)
