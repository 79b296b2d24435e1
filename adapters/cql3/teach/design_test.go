package teach

import (
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"twissandra/adapters/cql3"
	"twissandra/internal/testkit/cqltest"
	"twissandra/ports/teaching"
)

// Designs are held to the query lab's bounds, over the cluster: three servers grading designs
// at once make no more tables a minute than the budget, hold no more than the slots, and answer
// each design with its trial or a refusal that says when to try again; a learner past the
// limit of a minute is refused.
func TestDesignLabBoundsOverServers(t *testing.T) {
	first := freshStore(t, "twissandra_test_qlabd_")
	servers := []*Store{first, New(cqltest.Open(t, first.Keyspace())), New(cqltest.Open(t, first.Keyspace()))}
	const tables, makes = 3, 2
	for _, s := range servers {
		s.lab.maxTable, s.lab.makes = tables, makes
		s.lab.trials.max = 1000
	}
	c := testCtx(t, 3*time.Minute)
	var designs []teaching.TableDesign
	for _, id := range []string{"user", "followers"} {
		p, _ := teaching.LookupPattern(id)
		for _, col := range p.Columns {
			d, err := teaching.ParseDesign(id, teaching.DesignText(p, teaching.KeyChoice{Pattern: id, Partition: []string{col.Name}}))
			if err != nil {
				t.Fatal(err)
			}
			designs = append(designs, d)
		}
	}
	var mu sync.Mutex
	var ran []teaching.DesignTrial
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, s := range servers {
		for j := range designs {
			wg.Go(func() {
				<-start
				tr, err := s.TryDesign(c, "learner", designs[(i*2+j)%len(designs)])
				mu.Lock()
				defer mu.Unlock()
				var be *LabBusyError
				switch {
				case err == nil:
					ran = append(ran, tr)
				case !errors.As(err, &be) || !errors.Is(err, teaching.ErrTooManyTrials):
					t.Errorf("server %d: %v", i+1, err)
				}
			})
		}
	}
	close(start)
	wg.Wait()
	made := 0
	for _, tr := range ran {
		for _, st := range tr.Statements {
			if strings.HasPrefix(st.CQL, "CREATE TABLE IF NOT EXISTS "+tr.Keyspace+".q_") {
				made++
			}
		}
	}
	if made > makes || len(ran) == 0 {
		t.Errorf("%d designs ran, making %d tables within a minute; want some, making at most %d", len(ran), made, makes)
	}
	var names []string
	sess, _ := first.sess()
	if err := sess.ContextQuery(c, "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", nil).Bind(cql3.LabKeyspace(first.Keyspace())).SelectRelease(&names); err != nil {
		t.Fatal(err)
	}
	names = slices.DeleteFunc(names, func(n string) bool { return n == "lab_slots" || n == "lab_changes" })
	if len(names) > tables {
		t.Errorf("the lab holds %d tables %v, want at most %d", len(names), names, tables)
	}
	t.Logf("%d designs at once over 3 servers: %d ran, %d tables made, %d held", len(servers)*len(designs), len(ran), made, len(names))
	first.lab.trials.max = 2
	for range 2 {
		if _, err := first.TryDesign(c, "one", teaching.TableDesign{Key: ran[0].Choice}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := first.TryDesign(c, "one", teaching.TableDesign{Key: ran[0].Choice}); !errors.Is(err, teaching.ErrTooManyTrials) {
		t.Fatalf("a third design in a minute: %v, want ErrTooManyTrials", err)
	}
}
