// Package tokens is lesson 14 of the course: tokens and replicas. A row key is also a token, and
// the token decides which nodes hold the row: the lesson places a key the learner types on the
// running backend's ring (the cluster's, as the driver knows it, on cql3; a simulated ring of 0.6
// of the size the learner picks on widerow) and draws it, the key's token and its replicas marked.
// Its form is a GET: placing a key writes nothing, and the address can be bookmarked.
package tokens

//go:generate go tool templ generate -path .

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"

	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
	"twissandra/web/teach/labs"
)

// Lesson is this package's lesson, for the course's list (package course).
func Lesson(lh *labs.Handler) frame.Lesson {
	h := &handler{lh}
	return frame.Lesson{Slug: "tokens", Title: "Tokens and replicas",
		Summary:   "A row key is a token on a ring of nodes: place any key and see its token (MD5 on 0.6, Murmur3 on CQL3) and the nodes that hold its replicas.",
		Show:      func(c *gin.Context) (templ.Component, error) { return showTokens(h, c) },
		Topics:    []string{"tokens", "partitioner", "replicas", "ring"},
		Exercises: exercises(h.Deps.Ring, h.RingGate)}
}

// handler is the labs' handler, which the lesson reads the running store through.
type handler struct{ *labs.Handler }

// The simulated ring's defaults: five nodes, and the keyspace's own ReplicationFactor.
const defaultSimNodes = 5

type tokensData struct {
	Available bool
	Key       string
	// Me is the learner signed in ("" for none): "Where does it live" of their own record.
	Me string
	// Nodes and RF are the simulated ring's size and factor as the form sends them back.
	Nodes, RF string
	Simulated bool // the running backend's ring is simulated (the form asks for its size)
	Error     string
	Rings     []ringView
}

// ringView is one model's ring with the key on it.
type ringView struct {
	Model string
	Ring  teaching.KeyRing
	Pic   ringPicture
	// Err is why the model could not place the key (memory has no ring).
	Err string
}

func showTokens(h *handler, c *gin.Context) (templ.Component, error) {
	d := tokensData{Available: h.Deps.Ring != nil, Key: strings.TrimSpace(c.Query("key")), Me: site.User(c), Nodes: c.DefaultQuery("nodes", strconv.Itoa(defaultSimNodes)), RF: c.Query("rf")}
	if d.Key == "" {
		d.Key = d.Me
	}
	if d.Key == "" {
		d.Key = "jericevans"
	}
	if !d.Available {
		return tokensView(d), nil
	}
	sim, err := parseRingSim(d.Nodes, d.RF)
	if err != nil {
		d.Error = err.Error()
		return tokensView(d), nil
	}
	leave, err := h.EnterFor(c, h.RingGate)
	if err != nil {
		return nil, err
	}
	defer leave()
	rings := []struct {
		model string
		ring  teaching.Ring
	}{{h.Deps.Backend, h.Deps.Ring}}
	if h.Deps.CompareRing != nil {
		rings = append(rings, struct {
			model string
			ring  teaching.Ring
		}{h.Deps.CompareBackend, h.Deps.CompareRing})
	}
	for i, r := range rings {
		kr, err := r.ring.PlaceKey(c.Request.Context(), d.Key, sim)
		switch {
		case errors.Is(err, teaching.ErrBadRing):
			d.Error = err.Error()
			return tokensView(d), nil
		case errors.Is(err, teaching.ErrNoRing):
			d.Rings = append(d.Rings, ringView{Model: r.model, Err: strings.TrimPrefix(err.Error(), teaching.ErrNoRing.Error()+": ")})
			continue
		case err != nil:
			return nil, err
		}
		if i == 0 {
			d.Simulated = kr.Simulated
		}
		d.Rings = append(d.Rings, ringView{Model: r.model, Ring: kr, Pic: newRingPicture(kr, r.model)})
	}
	for _, r := range d.Rings {
		d.Simulated = d.Simulated || r.Ring.Simulated
	}
	return tokensView(d), nil
}

// parseRingSim reads the form's ring size and factor; a blank factor is the keyspace's own.
func parseRingSim(nodes, rf string) (teaching.RingSim, error) {
	var sim teaching.RingSim
	n, err := strconv.Atoi(strings.TrimSpace(nodes))
	if err != nil || n < 1 || n > teaching.MaxSimNodes {
		return sim, fmt.Errorf("nodes %q: a ring of 1 to %d nodes, please", nodes, teaching.MaxSimNodes)
	}
	sim.Nodes = n
	if rf = strings.TrimSpace(rf); rf != "" {
		r, err := strconv.Atoi(rf)
		if err != nil || r < 1 || r > teaching.MaxSimNodes {
			return sim, fmt.Errorf("ReplicationFactor %q: 1 to %d, or blank for the keyspace's own, please", rf, teaching.MaxSimNodes)
		}
		sim.RF = r
	}
	return sim, nil
}

// replicaOrder is the place (1, 2, ...) of node i among the key's replicas, 0 if it holds none.
func (r ringView) replicaOrder(i int) int {
	for j, n := range r.Ring.Replicas {
		if n == i {
			return j + 1
		}
	}
	return 0
}

// replicaNames are the names of the key's replicas, in order.
func (r ringView) replicaNames() []string {
	names := make([]string, 0, len(r.Ring.Replicas))
	for _, i := range r.Ring.Replicas {
		names = append(names, r.Ring.Nodes[i].Name)
	}
	return names
}

// tokenList is a node's tokens.
func tokenList(n teaching.RingNode) []string {
	out := make([]string, len(n.Tokens))
	for i, t := range n.Tokens {
		out[i] = t.Token
	}
	return out
}

// The ring picture: a circle, the smallest token at the top and tokens growing clockwise; a dot
// per node token (a replica's larger, and numbered: #1 owns the key's range), the key's token as a diamond, and the arc
// from the key clockwise to the token whose range holds it. Its <title> names it; the table
// beside it says every node, token and replica in words.

type ringPicture struct {
	ID, Title, Desc string
	W, H, CX, CY, R int
	Dots            []ringDot
	Key             ringDot
	KeyShape        string // the diamond at the key's token
	Arc             string // the path from the key to its owner's token
	Labelled        bool   // each dot has its label (few tokens); else the table says
}

type ringDot struct {
	X, Y, LX, LY string
	Anchor       string
	Label        string
	Replica      int // the replica's place, 0 for none
}

const (
	ringW      = 520 // room for the labels either side
	ringH      = 380
	ringRadius = 120
	maxLabels  = 12 // more tokens than this (vnodes) are labelled in the table only
)

// ringPoint is the point at position p of the ring (0 at the top, clockwise), r from the centre.
func ringPoint(p float64, r float64) (float64, float64) {
	a := p*2*math.Pi - math.Pi/2
	return float64(ringW)/2 + r*math.Cos(a), float64(ringH)/2 + r*math.Sin(a)
}

func coord(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

func newRingPicture(kr teaching.KeyRing, model string) ringPicture {
	rv := ringView{Ring: kr}
	pic := ringPicture{ID: "ring-" + model, W: ringW, H: ringH, CX: ringW / 2, CY: ringH / 2, R: ringRadius,
		Title: fmt.Sprintf("The %s ring: %d nodes, the key %q at token %s", model, len(kr.Nodes), kr.Key, kr.Token)}
	total := 0
	for _, n := range kr.Nodes {
		total += len(n.Tokens)
	}
	pic.Labelled = total <= maxLabels
	owner := -1.0 // the owner token's position: the first at or after the key's, clockwise
	for i, n := range kr.Nodes {
		order := rv.replicaOrder(i)
		for _, t := range n.Tokens {
			x, y := ringPoint(t.Position, ringRadius)
			lx, ly := ringPoint(t.Position, ringRadius+22)
			anchor := "middle"
			switch {
			case lx > float64(ringW)/2+10:
				anchor = "start"
			case lx < float64(ringW)/2-10:
				anchor = "end"
			}
			label := n.Name
			if order > 0 {
				label += " #" + strconv.Itoa(order)
			}
			pic.Dots = append(pic.Dots, ringDot{X: coord(x), Y: coord(y), LX: coord(lx), LY: coord(ly), Anchor: anchor, Label: label, Replica: order})
			if d := clockwise(kr.Position, t.Position); order == 1 && (owner < 0 || d < clockwise(kr.Position, owner)) {
				owner = t.Position
			}
		}
	}
	kx, ky := ringPoint(kr.Position, ringRadius)
	klx, kly := ringPoint(kr.Position, ringRadius-24)
	pic.KeyShape = fmt.Sprintf("%s,%s %s,%s %s,%s %s,%s", coord(kx), coord(ky-8), coord(kx+8), coord(ky), coord(kx), coord(ky+8), coord(kx-8), coord(ky))
	pic.Key = ringDot{X: coord(kx), Y: coord(ky), LX: coord(klx), LY: coord(kly), Anchor: "middle", Label: "key"}
	if owner >= 0 {
		sweep := clockwise(kr.Position, owner)
		ox, oy := ringPoint(owner, ringRadius)
		large := 0
		if sweep > 0.5 {
			large = 1
		}
		pic.Arc = fmt.Sprintf("M %s %s A %d %d 0 %d 1 %s %s", coord(kx), coord(ky), ringRadius, ringRadius, large, coord(ox), coord(oy))
	}
	pic.Desc = fmt.Sprintf("The key's token lies at %.1f%% of the ring; walking clockwise from it, the replicas are %s.", kr.Position*100, strings.Join(rv.replicaNames(), ", then "))
	return pic
}

// clockwise is how far position to lies clockwise from from (0 to 1).
func clockwise(from, to float64) float64 {
	if d := to - from; d >= 0 {
		return d
	}
	return to - from + 1
}
