package frame

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"twissandra/domain"
	"twissandra/ports/teaching"
)

// Exercises: a lesson asks before it shows. Each exercise is declared by its lesson (its
// Exercises), with one grader that the page's form and the API (/api/v1/exercises/{id}/answers)
// both call: the grader does the thing on the running store (or the comparator lab's scratch
// store, or the simulated ring), derives the right answer from what the store did, and holds
// the learner's answer to it. No answer is written beside a question: change the lesson's data
// and the right answer changes with it. What the grading cost the store is recorded in the
// request's operation log, as every storage call is, and shown in the footer (the page) or in
// Storage-Ops (the API).

// ExerciseKind is what an exercise asks for.
type ExerciseKind string

// The kinds of exercise.
const (
	// Predict: what the store will do (a slice's names, a read's value, a count).
	Predict ExerciseKind = "predict"
	// Choose: one of the choices (a primary key, a comparator, yes or no).
	Choose ExerciseKind = "choose"
	// Design: a table for an access pattern.
	Design ExerciseKind = "design"
)

// An Exercise is one question of a lesson.
type Exercise struct {
	// ID is stable: "<lesson>-<n>", the address of its answers and the key of the progress.
	ID     string
	Kind   ExerciseKind
	Prompt string
	// Choices are the answers to choose from (Choose); nil for a free answer.
	Choices []string
	// Format says how to write a free answer ("names, comma-separated, in order").
	Format string
	// Reasoning says only reasoning grades the exercise (a "why"): the store shows the facts,
	// the learner's reasoning is theirs to check against the explanation.
	Reasoning bool
	// Gate bounds the gradings, for one that writes (the lab's scratch store) or runs a
	// simulation (a ring, trials): the gate of the lab's own forms that do the same; nil for a
	// grading that only reads.
	Gate *Gate
	// Grade does the thing on the store and grades answer, already trimmed and non-empty. An
	// answer it cannot read (not a number, not one of the choices) is a domain.ErrInvalid that
	// says what it expected.
	Grade func(ctx context.Context, answer string) (Grade, error)
	// Check is the request of the exercise's page that runs what its grading runs (the
	// sandbox, the lab's trials, a rehearsal), for a grading that does more than reading the
	// page does: a learner sends it to watch the same run on the page, and a grading costs no
	// more than it. Nil when reading the page is the fair comparison.
	Check *Check
}

// A Check is a request of a lesson's page that runs its live part: the page with a query
// (GET, the query in Path), or one of its forms (POST to Path, Form its fields, the CSRF token
// apart), which answers with the page showing the run.
type Check struct {
	Method string
	Path   string
	Form   url.Values
}

// Fields are a POST check's form fields, by name.
func (c *Check) Fields() [][2]string {
	names := make([]string, 0, len(c.Form))
	for k := range c.Form {
		names = append(names, k)
	}
	slices.Sort(names)
	out := make([][2]string, len(names))
	for i, k := range names {
		out[i] = [2]string{k, c.Form.Get(k)}
	}
	return out
}

// GetCheck is the check of a page read with a query.
func GetCheck(path string) *Check { return &Check{Method: http.MethodGet, Path: path} }

// PostCheck is the check of a page's form, its fields form.
func PostCheck(action string, form url.Values) *Check {
	return &Check{Method: http.MethodPost, Path: action, Form: form}
}

// Grade is a grader's verdict on one answer.
type Grade struct {
	Correct bool
	// Explanation says why the right answer is right, from what the store did.
	Explanation string
	// Model is the right answer, written as an answer: sent back, it is graded correct.
	Model string
}

// Verdict is "correct" or "incorrect".
func (g Grade) Verdict() string {
	if g.Correct {
		return "correct"
	}
	return "incorrect"
}

// MaxAnswer is the longest answer a grader reads, in bytes.
const MaxAnswer = 1000

// GradeAnswer checks answer's form (CheckAnswer) and grades it.
func (e Exercise) GradeAnswer(ctx context.Context, answer string) (Grade, error) {
	answer, err := e.CheckAnswer(answer)
	if err != nil {
		return Grade{}, err
	}
	return e.Grade(ctx, answer)
}

// CheckAnswer checks answer's form (non-empty, not too long, one of the choices) and returns it
// as Grade takes it: trimmed, a choice as the exercise spells it. It runs nothing, so that a
// malformed answer is refused before the exercise's gate counts a run.
func (e Exercise) CheckAnswer(answer string) (string, error) {
	answer = strings.TrimSpace(answer)
	switch {
	case answer == "":
		return "", domain.Invalid("answer", "is empty: %s", e.Expects())
	case len(answer) > MaxAnswer:
		return "", domain.Invalid("answer", "is longer than %d bytes", MaxAnswer)
	}
	if e.Choices != nil {
		i := slices.IndexFunc(e.Choices, func(c string) bool { return strings.EqualFold(c, answer) })
		if i < 0 {
			return "", domain.Invalid("answer", "%q is not one of the choices: %s", answer, e.Expects())
		}
		answer = e.Choices[i]
	}
	return answer, nil
}

// Expects says what an answer to e looks like.
func (e Exercise) Expects() string {
	if e.Choices != nil {
		return "one of " + strings.Join(quoteAll(e.Choices), ", ")
	}
	if e.Format != "" {
		return e.Format
	}
	return "an answer"
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// AnswerNames reads an answer that is a list of names: separated by commas (or, when it has no
// comma, by spaces), each trimmed; "none" or "-" is the empty list.
func AnswerNames(answer string) []string {
	a := strings.TrimSpace(answer)
	if strings.EqualFold(a, "none") || a == "-" || a == "" {
		return []string{}
	}
	var parts []string
	if strings.Contains(a, ",") {
		parts = strings.Split(a, ",")
	} else {
		parts = strings.Fields(a)
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// NamesAnswer writes names as AnswerNames reads them.
func NamesAnswer(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// AnswerInt reads an answer that is a whole number.
func AnswerInt(answer string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(answer))
	if err != nil {
		return 0, domain.Invalid("answer", "%q is not a whole number", answer)
	}
	return n, nil
}

// ScratchSession is a fresh lab session for one grading, apart from every learner's: the
// grader clears it when done.
func ScratchSession() string {
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return "exercise-" + base64.RawURLEncoding.EncodeToString(b)
}

// LessonExercise finds the exercise id among the lessons' exercises, with its lesson.
func LessonExercise(ls []Lesson, id string) (Lesson, Exercise, bool) {
	for _, l := range ls {
		for _, e := range l.Exercises {
			if e.ID == id {
				return l, e, true
			}
		}
	}
	return Lesson{}, Exercise{}, false
}

// SameNames says whether the names of answer are model's: in model's order when ordered, else
// in any order.
func SameNames(answer string, model []string, ordered bool) bool {
	got, want := AnswerNames(answer), slices.Clone(model)
	if !ordered {
		slices.Sort(got)
		slices.Sort(want)
	}
	return slices.Equal(got, want)
}

// LabNames are the names of a lab's row or slice, as the comparator reads them (the text of a
// name the lab quotes, a byte or string comparator's, unquoted).
func LabNames(ns []teaching.LabName) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = NameText(n.Name)
	}
	return out
}

// NameText is a column's name as the lab shows it, its quotes taken off: the text a learner
// writes.
func NameText(name string) string {
	if u, err := strconv.Unquote(name); err == nil && strings.HasPrefix(name, `"`) {
		return u
	}
	return name
}
