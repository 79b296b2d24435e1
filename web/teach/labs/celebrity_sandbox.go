package labs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/gin-gonic/gin"
	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"twissandra/domain"
	"twissandra/domain/social"
	"twissandra/ports"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
	"twissandra/web/site"
	"twissandra/web/teach/frame"
)

// The celebrity lesson's sandbox: the learner picks a pull threshold and an author's number of
// followers; a scratch store of the 0.6 model (Deps.Sandbox, an engine node in memory of the
// run's own) gets the author and the followers through the use cases, then the author posts and
// the first follower reads their home page, each measured with a log of its own: what the post
// wrote, whether the page merged the author's userline, and what each cost. The run is the
// product's code (social.Service, the threshold its setting) on a store that is dropped at the
// end of the run.

// The sandbox's sizes (its gate's bounds are DefaultGates').
const (
	SandboxMaxThreshold = 20
	SandboxMaxFollowers = 20
)

// The sandbox's author, the prefix of its followers' names, and the post.
const (
	sandboxAuthor = "star"
	sandboxFan    = "fan"
	sandboxPost   = "a post from the sandbox"
)

// SandboxData is the sandbox's form, what it refused, and its run.
type SandboxData struct {
	Available bool
	// Threshold and Followers are as the learner typed them (the defaults before any run).
	Threshold, Followers       string
	MaxThreshold, MaxFollowers int
	ServerThreshold            int64  // the running server's own threshold
	Backend                    string // the running server's backend
	Bounds                     string
	Error                      string
	Run                        *SandboxRun
}

// SandboxRun is one run of the sandbox.
type SandboxRun struct {
	Threshold, Followers int
	Author, Reader       string
	Fanout               social.Fanout // the author's, as the post found it
	Post, Read           SandboxStep
	// Timelines are the followers' timelines the post wrote, Untouched those it did not.
	Timelines, Untouched []string
	// Rows are the rows that hold the post afterwards, read back from the scratch node in the
	// seeds' notation: the Userline rows, then the Timeline rows.
	Userlines, TimelineRows []frame.NotationLine
	// LineRows counts those rows: the Userline and Timeline rows that hold the post.
	LineRows int
	// Merged: the reader's page merged the pulled author's userline (Stats says what it read).
	Merged  bool
	Stats   social.MergeStats
	Entries int // the entries of the reader's page
}

// SandboxStep is what one measured action of a run cost: the footer's headline (storage calls,
// and the notes apart) and its operations.
type SandboxStep struct {
	Headline string
	Calls    int // storage calls, notes not counted (as Headline counts them)
	Ops      []oplog.Op
}

// CallNames are the step's storage calls in order, each with its column family, its notes
// apart (as Calls counts them).
func (st SandboxStep) CallNames() []string {
	var out []string
	for _, op := range st.Ops {
		if op.Kind != oplog.Note && op.Kind != oplog.Divergence {
			out = append(out, op.Call+" "+op.Family)
		}
	}
	return out
}

// stepOf is the measured step of log.
func stepOf(log *oplog.Log) SandboxStep {
	ops, _ := log.Ops()
	st := SandboxStep{Headline: log.Headline(), Ops: ops}
	for _, op := range ops {
		if op.Kind != oplog.Note && op.Kind != oplog.Divergence {
			st.Calls++
		}
	}
	return st
}

// sandboxNumber reads a number of the form between 1 and most, or says what is wrong with it.
func sandboxNumber(field, what, typed string, most int, zero string) (int, error) {
	s := strings.TrimSpace(typed)
	n, err := strconv.Atoi(s)
	switch {
	case s == "":
		return 0, domain.Invalid(field, "%s", fmt.Sprintf("give the %s: a whole number from 1 to %d", what, most))
	case err != nil && strings.Trim(s, "0123456789") == "" && len(s) > 0:
		return 0, domain.Invalid(field, "%s", fmt.Sprintf("the %s %s is far too large: a sandbox takes 1 to %d", what, s, most))
	case err != nil:
		return 0, domain.Invalid(field, "%s", fmt.Sprintf("the %s must be a whole number from 1 to %d, and %q is not one", what, most, s))
	case n == 0:
		return 0, domain.Invalid(field, "%s", zero)
	case n < 0:
		return 0, domain.Invalid(field, "%s", fmt.Sprintf("the %s cannot be negative: pick 1 to %d", what, most))
	case n > most:
		return 0, domain.Invalid(field, "%s", fmt.Sprintf("the %s %d is more than a sandbox takes: pick 1 to %d", what, n, most))
	}
	return n, nil
}

// SandboxData is the sandbox of the page c asks for: its form, and its run when the query
// names a threshold or a number of followers (threshold=, followers=). The run's measured
// operations also go into the request's log, which the page's footer lists. A refused value
// is a message of the data; a run the sandbox's gate refuses is a *domain.RetryError.
func (h *Handler) SandboxData(c *gin.Context) (SandboxData, error) {
	d := SandboxData{Available: h.Deps.Sandbox != nil, Threshold: "5", Followers: "3", MaxThreshold: SandboxMaxThreshold,
		MaxFollowers: SandboxMaxFollowers, ServerThreshold: h.Deps.Social.PullThreshold(), Backend: h.Deps.Backend, Bounds: h.SandboxGate.Bounds()}
	t, tok := c.GetQuery("threshold")
	f, fok := c.GetQuery("followers")
	if !d.Available || (!tok && !fok) {
		return d, nil
	}
	d.Threshold, d.Followers = t, f
	threshold, err := sandboxNumber("threshold", "threshold", t, SandboxMaxThreshold,
		"a threshold of 0 pulls nobody: every post is pushed to every follower, as the seeds do, and there would be nothing to watch; pick 1 to "+strconv.Itoa(SandboxMaxThreshold))
	var followers int
	if err == nil {
		followers, err = sandboxNumber("followers", "number of followers", f, SandboxMaxFollowers,
			"the author needs a follower at least, whose home page the sandbox reads: pick 1 to "+strconv.Itoa(SandboxMaxFollowers))
	}
	if err != nil {
		var inv *domain.ValidationError
		if errors.As(err, &inv) {
			d.Error = site.Sentence(inv.Message)
		} else {
			d.Error = site.Sentence(err.Error())
		}
		return d, nil
	}
	leave, err := h.EnterFor(c, h.SandboxGate)
	if err != nil {
		return d, err
	}
	defer leave()
	run, err := RunSandbox(c.Request.Context(), h.Deps.Sandbox, threshold, followers)
	if err != nil {
		return d, err
	}
	d.Run = run
	return d, nil
}

// SandboxParts are what a run does after the post: the reader's home page (SandboxRead), the
// rows that hold the post read back (SandboxRows). The page's run does both; an exercise's
// grader the one its question asks about.
type SandboxParts int

const (
	SandboxRead SandboxParts = 1 << iota
	SandboxRows
	SandboxAll = SandboxRead | SandboxRows
)

// RunSandbox runs the sandbox on a scratch store open opens (Deps.Sandbox), threshold and
// followers each from 1 to its maximum, the whole of it (SandboxAll): the page's runs.
func RunSandbox(ctx context.Context, open func() (frame.Scratch, error), threshold, followers int) (*SandboxRun, error) {
	return RunSandboxParts(ctx, open, threshold, followers, SandboxAll)
}

// RunSandboxParts is RunSandbox doing, after the post, only parts: the exercises' graders,
// which hold the sandbox's gate as the page does. The run's measured operations also go into
// ctx's log.
func RunSandboxParts(ctx context.Context, open func() (frame.Scratch, error), threshold, followers int, parts SandboxParts) (*SandboxRun, error) {
	if open == nil {
		return nil, fmt.Errorf("no sandbox on this server: %w", domain.ErrUnavailable)
	}
	if threshold < 1 || threshold > SandboxMaxThreshold || followers < 1 || followers > SandboxMaxFollowers {
		return nil, domain.Invalid("", "a sandbox takes a threshold from 1 to %d and 1 to %d followers", SandboxMaxThreshold, SandboxMaxFollowers)
	}
	sc, err := open()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	defer func() { _ = sc.Close() }()
	svc := social.New(sc.Users, sc.Tweets, sc.Lines, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	if err := svc.SetPullThreshold(int64(threshold)); err != nil {
		return nil, err
	}
	run := &SandboxRun{Threshold: threshold, Followers: followers, Author: sandboxAuthor, Reader: sandboxFan + "1"}
	// The setting up is not measured: no recorder.
	quiet := oplog.With(ctx, nil)
	fans := make([]string, followers)
	for i := range fans {
		fans[i] = sandboxFan + strconv.Itoa(i+1)
	}
	if err := sandboxUsers(quiet, sc.Users, append([]string{sandboxAuthor}, fans...)...); err != nil {
		return nil, err
	}
	for _, fan := range fans {
		if err := svc.Follow(quiet, fan, sandboxAuthor); err != nil {
			return nil, fmt.Errorf("sandbox follow: %w", err)
		}
	}
	if run.Fanout, err = svc.FanoutOf(quiet, sandboxAuthor); err != nil {
		return nil, err
	}
	// The post, then the first follower's home page, each measured apart; both also go into
	// the request's log, for the page's footer.
	postLog := oplog.NewLog(false)
	tw, err := svc.Post(oplog.With(ctx, postLog), sandboxAuthor, sandboxPost)
	if err != nil {
		return nil, fmt.Errorf("sandbox post: %w", err)
	}
	run.Post = stepOf(postLog)
	if parts&SandboxRead != 0 {
		readLog := oplog.NewLog(false)
		page, err := svc.Timeline(oplog.With(ctx, readLog), run.Reader, "", domain.DefaultPageSize, social.WithMergeStats(&run.Stats))
		if err != nil {
			return nil, fmt.Errorf("sandbox home page: %w", err)
		}
		run.Read = stepOf(readLog)
		run.Merged, run.Entries = run.Stats.Lines > 0, len(page.Tweets)
	}
	for _, step := range []SandboxStep{run.Post, run.Read} {
		for _, op := range step.Ops {
			oplog.Record(ctx, op)
		}
	}
	// What the post left in the scratch node's rows, read back in the seeds' notation.
	if parts&SandboxRows != 0 {
		if err := run.readRows(quiet, sc.Rows, tw, fans); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// readRows reads back the Userline rows of the author and of the public line, and the Timeline
// rows of the author and of every follower, keeping those that hold tw.
func (run *SandboxRun) readRows(ctx context.Context, rows teaching.WideRowInspector, tw domain.Tweet, fans []string) error {
	key := map[string]string{}
	for _, u := range append([]string{run.Author}, fans...) {
		k, err := rows.UserRowKey(ctx, u)
		if err != nil {
			return fmt.Errorf("sandbox row key of %s: %w", u, err)
		}
		key[u] = k
	}
	holds := func(cf, k string) ([]teaching.WideColumn, error) {
		cols, err := rows.ReadRow(ctx, "Twissandra", cf, k, teaching.Slice{Reversed: true, Count: 10})
		if err != nil {
			return nil, fmt.Errorf("sandbox read of %s[%s]: %w", cf, k, err)
		}
		for _, col := range cols {
			if col.Value == tw.ID.String() || strings.Trim(col.Value, `"'`) == tw.ID.String() {
				return []teaching.WideColumn{col}, nil
			}
		}
		return nil, nil
	}
	type row struct{ key, whose string }
	block := func(cf string, want []row, written func(whose string, ok bool)) ([]frame.NotationLine, error) {
		lines := []frame.NotationLine{{Name: cf + " =", Open: true}}
		for _, r := range want {
			cols, err := holds(cf, r.key)
			if err != nil {
				return nil, err
			}
			if written != nil {
				written(r.whose, cols != nil)
			}
			if cols == nil {
				continue
			}
			run.LineRows++
			nl := frame.Notation(cf, r.key, cols)
			nl = nl[1 : len(nl)-1] // the row alone, inside this block's braces
			nl[0].Note = r.whose
			for i := range nl {
				nl[i].NameHref, nl[i].ValueHref = "", "" // the scratch node's, gone after the run
			}
			lines = append(lines, nl...)
		}
		return append(lines, frame.NotationLine{Close: true}), nil
	}
	// Every Userline row of the scratch node: the author's, and the public line's (the only
	// other line a post of this node's one author writes there), whatever the store keys it by.
	ukeys, err := rows.RowKeys(ctx, "Twissandra", "Userline", 10)
	if err != nil {
		return fmt.Errorf("sandbox Userline rows: %w", err)
	}
	var urows []row
	for _, k := range ukeys {
		whose := "the public line"
		if k == key[run.Author] {
			whose = run.Author + "'s userline"
		}
		urows = append(urows, row{k, whose})
	}
	if run.Userlines, err = block("Userline", urows, nil); err != nil {
		return err
	}
	want := []row{{key[run.Author], run.Author + "'s timeline"}}
	for _, f := range fans {
		want = append(want, row{key[f], f + "'s timeline"})
	}
	run.TimelineRows, err = block("Timeline", want, func(whose string, ok bool) {
		fan, isFan := strings.CutSuffix(whose, "'s timeline")
		if !isFan || fan == run.Author {
			return
		}
		if ok {
			run.Timelines = append(run.Timelines, fan)
		} else {
			run.Untouched = append(run.Untouched, fan)
		}
	})
	return err
}

// Why is why the author was pushed or pulled, as the use case says it (social.Fanout.String),
// after the mode the page shows before it.
func (run *SandboxRun) Why() string {
	return strings.TrimPrefix(run.Fanout.String(), run.Fanout.Mode()+": ")
}

// Cross is the run that crosses the threshold the other way: one follower more than the
// threshold when this run pushed, exactly the threshold when it pulled, and what that run will
// show; none when it would take more followers than a sandbox has.
func (run *SandboxRun) Cross() (href templ.SafeURL, label string) {
	followers, label := run.Threshold+1, "one follower more than the threshold: watch the post stop fanning out and the page start merging"
	if run.Fanout.Pull {
		followers, label = run.Threshold, "as many followers as the threshold, not more: watch the post fan out again and the page read the timeline row alone, merging nothing"
	}
	if followers > SandboxMaxFollowers {
		return "", ""
	}
	return templ.SafeURL(fmt.Sprintf("/learn/celebrity?threshold=%d&followers=%d#sandbox", run.Threshold, followers)), label
}

// sandboxHash is the bcrypt hash (cost 4) of "sandbox password", the one password of every
// sandbox user, computed once and written here: nobody ever logs in to a sandbox, which is
// dropped at the end of its run, so hashing the password anew for each of its users (about a
// millisecond and a half each, most of a run) would buy nothing. The product's sign-up
// (social.Service.SignUp) still hashes every password it is given; only the sandbox skips it.
const sandboxHash = "$2a$04$qR70X4NHWyvnnnEjLtllIuSgwtRRpQ2ZvEU9ttD6HuW80rVPxUNY2"

// sandboxUsers creates the sandbox's users in its scratch store through the user store, each
// with the precomputed hash (sandboxHash): the sandbox is new and empty, so no name is taken.
func sandboxUsers(ctx context.Context, users ports.UserStore, names ...string) error {
	for _, name := range names {
		if err := domain.ValidateUsername(name); err != nil {
			return err
		}
		u := domain.User{ID: uuid.New(), Username: name, PasswordHash: []byte(sandboxHash), CreatedAt: time.Now().UTC().Truncate(1000)}
		if err := users.CreateUser(ctx, u); err != nil {
			return fmt.Errorf("sandbox user %s: %w", name, err)
		}
	}
	return nil
}

// SandboxMaxPosts bounds the posts of a follow's run.
const SandboxMaxPosts = 20

// RunFollow measures a follow on a scratch store open opens (Deps.Sandbox): the sandbox's
// author posts posts times (0 to SandboxMaxPosts), then a new user follows them, measured with
// a log of its own, whose operations also go into ctx's log. The caller holds the sandbox's
// gate.
func RunFollow(ctx context.Context, open func() (frame.Scratch, error), posts int) (SandboxStep, error) {
	if open == nil {
		return SandboxStep{}, fmt.Errorf("no sandbox on this server: %w", domain.ErrUnavailable)
	}
	if posts < 0 || posts > SandboxMaxPosts {
		return SandboxStep{}, domain.Invalid("", "a sandbox's author posts 0 to %d times", SandboxMaxPosts)
	}
	sc, err := open()
	if err != nil {
		return SandboxStep{}, fmt.Errorf("sandbox: %w", err)
	}
	defer func() { _ = sc.Close() }()
	svc := social.New(sc.Users, sc.Tweets, sc.Lines, nil, domain.NewPasswordHasher(bcrypt.MinCost))
	quiet := oplog.With(ctx, nil)
	reader := sandboxFan + "1"
	if err := sandboxUsers(quiet, sc.Users, sandboxAuthor, reader); err != nil {
		return SandboxStep{}, err
	}
	for range posts {
		if _, err := svc.Post(quiet, sandboxAuthor, sandboxPost); err != nil {
			return SandboxStep{}, fmt.Errorf("sandbox post: %w", err)
		}
	}
	log := oplog.NewLog(false)
	if err := svc.Follow(oplog.With(ctx, log), reader, sandboxAuthor); err != nil {
		return SandboxStep{}, fmt.Errorf("sandbox follow: %w", err)
	}
	step := stepOf(log)
	for _, op := range step.Ops {
		oplog.Record(ctx, op)
	}
	return step, nil
}
