package bench

import (
	"context"
	"testing"

	"twissandra/adapters/widerow"
	"twissandra/domain"
	"twissandra/domain/social"
)

// widerowService is the use cases on a widerow node in memory, the backend whose costs the
// simulation's figures use.
func widerowService(t testing.TB) (*social.Service, *widerow.Store) {
	t.Helper()
	node, err := widerow.OpenNode(widerow.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = node.Close() })
	st := widerow.NewStore(node)
	return social.New(st, st, st, nil, domain.NewPasswordHasher(4)), st
}

// widerowCost is the cost model measured on a fresh widerow node.
func widerowCost(t testing.TB) CostModel {
	t.Helper()
	svc, st := widerowService(t)
	m, err := MeasureFanoutCost(context.Background(), "widerow", svc, st, st)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// The cost model is what widerow's Thrift calls touch: a follower pushed to is one more
// Timeline row in the post's batch_mutate and nothing read; a pulled author followed is one
// more get_slice of a page; a page writes nothing; a rebuild reads the userline and writes the
// timeline. The threshold is left as it was.
func TestMeasureFanoutCostOnWiderow(t *testing.T) {
	t.Parallel()
	svc, st := widerowService(t)
	if err := svc.SetPullThreshold(7); err != nil {
		t.Fatal(err)
	}
	m, err := MeasureFanoutCost(context.Background(), "widerow", svc, st, st)
	if err != nil {
		t.Fatal(err)
	}
	if svc.PullThreshold() != 7 {
		t.Errorf("threshold left at %d", svc.PullThreshold())
	}
	if m.PostPerFollower != (Rows{Read: 0, Written: 1}) {
		t.Errorf("a follower pushed to costs %+v, want one row written", m.PostPerFollower)
	}
	if m.PerPulled() != (Rows{Read: 1}) {
		t.Errorf("a pulled author costs a page %+v, want one slice", m.PerPulled())
	}
	if m.PostPulled.Total() >= m.PostBase.Total()+m.PostPerFollower.Total() {
		t.Errorf("a pulled post %+v costs no less than a post pushed to one follower", m.PostPulled)
	}
	for i, p := range m.Pages {
		if p.Rows.Written != 0 || p.Rows.Read < 41 {
			t.Errorf("page %d: %+v, want a page of 40 tweets read and nothing written", i, p)
		}
		if i > 0 && p.Rows.Read-m.Pages[i-1].Rows.Read != float64(p.Pulled-m.Pages[i-1].Pulled) {
			t.Errorf("pages %+v: not a slice more per pulled author", m.Pages)
		}
	}
	if m.Rebuild != (Rows{Read: 1, Written: 1}) {
		t.Errorf("a rebuild of one followee costs %+v, want its userline read and the timeline written", m.Rebuild)
	}
	// Page interpolates between the measured counts and carries the last slope on.
	last := m.Pages[len(m.Pages)-1]
	if got := m.Page(last.Pulled + 10).Read; got != last.Rows.Read+10 {
		t.Errorf("Page(%d) = %v, want %v", last.Pulled+10, got, last.Rows.Read+10)
	}
	if got := m.Page(2).Read; got != m.Pages[0].Rows.Read+2 {
		t.Errorf("Page(2) = %v", got)
	}
}
