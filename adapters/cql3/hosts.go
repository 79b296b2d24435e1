package cql3

import (
	"slices"
	"strings"
	"sync"

	"github.com/gocql/gocql"
)

// ringWatch is the main session's host selection policy (token-aware routing, as configured)
// with an eye on the hosts the driver adds and removes: each host carries the tokens its node
// reported in system.local or system.peers, and the driver calls SetPartitioner with the
// cluster's partitioner. It is the driver's token metadata, as the tokens lesson reads it.
type ringWatch struct {
	gocql.HostSelectionPolicy
	mu          sync.Mutex
	hosts       map[string]*gocql.HostInfo // by host ID
	partitioner string
}

func (w *ringWatch) AddHost(h *gocql.HostInfo) {
	w.mu.Lock()
	w.hosts[h.HostID()] = h
	w.mu.Unlock()
	w.HostSelectionPolicy.AddHost(h)
}

// AddHosts keeps the session's first hosts, and hands them on at once to a policy that takes
// them so (token-aware routing builds its ring once, not once per host).
func (w *ringWatch) AddHosts(hosts []*gocql.HostInfo) {
	w.mu.Lock()
	for _, h := range hosts {
		w.hosts[h.HostID()] = h
	}
	w.mu.Unlock()
	if bulk, ok := w.HostSelectionPolicy.(interface{ AddHosts([]*gocql.HostInfo) }); ok {
		bulk.AddHosts(hosts)
		return
	}
	for _, h := range hosts {
		w.HostSelectionPolicy.AddHost(h)
	}
}

func (w *ringWatch) RemoveHost(h *gocql.HostInfo) {
	w.mu.Lock()
	delete(w.hosts, h.HostID())
	w.mu.Unlock()
	w.HostSelectionPolicy.RemoveHost(h)
}

func (w *ringWatch) SetPartitioner(p string) {
	w.mu.Lock()
	w.partitioner = p
	w.mu.Unlock()
	w.HostSelectionPolicy.SetPartitioner(p)
}

// snapshot is the hosts the driver knows and the cluster's partitioner.
func (w *ringWatch) snapshot() ([]*gocql.HostInfo, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	hosts := make([]*gocql.HostInfo, 0, len(w.hosts))
	for _, h := range w.hosts {
		hosts = append(hosts, h)
	}
	slices.SortFunc(hosts, func(a, b *gocql.HostInfo) int {
		return strings.Compare(a.ConnectAddressAndPort(), b.ConnectAddressAndPort())
	})
	p := w.partitioner
	if p == "" && len(hosts) > 0 {
		p = hosts[0].Partitioner()
	}
	return hosts, p
}

// Hosts is what the driver knows of the cluster: its hosts, each with the tokens its node
// reported, sorted by address, and the cluster's partitioner; none before Start.
func (s *Store) Hosts() ([]*gocql.HostInfo, string) {
	w := s.ring.Load()
	if w == nil {
		return nil, ""
	}
	return w.snapshot()
}
