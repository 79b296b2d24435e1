package labs

import (
	"runtime"

	"twissandra/web/teach/frame"
)

// DefaultGates are the bounds of the runs anyone may start, unless serve's flags say otherwise
// (frame.Gates). The totals and a learner's figures are what each run costs allows; a
// learner's are counted per learner (frame.LearnerID), and an address's (every learner behind
// it together, a minute) are set for a class of 200 behind one address each doing a lesson's
// runs in the same minute (lessons 2 and 3 make five writes of the lab each), which still
// bounds a client that makes a new session at every request.
//
//   - The race: one of 200 hashed sign-ups is a few hundred milliseconds of every core (on
//     cql3, 400 LWTs and 800 more statements): 2 at once on a server.
//   - The lab: each of its writes is a handful of calls on an in-memory node.
//   - The consistency lab's trials: a run of teaching.MaxTrials trials of each pair of levels
//     is about a second of a core, so runs take turns on all but one of the server's cores (one
//     at least), whoever starts them, and a core is always left to everyone else's requests.
//   - The tokens lesson's rings: placing a key on a simulated ring of up to
//     teaching.MaxSimNodes nodes and drawing it is a fraction of a millisecond, but a page
//     anyone may ask for as fast as they like.
//   - The celebrity lesson's sandbox: a run creates its author and followers (with a
//     precomputed password hash, no bcrypt), follows, posts and reads on an engine node of its
//     own, a few dozen milliseconds and a few MiB for the run's length.
//   - A lesson's run on a node (a key trial, a counter run, an index lookup, an address book
//     run): a few statements on the cluster, each gate its own.
func DefaultGates() frame.Gates {
	return frame.Gates{
		Race:    frame.GateLimits{Total: 2, PerLearner: 1, PerMinute: 10, PerAddress: 400},
		Lab:     frame.GateLimits{Total: 16, PerLearner: 2, PerMinute: 120, PerAddress: 3000},
		Trials:  frame.GateLimits{Total: max(1, runtime.GOMAXPROCS(0)-1), PerLearner: 1, PerMinute: 10, PerAddress: 400},
		Rings:   frame.GateLimits{Total: 8, PerLearner: 2, PerMinute: 60, PerAddress: 3000},
		Sandbox: frame.GateLimits{Total: 4, PerLearner: 1, PerMinute: 20, PerAddress: 400},
		Runs:    frame.GateLimits{Total: 4, PerLearner: 1, PerMinute: 10, PerAddress: 400},
	}
}

// RunGate is a gate of what ("key trial"), a lesson's run on a node, under the server's bounds
// of such runs (frame.Gates.Runs).
func (h *Handler) RunGate(what string) *frame.Gate {
	return frame.NewGate(what, h.Deps.Gates.Runs.Or(DefaultGates().Runs))
}
