package teachingtest

import (
	"bytes"
	"crypto/rand"
	"testing"
	"time"

	"github.com/google/uuid"

	"twissandra/ports/porttest"
	"twissandra/ports/teaching"
)

// RunActionLedger checks a teaching.ActionLedger: a record kept is read back whole, by any
// holder of the ledger, as often as asked; a key never kept is not found.
func RunActionLedger(t *testing.T, ledgers ...teaching.ActionLedger) {
	if len(ledgers) == 0 {
		t.Fatal("RunActionLedger needs a ledger")
	}
	c := porttest.Context(t)
	key := "action-" + uuid.NewString()
	// A fan-out's record is large: 200 statements, in the notation of the pages.
	record := make([]byte, 200<<10)
	_, _ = rand.Read(record)
	if err := ledgers[0].KeepAction(c, key, record, time.Minute); err != nil {
		t.Fatalf("KeepAction: %v", err)
	}
	for i, l := range ledgers {
		for range 2 {
			got, found, err := l.ActionRecord(c, key)
			if err != nil || !found || !bytes.Equal(got, record) {
				t.Fatalf("ledger %d: ActionRecord: found %v, %d bytes, %v; want the %d bytes kept", i, found, len(got), err, len(record))
			}
		}
	}
	if _, found, err := ledgers[len(ledgers)-1].ActionRecord(c, "action-"+uuid.NewString()); err != nil || found {
		t.Fatalf("a key never kept: found %v, %v", found, err)
	}
}
