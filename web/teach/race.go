package teach

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web/site"
)

// The uniqueness race: N concurrent sign-ups of one name in the running backend's sandbox, by
// read-then-write as the 2014 Twissandra did, then with the store's lightweight transaction.

// The race's bounds: a race of 200 hashed sign-ups is a few hundred milliseconds of every core
// (on cql3, 400 LWTs and 800 more statements), and anyone may start one.
const (
	raceTotal      = 2
	racesPerMinute = 10
)

// The lab's: each of its writes is a handful of calls on an in-memory node.
const (
	labTotal     = 16
	labPerAddr   = 2
	labPerMinute = 120
)

// raceHasher hashes the racers' passwords between their read and their write, as a sign-up
// does, at bcrypt's lowest cost so that a race of 200 stays short.
var raceHasher = domain.NewPasswordHasher(bcrypt.MinCost)

type raceData struct {
	Available bool
	Bounds    string // the race's bounds (gate.Bounds)
	Backend   string
	Name      string
	Racers    int
	Hash      bool // hash each racer's password between its read and its write
	Max       int
	Error     string
	Result    *teaching.RaceResult
	Lost      int
}

// renderRace renders the race page with status.
func (h *handler) renderRace(c *gin.Context, status int, d raceData) {
	h.site.Render(c, status, site.Page{Title: "Uniqueness race", Nav: "models", Content: raceView(d)})
}

func (h *handler) racePage(c *gin.Context) {
	h.renderRace(c, http.StatusOK, raceData{Available: h.deps.Claims != nil, Backend: h.deps.Backend, Name: "rita", Racers: 32, Hash: true, Max: teaching.MaxRacers, Bounds: h.raceGate.Bounds()})
}

func (h *handler) runRace(c *gin.Context) {
	d := raceData{Available: h.deps.Claims != nil, Backend: h.deps.Backend, Name: strings.TrimSpace(c.PostForm("name")),
		Hash: c.PostForm("hash") != "", Max: teaching.MaxRacers, Bounds: h.raceGate.Bounds()}
	if !d.Available {
		h.renderRace(c, http.StatusOK, d)
		return
	}
	n, err := strconv.Atoi(c.PostForm("racers"))
	if err != nil {
		d.Error = "The number of sign-ups must be a whole number."
		h.renderRace(c, http.StatusBadRequest, d)
		return
	}
	d.Racers = n
	var hasher *domain.PasswordHasher
	if d.Hash {
		hasher = raceHasher
	}
	res, err := teaching.Race(c.Request.Context(), h.deps.Claims, hasher, d.Name, n)
	if err != nil {
		d.Error = site.Sentence(inspectError(err))
		status := statusOf(err)
		if status >= http.StatusInternalServerError {
			h.log.Error("uniqueness race", "err", err)
			d.Error = "The race could not run: the store failed. Try again."
		}
		h.renderRace(c, status, d)
		return
	}
	d.Result, d.Lost = &res, res.ReadThenWrite.Winners-1
	h.renderRace(c, http.StatusOK, d)
}
