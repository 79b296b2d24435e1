package labs

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-gonic/gin"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/ports/teaching"
	"twissandra/web"
	"twissandra/web/site"
	"twissandra/web/teach/models"
)

// The uniqueness race: N concurrent sign-ups of one name in the running backend's sandbox, by
// read-then-write as the 2014 Twissandra did, then with the store's lightweight transaction. The
// form answers with a redirect to the page it came from (/models/race or lesson 7), which shows
// the race's result (labstate.go).

// A sign-up hashes the password between its read of the name and its write (bcrypt, at this
// application's default cost, 10): its window is that hash. The race gives each racer a window as
// long as one such hash takes on this server, measured at the first race that asks for it, and
// has the racer wait it out (teaching.Race says why a wait and not the hash itself).
const raceHashCost = bcrypt.DefaultCost

// maxSignUpWindow bounds the measured window (a hash under the race detector takes seconds).
const maxSignUpWindow = 250 * time.Millisecond

// signUpWindow is how long one sign-up's hash takes here, and the window the racers wait.
var signUpWindow = sync.OnceValues(func() (took, window time.Duration) {
	start := time.Now()
	_, _ = bcrypt.GenerateFromPassword([]byte("the password of a racer"), raceHashCost)
	took = time.Since(start).Round(time.Millisecond)
	return took, min(took, maxSignUpWindow)
})

const raceHome = "/models/race"

type RaceData struct {
	Available bool
	Bounds    string // the race's bounds (gate.Bounds)
	Back      string
	Backend   string
	Name      string
	Racers    string
	Hash      bool // give each racer a sign-up's window between its read and its write
	Max       int
	HashCost  int
	Error     string
	Result    *teaching.RaceResult
	Lost      int
	// HashTook is how long a sign-up's hash took here, measured at the first windowed race.
	HashTook time.Duration
}

// raceRun is the browser's last race.
type raceRun struct {
	Name, Racers string
	Hash         bool
	HashTook     time.Duration
	Result       teaching.RaceResult
}

// RaceData is the race's form and the browser's last race, for the page at back.
func (h *Handler) RaceData(c *gin.Context, back string) RaceData {
	d := RaceData{Available: h.Deps.Claims != nil, Back: back, Backend: h.Deps.Backend, Name: "rita", Racers: "32", Hash: true,
		Max: teaching.MaxRacers, HashCost: raceHashCost, Bounds: h.RaceGate.Bounds()}
	st := h.Recalled(c)
	if r := st.Race; r != nil {
		d.Name, d.Racers, d.Hash, d.Result, d.Lost, d.HashTook = r.Name, r.Racers, r.Hash, &r.Result, r.Result.ReadThenWrite.Winners-1, r.HashTook
	}
	if r := st.Refusal("race"); r != nil {
		d.Name, d.Racers, d.Hash, d.Result, d.Error = r.Form["name"], r.Form["racers"], r.Form["hash"] != "", nil, r.Msg
	}
	return d
}

func (h *Handler) RacePage(c *gin.Context) {
	h.Site.Render(c, http.StatusOK, site.Page{Title: "Uniqueness race", Nav: "models", Content: raceView(h.RaceData(c, raceHome))})
}

func (h *Handler) RunRace(c *gin.Context) {
	if h.Deps.Claims == nil {
		h.Site.Render(c, http.StatusNotFound, site.Page{Title: "Uniqueness race", Nav: "models", Content: raceView(RaceData{Back: raceHome})})
		return
	}
	form := PostForm(c, "name", "racers", "hash")
	run := &raceRun{Name: strings.TrimSpace(form["name"]), Racers: form["racers"], Hash: form["hash"] != ""}
	n, err := strconv.Atoi(strings.TrimSpace(run.Racers))
	if err != nil {
		err = domain.Invalid("racers", "the number of sign-ups must be a whole number")
	} else {
		var window time.Duration
		if run.Hash {
			run.HashTook, window = signUpWindow()
		}
		run.Result, err = teaching.Race(c.Request.Context(), h.Deps.Claims, window, run.Name, n)
	}
	if err != nil && c.Request.Context().Err() != nil {
		c.AbortWithStatus(web.StatusClientClosed) // the visitor left mid-race: nobody to tell
		return
	}
	if err != nil {
		msg := site.Sentence(models.InspectError(err))
		if models.StatusOf(err) >= http.StatusInternalServerError {
			h.Log.Error("uniqueness race", "err", err)
			msg = "The race could not run: the store failed. Try again."
		}
		h.Refuse(c, "race", msg, form)
		h.Site.Redirect(c, backTo(c, raceHome)+"#race-form", "your race")
		return
	}
	h.remember(c, func(s *labState) { s.Race = run })
	h.Site.Redirect(c, backTo(c, raceHome)+"#race-result", "your race")
}

// raceReading says what a read-then-write race of racers measured, from its count of winners.
func raceReading(racers, winners int) string {
	switch {
	case winners >= racers:
		return fmt.Sprintf(`This race: all %d racers read "free" before any of them wrote, and every one was told it won: the window was wide enough for all.`, racers)
	case winners == 1:
		return fmt.Sprintf(`This race: one racer of %d was welcomed. Every other read came after the first write and found the name taken: the reads and writes happened to run one after another, and the check and the write were still two steps.`, racers)
	default:
		return fmt.Sprintf(`This race: %d of %d racers read "free" before the first write landed, and were welcomed; the other %d read the name taken.`, winners, racers, racers-winners)
	}
}
