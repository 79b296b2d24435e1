package widerow

import (
	"strings"
	"testing"
	"time"
)

// The server's --gc-grace-seconds and --compaction-interval reach the node, and the schema it
// shows says the grace it runs with.
func TestOpenNodeCompactionSettings(t *testing.T) {
	node, err := OpenNode(Config{GCGrace: 2 * time.Hour, CompactionInterval: 5 * time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	if node.GCGrace() != 2*time.Hour || node.CompactionInterval() != 5*time.Minute || !strings.Contains(node.Schema().XML, "<GCGraceSeconds>7200</GCGraceSeconds>") {
		t.Fatalf("grace %v, interval %v", node.GCGrace(), node.CompactionInterval())
	}
	plain, err := OpenNode(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if plain.GCGrace() != 864000*time.Second || plain.CompactionInterval() != 0 {
		t.Fatalf("defaults: grace %v, interval %v", plain.GCGrace(), plain.CompactionInterval())
	}
}
