package engine

import (
	_ "embed"
	"encoding/xml"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultSchemaXML is the embedded storage-conf.xml: keyspaces Twissandra,
// BloggyAppy and Scratch, RandomPartitioner, batch commit log sync.
//
//go:embed storage-conf.xml
var DefaultSchemaXML string

// Partitioner decides row order for get_range_slices.
type Partitioner uint8

// The two partitioners the emulation supports.
const (
	// RandomPartitioner orders rows by token = abs(signed 128-bit MD5 of the key).
	RandomPartitioner Partitioner = iota + 1
	// OrderPreservingPartitioner orders rows by the key bytes.
	OrderPreservingPartitioner
)

const dhtPackage = "org.apache.cassandra.dht."

func (p Partitioner) String() string {
	switch p {
	case RandomPartitioner:
		return "RandomPartitioner"
	case OrderPreservingPartitioner:
		return "OrderPreservingPartitioner"
	}
	return fmt.Sprintf("Partitioner(%d)", uint8(p))
}

// ClassName returns the Java class name, e.g. "org.apache.cassandra.dht.RandomPartitioner".
func (p Partitioner) ClassName() string { return dhtPackage + p.String() }

// SyncMode is the CommitLogSync setting.
type SyncMode string

// Commit log sync modes.
const (
	// SyncBatch syncs the write-ahead log before every write is acknowledged.
	SyncBatch SyncMode = "batch"
	// SyncPeriodic acknowledges writes at once and syncs the log every period.
	SyncPeriodic SyncMode = "periodic"
)

// ColumnFamilyDef is one <ColumnFamily> element.
type ColumnFamilyDef struct {
	Name  string
	Super bool // ColumnType="Super"
	// CompareWith orders column names (super column names in a super CF).
	CompareWith Comparator
	// CompareSubcolumnsWith orders the subcolumns of a super CF; zero for a standard CF.
	CompareSubcolumnsWith Comparator
	Comment               string
	// RowsCached is how many whole rows the node keeps in memory for reads (see rowcache.go);
	// 0, the default, keeps none.
	RowsCached int
}

// ColumnType returns "Standard" or "Super".
func (cf *ColumnFamilyDef) ColumnType() string {
	if cf.Super {
		return "Super"
	}
	return "Standard"
}

// KeyspaceDef is one <Keyspace> element.
type KeyspaceDef struct {
	Name              string
	ReplicationFactor int
	ColumnFamilies    []ColumnFamilyDef
}

// ColumnFamily finds a column family by name.
func (k *KeyspaceDef) ColumnFamily(name string) (*ColumnFamilyDef, bool) {
	for i := range k.ColumnFamilies {
		if k.ColumnFamilies[i].Name == name {
			return &k.ColumnFamilies[i], true
		}
	}
	return nil, false
}

// DefaultGCGraceSeconds is 0.6's GCGraceSeconds: ten days.
const DefaultGCGraceSeconds = 864000

// Schema is a parsed storage-conf.xml.
type Schema struct {
	ClusterName         string
	Partitioner         Partitioner
	CommitLogSync       SyncMode
	CommitLogSyncPeriod time.Duration
	// GCGraceSeconds is how long a tombstone is kept after the node received its delete
	// before a compaction may drop it: one setting of <Storage> for every column family, as
	// in 0.6 (per column family from 0.7). 864000 (ten days) when the file does not set it.
	GCGraceSeconds int
	Keyspaces      []KeyspaceDef
	// XML is the text the schema was parsed from.
	XML string
}

var gcGraceElement = regexp.MustCompile(`<GCGraceSeconds>[^<]*</GCGraceSeconds>`)

// withGCGrace is a copy of s whose GCGraceSeconds, and the text of its XML, say seconds.
func (s *Schema) withGCGrace(seconds int) *Schema {
	c := *s
	c.GCGraceSeconds = seconds
	el := fmt.Sprintf("<GCGraceSeconds>%d</GCGraceSeconds>", seconds)
	switch {
	case gcGraceElement.MatchString(c.XML):
		c.XML = gcGraceElement.ReplaceAllLiteralString(c.XML, el)
	case strings.Contains(c.XML, "</Storage>"):
		i := strings.LastIndex(c.XML, "</Storage>")
		c.XML = c.XML[:i] + "  " + el + "\n" + c.XML[i:]
	}
	return &c
}

// Keyspace finds a keyspace by name.
func (s *Schema) Keyspace(name string) (*KeyspaceDef, bool) {
	for i := range s.Keyspaces {
		if s.Keyspaces[i].Name == name {
			return &s.Keyspaces[i], true
		}
	}
	return nil, false
}

// DefaultSchema parses DefaultSchemaXML. The embedded file is checked by
// the tests, so an error here is a build defect and panics.
func DefaultSchema() *Schema {
	s, err := ParseSchema([]byte(DefaultSchemaXML))
	if err != nil {
		panic(err)
	}
	return s
}

type xmlColumnFamily struct {
	Name                  string `xml:"Name,attr"`
	CompareWith           string `xml:"CompareWith,attr"`
	CompareSubcolumnsWith string `xml:"CompareSubcolumnsWith,attr"`
	ColumnType            string `xml:"ColumnType,attr"`
	Comment               string `xml:"Comment,attr"`
	RowsCached            string `xml:"RowsCached,attr"`
}

type xmlKeyspace struct {
	Name              string            `xml:"Name,attr"`
	ColumnFamilies    []xmlColumnFamily `xml:"ColumnFamily"`
	ReplicationFactor string            `xml:"ReplicationFactor"`
}

type xmlKeyspaces struct {
	Keyspaces []xmlKeyspace `xml:"Keyspace"`
}

type xmlStorage struct {
	XMLName                 xml.Name
	ClusterName             string       `xml:"ClusterName"`
	Partitioner             string       `xml:"Partitioner"`
	CommitLogSync           string       `xml:"CommitLogSync"`
	CommitLogSyncPeriodInMS string       `xml:"CommitLogSyncPeriodInMS"`
	GCGraceSeconds          string       `xml:"GCGraceSeconds"`
	Keyspaces               xmlKeyspaces `xml:"Keyspaces"`
	// Set when the document root is <Keyspaces> itself.
	Keyspace []xmlKeyspace `xml:"Keyspace"`
}

// ParseSchema parses and validates a storage-conf.xml document. The root
// may be <Storage> (the whole file) or just <Keyspaces>, as the articles
// show it. Errors name the offending element.
func ParseSchema(data []byte) (*Schema, error) {
	var doc xmlStorage
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("storage-conf: %w", err)
	}
	var kss []xmlKeyspace
	switch doc.XMLName.Local {
	case "Storage":
		kss = doc.Keyspaces.Keyspaces
	case "Keyspaces":
		kss = doc.Keyspace
	default:
		return nil, fmt.Errorf("storage-conf: root element is <%s>, want <Storage> or <Keyspaces>", doc.XMLName.Local)
	}
	s := &Schema{
		ClusterName:         strings.TrimSpace(doc.ClusterName),
		Partitioner:         RandomPartitioner,
		CommitLogSync:       SyncBatch,
		CommitLogSyncPeriod: 10 * time.Second,
		GCGraceSeconds:      DefaultGCGraceSeconds,
		XML:                 string(data),
	}
	if p := strings.TrimSpace(doc.Partitioner); p != "" {
		switch strings.TrimPrefix(p, dhtPackage) {
		case "RandomPartitioner":
			s.Partitioner = RandomPartitioner
		case "OrderPreservingPartitioner":
			s.Partitioner = OrderPreservingPartitioner
		default:
			return nil, fmt.Errorf("storage-conf: unsupported Partitioner %q (want RandomPartitioner or OrderPreservingPartitioner)", p)
		}
	}
	if m := strings.TrimSpace(doc.CommitLogSync); m != "" {
		switch SyncMode(m) {
		case SyncBatch, SyncPeriodic:
			s.CommitLogSync = SyncMode(m)
		default:
			return nil, fmt.Errorf("storage-conf: CommitLogSync %q: want batch or periodic", m)
		}
	}
	if p := strings.TrimSpace(doc.CommitLogSyncPeriodInMS); p != "" {
		ms, err := strconv.Atoi(p)
		if err != nil || ms <= 0 {
			return nil, fmt.Errorf("storage-conf: CommitLogSyncPeriodInMS %q: want a positive integer", p)
		}
		s.CommitLogSyncPeriod = time.Duration(ms) * time.Millisecond
	}
	if g := strings.TrimSpace(doc.GCGraceSeconds); g != "" {
		secs, err := strconv.ParseInt(g, 10, 32)
		if err != nil || secs < 0 {
			return nil, fmt.Errorf("storage-conf: GCGraceSeconds %q: want a whole number of seconds, 0 or more", g)
		}
		s.GCGraceSeconds = int(secs)
	}
	if len(kss) == 0 {
		return nil, errors.New("storage-conf: no <Keyspace> defined")
	}
	for _, xk := range kss {
		ks, err := parseKeyspace(xk)
		if err != nil {
			return nil, err
		}
		if _, dup := s.Keyspace(ks.Name); dup {
			return nil, fmt.Errorf("storage-conf: keyspace %q defined twice", ks.Name)
		}
		s.Keyspaces = append(s.Keyspaces, ks)
	}
	return s, nil
}

func parseKeyspace(xk xmlKeyspace) (KeyspaceDef, error) {
	ks := KeyspaceDef{Name: strings.TrimSpace(xk.Name), ReplicationFactor: 1}
	if ks.Name == "" {
		return ks, errors.New("storage-conf: <Keyspace> without a Name")
	}
	if rf := strings.TrimSpace(xk.ReplicationFactor); rf != "" {
		n, err := strconv.Atoi(rf)
		if err != nil || n < 1 {
			return ks, fmt.Errorf("storage-conf: keyspace %s: ReplicationFactor %q: want a positive integer", ks.Name, rf)
		}
		ks.ReplicationFactor = n
	}
	if len(xk.ColumnFamilies) == 0 {
		return ks, fmt.Errorf("storage-conf: keyspace %s has no <ColumnFamily>", ks.Name)
	}
	for _, xc := range xk.ColumnFamilies {
		cf := ColumnFamilyDef{Name: strings.TrimSpace(xc.Name), Comment: xc.Comment}
		if cf.Name == "" {
			return ks, fmt.Errorf("storage-conf: keyspace %s: <ColumnFamily> without a Name", ks.Name)
		}
		where := ks.Name + "." + cf.Name
		if _, dup := ks.ColumnFamily(cf.Name); dup {
			return ks, fmt.Errorf("storage-conf: column family %s defined twice", where)
		}
		switch strings.TrimSpace(xc.ColumnType) {
		case "", "Standard":
		case "Super":
			cf.Super = true
		default:
			return ks, fmt.Errorf("storage-conf: column family %s: ColumnType must be either Standard or Super, not %q", where, xc.ColumnType)
		}
		cf.CompareWith = BytesType
		if xc.CompareWith != "" {
			c, err := ParseComparator(xc.CompareWith)
			if err != nil {
				return ks, fmt.Errorf("storage-conf: column family %s: CompareWith: %w", where, err)
			}
			cf.CompareWith = c
		}
		if xc.CompareSubcolumnsWith != "" {
			if !cf.Super {
				return ks, fmt.Errorf("storage-conf: CompareSubcolumnsWith is only a valid attribute on super columnfamilies (not regular columnfamily %s)", where)
			}
			c, err := ParseComparator(xc.CompareSubcolumnsWith)
			if err != nil {
				return ks, fmt.Errorf("storage-conf: column family %s: CompareSubcolumnsWith: %w", where, err)
			}
			cf.CompareSubcolumnsWith = c
		} else if cf.Super {
			cf.CompareSubcolumnsWith = BytesType
		}
		if rc := strings.TrimSpace(xc.RowsCached); rc != "" {
			n, err := strconv.Atoi(rc)
			if err != nil || n < 0 {
				return ks, fmt.Errorf("storage-conf: column family %s: RowsCached must be a number of rows (0 or more), not %q", where, xc.RowsCached)
			}
			cf.RowsCached = n
		}
		ks.ColumnFamilies = append(ks.ColumnFamilies, cf)
	}
	return ks, nil
}
