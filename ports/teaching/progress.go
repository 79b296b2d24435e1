package teaching

import "context"

// Progress is what a learner has done in the course: the lessons visited (their slugs) and the
// exercises passed (their ids), each once, in the order first done.
type Progress struct {
	Visited []string
	Passed  []string
}

// ProgressStore keeps a signed-in learner's progress through the course in the store, so that it
// survives a restart and follows the learner from server to server (an anonymous learner's
// progress lives in the session instead). Recording what is recorded already changes nothing.
type ProgressStore interface {
	// RecordVisit notes that user opened lesson (a slug).
	RecordVisit(ctx context.Context, user, lesson string) error
	// RecordPass notes that user answered exercise (an id) correctly.
	RecordPass(ctx context.Context, user, exercise string) error
	// Progress returns what user has done; a user who did nothing has an empty Progress.
	Progress(ctx context.Context, user string) (Progress, error)
	// ForgetProgress drops what user has done (an instructor's reset of a class): their
	// Progress is empty after it, and recording starts again from nothing.
	ForgetProgress(ctx context.Context, user string) error
}
