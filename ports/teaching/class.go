package teaching

import (
	"context"
	"strings"
	"time"
)

// Activity is what a learner last did and how much they used the consoles, as an instructor's
// roster shows it.
type Activity struct {
	// Last is the kind of the last action recorded ("lesson writes", "exercise writes-1",
	// "console cql"), empty for none; At is when.
	Last string
	At   time.Time
	// Statements is how many console statements the learner ran (actions whose kind starts
	// with ActionConsole).
	Statements int64
}

// ActionConsole starts the kind of an action that is a console statement ("console cli",
// "console cql"): Touch counts it in Activity.Statements.
const ActionConsole = "console"

// Bounds of what a ClassBook keeps, so that no amount of calls grows it past them.
const (
	// ClassMax is the most accounts a class holds.
	ClassMax = 500
	// ActionMax is the longest kind Touch keeps; a longer one is cut to it.
	ActionMax = 64
)

// ClassBook keeps an instructor's classes and what their learners do, in the store, so that
// several servers over one cluster show one roster: a class's accounts (its members), and each
// signed-in learner's last action and console statements, one record per learner.
//
// A learner is named as frame.LearnerID names one: "user:<name>" signed in, "browser:<id>"
// anonymous. Only signed-in learners are recorded (a class signs in with the accounts made for
// it): Touch of any other learner does nothing, so that anonymous browsers, which anyone can
// mint, never grow the store.
type ClassBook interface {
	// Enrol adds users to class; enrolling a member again changes nothing. A class past
	// ClassMax members is a domain.ErrInvalid, and nothing of the call is kept.
	Enrol(ctx context.Context, class string, users []string) error
	// Members are class's users in name order; a class nobody enrolled in has none.
	Members(ctx context.Context, class string) ([]string, error)
	// Touch records that learner did an action of kind now: the last action, and one more
	// statement when kind starts with ActionConsole.
	Touch(ctx context.Context, learner, kind string) error
	// Activity is what learner last did; a learner never touched has the zero Activity.
	Activity(ctx context.Context, learner string) (Activity, error)
	// ForgetActivity drops learner's activity: their Activity is the zero one after it.
	ForgetActivity(ctx context.Context, learner string) error
}

// Recorded reports whether a ClassBook keeps learner's activity: a signed-in learner's.
func Recorded(learner string) bool {
	name, ok := strings.CutPrefix(learner, "user:")
	return ok && name != ""
}

// ActionKind is kind as a ClassBook keeps it: at most ActionMax bytes, cut at a character.
func ActionKind(kind string) string {
	if len(kind) <= ActionMax {
		return kind
	}
	cut := ActionMax
	for cut > 0 && !utf8Start(kind[cut]) {
		cut--
	}
	return kind[:cut]
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// IsConsole reports whether an action of kind is a console statement.
func IsConsole(kind string) bool { return strings.HasPrefix(kind, ActionConsole) }
