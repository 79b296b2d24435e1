// Package frame is what every teaching view shares: the Base a view's handler embeds (the Deps
// it reads, the site, the logger), the footer and banner of every page (the site's Teacher),
// the action and cost ledgers, the gates that bound the runs anyone may start, the notation of
// rows and the lessons' shared components, the query blocks, the schema helpers and the
// Chebotko layout, and the links to the course's lessons (which package course publishes).
// It imports no other teaching package.
package frame

import (
	"log/slog"
	"reflect"

	"twissandra/domain/blog"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/ports/teaching"
	"twissandra/web/site"
)

// NoneIfNil sets *p, an interface, to nil when it holds a nil pointer.
func NoneIfNil[T any](p *T) {
	if r := reflect.ValueOf(*p); r.Kind() == reflect.Pointer && r.IsNil() {
		var none T
		*p = none
	}
}

// Deps are the teaching views' collaborators.
type Deps struct {
	// Social runs Twissandra's use cases (required). Its stores record what each request cost
	// them (package oplog), which the footer lists.
	Social *social.Service
	// Blog runs the blog; nil leaves blog entries and comments out of "where does it live".
	Blog *blog.Service
	// Backend names the running backend: "widerow", "cql3" or "memory".
	Backend string
	// Wide reads the widerow engine's rows, for the storage inspector and the live schema; nil
	// on the other backends.
	Wide teaching.WideRowInspector
	// StorageConf is the widerow engine's storage-conf.xml, shown on the models page when the
	// running backend is another (Wide nil).
	StorageConf string
	// CQL reads the cql3 backend's tables for the storage inspector; nil elsewhere.
	CQL teaching.CQLInspector
	// Lab is the comparator and slice lab's scratch keyspace; nil leaves the lab out.
	Lab teaching.ColumnLab
	// Consistency is the consistency lab's ring of three replicas; nil leaves it out.
	Consistency teaching.ConsistencyLab
	// ClusterLevels tries each consistency level on the cql3 backend's cluster; nil elsewhere.
	ClusterLevels teaching.ClusterLevels
	// Claims is the uniqueness race's sandbox in the running backend's model; nil leaves the
	// race out.
	Claims teaching.NameClaims
	// Sizes measures the running store's rows for the partition lessons; nil leaves them out.
	Sizes teaching.RowSizer
	// CompareSizes measures compare mode's second backend, named CompareBackend, beside the
	// running one; nil outside compare mode.
	CompareSizes   teaching.RowSizer
	CompareBackend string
	// Actions keeps what each action cost until the page after its redirect shows it, on
	// whichever server answers that page (the cql3 store); nil keeps them in this process,
	// for a store that this process alone writes.
	Actions teaching.ActionLedger
	// Locator says where each record lives, for the "where does it live" pages; nil leaves
	// them out.
	Locator teaching.Locator
	// CQLSchema is the CQL DDL the cql3 adapter's migrations apply (cql3.SchemaText()),
	// whatever the backend: every CQL3 table a page shows is read from it (empty: from
	// QueryFirstDDL). The pages keep no copy of a schema of their own.
	CQLSchema string
	// QueryFirstDDL is the cql3 adapter's migrations whatever the backend, for the Chebotko
	// diagram of the generations page and the lessons on CQL3; empty leaves them out.
	QueryFirstDDL string
	// QueryLab tries a learner's primary keys on a real node (the query-first lesson): the cql3
	// backend's, or compare mode's second backend's when that is cql3; a store without CQL
	// says why not; nil leaves the exercise out.
	QueryLab teaching.QueryLab
	// Ring places keys on the running backend's ring, for the tokens-and-replicas lesson and
	// the tokens "where does it live" shows; CompareRing is compare mode's second backend's,
	// shown beside it. nil leaves them out.
	Ring, CompareRing teaching.Ring
	// Sandbox opens an empty scratch store of the 0.6 model in memory, apart from the
	// application's data, on which the celebrity lesson runs the use cases themselves with a
	// threshold of the learner's choosing, one per run; nil leaves the sandbox out.
	Sandbox func() (Scratch, error)
	// Progress keeps signed-in learners' progress through the course (lessons visited,
	// exercises passed) in the store; nil keeps it in the session, as an anonymous learner's.
	Progress teaching.ProgressStore
	// TTL runs the TTL lesson's writes and reads on a node (the cql3 backend's, or compare
	// mode's second backend's when that is cql3); nil leaves the lesson's node part out.
	TTL teaching.TTLLab
	// AddressBook writes seed 004's AddressBook entry on a node in the four forms CQL3 gives a
	// super column (the collections lesson): the cql3 backend's, or compare mode's second
	// backend's when that is cql3; nil leaves the node's part out.
	AddressBook teaching.AddressBookLab
	// Counters is the counters lesson's table on a node (the cql3 backend's, or compare mode's
	// second backend's when that is cql3); nil where the backend has no counters.
	Counters teaching.CounterLab
	// Storage is the widerow engine's storage, for the write and read paths lesson: its figures,
	// the learner's actions on the running store, and the exercises' rehearsals; nil elsewhere.
	Storage teaching.StorageEngine
	// NodeViews reads a cql3 node's virtual tables around a learner's write and read, for the
	// same lesson: the cql3 backend's, or compare mode's second backend's; nil elsewhere.
	NodeViews teaching.NodeViews
	// IndexLab finds a user by name four ways on a node (the lesson on indexes): the cql3
	// backend's, or compare mode's second backend's when that is cql3; nil leaves them out.
	IndexLab teaching.IndexLab
	// Classes keeps the instructor's classes and each signed-in learner's last action and
	// console use, for the instructor's page (package class); nil leaves the page saying the
	// backend keeps none. InstructorToken is the instructor's secret (--instructor-token);
	// empty leaves the page saying how to set it.
	Classes         teaching.ClassBook
	InstructorToken string
	// Gates are the bounds of the runs anyone may start; a zero figure is its default
	// (labs.DefaultGates).
	Gates Gates
	// Consoles are the consoles a learner types in, by language ("cli" on widerow, "cql" on
	// cql3, both in compare mode, the second backend's running on its model); none on a
	// backend without one, whose pages say so.
	Consoles map[string]teaching.Console
}

// Scratch is a store Deps.Sandbox opened: the domain's stores on it, an inspector of its rows,
// and Close, which drops it.
type Scratch struct {
	Users  ports.UserStore
	Tweets ports.TweetStore
	Lines  ports.LineStore
	Rows   teaching.WideRowInspector
	Close  func() error
}

// Base is what every teaching view reads: the Deps, the site that renders the pages, the
// logger, the action and cost ledgers, the gates of the runs anyone may start, and the
// generations' diagram. The teaching packages' handlers embed it; package teach makes the one of
// a server (Register).
type Base struct {
	Deps    Deps
	Site    *site.Site
	Log     *slog.Logger
	Actions teaching.ActionLedger // Deps.Actions, or this process's memoryLedger
	Costs   costLedger
	Diagram *ChebDiagram // of Deps.QueryFirstDDL, laid out once
	// RaceGate, LabGate, TrialsGate and RingGate bound the runs of the race, the lab's writes,
	// the consistency lab's trials and the tokens lesson's rings, SandboxGate the celebrity
	// lesson's sandboxes, which anyone may start.
	RaceGate, LabGate, TrialsGate, RingGate, SandboxGate *Gate
	queries                                              queryBlocks
	consoles                                             consoleMemory // each learner's recent console runs
}
