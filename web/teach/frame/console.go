package frame

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gin-contrib/sessions"
	"github.com/gin-gonic/gin"

	"twissandra/domain"
	"twissandra/ports/oplog"
	"twissandra/ports/teaching"
)

// The consoles: a learner types statements in a language of the running backend (cli on
// widerow, cql on cql3, both in compare mode) and runs them in a sandbox of their own, named
// after them (LearnerID). The console page (/learn/console, package labs) and the box a lesson
// puts where typing helps (ConsoleBox) post to the same action, which runs the statements,
// keeps what they printed for the learner's pages (consoleMemory, here) and redirects back,
// whose footer then lists what the statements cost.

// ConsoleURL is the console page; ConsoleLangURL it with lang picked.
const ConsoleURL = "/learn/console"

// ConsoleLangURL is the console page with lang's console picked.
func ConsoleLangURL(lang string) string { return ConsoleURL + "?lang=" + lang }

// ConsoleOffer is a lesson's console: a language and the statements ready in it, one a line,
// for the learner to run and change. A test of the course runs every lesson's statements on the
// backend that offers the language.
type ConsoleOffer struct {
	Language   string
	Statements []string
}

// PresentConsoles are the consoles of m that are there: a nil pointer from an optional
// dependency is none.
func PresentConsoles(m map[string]teaching.Console) map[string]teaching.Console {
	out := make(map[string]teaching.Console, len(m))
	for lang, con := range m {
		if NoneIfNil(&con); con != nil {
			out[lang] = con
		}
	}
	return out
}

// ConsoleLanguages are the languages the running backend offers, in order.
func (h *Base) ConsoleLanguages() []string {
	langs := make([]string, 0, len(h.Deps.Consoles))
	for l, con := range h.Deps.Consoles {
		if con != nil {
			langs = append(langs, l)
		}
	}
	slices.Sort(langs)
	return langs
}

// LanguageName is how a page names a console's language.
func LanguageName(lang string) string {
	switch lang {
	case "cli":
		return "cassandra-cli (0.6)"
	case "cql":
		return "CQL"
	}
	return lang
}

// Duration says d in the largest whole unit that measures it: "1 hour", "30 minutes", else
// as Go writes it.
func Duration(d time.Duration) string {
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		n := int(d / time.Hour)
		return strconv.Itoa(n) + Plural(n, " hour", " hours")
	case d >= time.Minute && d%time.Minute == 0:
		n := int(d / time.Minute)
		return strconv.Itoa(n) + Plural(n, " minute", " minutes")
	}
	return d.String()
}

// ConsoleModel is the model a language's console runs on: widerow's for cli, cql3's for cql.
func ConsoleModel(lang string) string {
	if lang == "cql" {
		return "cql3"
	}
	return "widerow"
}

// ConsoleContext is ctx for a statement of lang: in compare mode, a console of the second
// model records its operations on the second model's side of the log, as that model's calls.
func (h *Base) ConsoleContext(ctx context.Context, lang string) context.Context {
	model := ConsoleModel(lang)
	if h.Deps.Backend == model || h.Deps.CompareBackend != model {
		return ctx
	}
	l := oplog.LogFrom(ctx)
	if l == nil {
		return ctx
	}
	return oplog.With(ctx, l.Shadow(model))
}

// ConsoleStep is one statement a learner ran, and what the console printed or why it refused.
type ConsoleStep struct {
	Statement string
	Output    string
	Sent      []string
	// Refused is the console's message when it refused the statement (or its store did);
	// Store says the store refused it.
	Refused string
	Store   bool
}

// ConsoleEntry is one run of a learner's statements: what they typed, from which page, and
// each statement's step, up to the first refused.
type ConsoleEntry struct {
	Language string
	Input    string
	From     string // the page's path, where its result is shown
	At       time.Time
	Steps    []ConsoleStep
	// Bound is the message of a bound the run reached (a *domain.RetryError's): the
	// statements after it did not run.
	Bound string
}

// The console memory's bounds: the entries kept for one learner, the learners kept (the
// oldest forgotten first), how long an idle learner's are kept, the statements one run takes,
// and the output kept of one statement.
const (
	consoleEntriesKept   = 10
	consoleLearnersKept  = 2048
	consoleMemoryTTL     = 2 * time.Hour
	ConsoleRunStatements = 20
	consoleOutputKept    = 16 << 10
)

// consoleMemory is each learner's recent console runs, in this process: a bounded map, the
// learner idle longest going first.
type consoleMemory struct {
	mu    sync.Mutex
	m     map[string][]ConsoleEntry // newest last
	order []string                  // learners, least recently used first
}

func (m *consoleMemory) add(learner string, e ConsoleEntry) ConsoleEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.addLocked(learner, e)
}

// addOnce adds e unless learner's runs hold it already (this server ran it).
func (m *consoleMemory) addOnce(learner string, e ConsoleEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if slices.ContainsFunc(m.m[learner], func(x ConsoleEntry) bool { return x.At.Equal(e.At) && x.Input == e.Input }) {
		return
	}
	m.addLocked(learner, e)
}

func (m *consoleMemory) addLocked(learner string, e ConsoleEntry) ConsoleEntry {
	if m.m == nil {
		m.m = map[string][]ConsoleEntry{}
	}
	if _, ok := m.m[learner]; ok {
		m.order = slices.DeleteFunc(m.order, func(k string) bool { return k == learner })
	}
	for len(m.order) >= consoleLearnersKept {
		delete(m.m, m.order[0])
		m.order = m.order[1:]
	}
	for i := range e.Steps {
		if o := e.Steps[i].Output; len(o) > consoleOutputKept {
			e.Steps[i].Output = strings.ToValidUTF8(o[:consoleOutputKept], "") + "\n… (cut: this page keeps 16 KiB of a statement's output)"
		}
	}
	es := append(m.m[learner], e)
	if len(es) > consoleEntriesKept {
		es = slices.Clone(es[len(es)-consoleEntriesKept:])
	}
	m.m[learner] = es
	m.order = append(m.order, learner)
	return e
}

// entries are learner's runs, newest first.
func (m *consoleMemory) entries(learner string) []ConsoleEntry {
	m.mu.Lock()
	defer m.mu.Unlock()
	es := m.m[learner]
	if len(es) == 0 || time.Since(es[len(es)-1].At) > consoleMemoryTTL {
		return nil
	}
	out := slices.Clone(es)
	slices.Reverse(out)
	return out
}

// ConsoleHistory is the learner of c's recent runs, newest first (none for a browser without
// a session).
func (h *Base) ConsoleHistory(c *gin.Context) []ConsoleEntry {
	learner := LearnerID(c, false)
	if learner == "" {
		return nil
	}
	h.takeConsoleRun(c, learner)
	return h.consoles.entries(learner)
}

// SplitStatements splits what a learner typed into the statements a console runs one by one:
// on cli a line each, as cassandra-cli reads them; on cql a statement may run over several lines
// and ends at a line that ends with ';' (as cqlsh reads them), the last one at the end. Empty
// lines and comments (lines starting "--" or "//" or "#") are skipped.
func SplitStatements(lang, text string) []string {
	var out []string
	var cur []string
	flush := func() {
		if s := strings.TrimSpace(strings.Join(cur, "\n")); s != "" {
			out = append(out, s)
		}
		cur = nil
	}
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "--") || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
			continue
		}
		cur = append(cur, t)
		if lang != "cql" || strings.HasSuffix(t, ";") {
			flush()
		}
	}
	flush()
	return out
}

// errTooManyStatements refuses a run of more than ConsoleRunStatements statements.
var errTooManyStatements = domain.Invalid("", "at most %d statements run at once: send the rest after", ConsoleRunStatements)

// RunConsole runs the statements of text in lang's console for the learner of c, one by one
// up to the first refused, and keeps the run for the learner's pages, shown on the page at
// from. A refusal is the entry's, not an error; err is a bound the learner reached (a
// *domain.RetryError, the statements before it kept), a language this backend does not offer,
// or a failure of the store.
func (h *Base) RunConsole(c *gin.Context, lang, text, from string) (ConsoleEntry, error) {
	e := ConsoleEntry{Language: lang, Input: text, From: from, At: time.Now()}
	con := h.Deps.Consoles[lang]
	if con == nil {
		return e, domain.Invalid("language", "this server has no %s console", LanguageName(lang))
	}
	stmts := SplitStatements(lang, text)
	if len(stmts) == 0 {
		return e, domain.Invalid("", "type a statement to run")
	}
	if len(stmts) > ConsoleRunStatements {
		return e, errTooManyStatements
	}
	learner := LearnerID(c, true)
	ctx := h.ConsoleContext(c.Request.Context(), lang)
	var err error
	for _, s := range stmts {
		var r teaching.ConsoleResult
		r, err = con.Run(ctx, learner, s)
		var refusal *teaching.ConsoleRefusal
		var retry *domain.RetryError
		switch {
		case errors.As(err, &refusal):
			e.Steps = append(e.Steps, ConsoleStep{Statement: s, Refused: refusal.Message, Store: refusal.Store})
			err = nil
		case errors.Is(err, teaching.ErrNoConsole):
			e.Steps = append(e.Steps, ConsoleStep{Statement: s, Refused: err.Error()})
			err = nil
		case errors.As(err, &retry):
			e.Bound = retry.Message
		case err == nil:
			e.Steps = append(e.Steps, ConsoleStep{Statement: s, Output: r.Output, Sent: r.Sent})
			continue
		}
		break
	}
	if len(e.Steps) > 0 || e.Bound != "" {
		e = h.consoles.add(learner, e)
		h.keepConsoleRun(c, e)
	}
	for range e.Steps {
		h.TouchConsole(c.Request.Context(), learner, lang)
	}
	return e, err
}

// keyConsoleRun is the session's key of the learner's last run in the action ledger.
const keyConsoleRun = "console_run"

// keepConsoleRun keeps the run for the page after its redirect in the action ledger as well,
// which on cql3 is in the store: behind a load balancer that page may be another server's,
// whose memory has not seen the run. The session carries the key, taken by that page.
func (h *Base) keepConsoleRun(c *gin.Context, e ConsoleEntry) {
	record, err := json.Marshal(e)
	if err != nil {
		h.Log.Error("encode a console run", "err", err)
		return
	}
	var b [12]byte
	_, _ = rand.Read(b[:])
	key := "console-" + hex.EncodeToString(b[:])
	if err := h.Actions.KeepAction(ledgerContext(c), key, record, actionOpsTTL); err != nil {
		h.Log.Warn("keep a console run", "err", err) // another server's page after it shows none
		return
	}
	sessions.Default(c).Set(keyConsoleRun, key)
}

// takeConsoleRun adds to this server's memory the run the session's key names, kept by the
// server that ran it, once.
func (h *Base) takeConsoleRun(c *gin.Context, learner string) {
	s := sessions.Default(c)
	key, _ := s.Get(keyConsoleRun).(string)
	if key == "" {
		return
	}
	s.Delete(keyConsoleRun)
	record, found, err := h.Actions.ActionRecord(ledgerContext(c), key)
	if err != nil {
		h.Log.Warn("read a console run", "err", err)
		return
	}
	var e ConsoleEntry
	if found && json.Unmarshal(record, &e) == nil {
		h.consoles.addOnce(learner, e)
	}
}

// ConsoleBoxData is what a lesson's console box shows: the offer, whether the backend has the
// language, and the learner's last run from this page.
type ConsoleBoxData struct {
	Offer   ConsoleOffer
	Backend string
	Has     bool
	Page    string // the lesson's path, where the run comes back
	Last    *ConsoleEntry
	// Input is what the textarea holds: the last run's text from this page, else the offer's.
	Input string
}

// ConsoleBox is the box of a lesson's console for the request c.
func (h *Base) ConsoleBox(c *gin.Context, offer ConsoleOffer) ConsoleBoxData {
	d := ConsoleBoxData{Offer: offer, Backend: h.Deps.Backend, Has: h.Deps.Consoles[offer.Language] != nil, Page: c.Request.URL.Path,
		Input: strings.Join(offer.Statements, "\n")}
	for _, e := range h.ConsoleHistory(c) {
		if e.From == d.Page && e.Language == offer.Language {
			d.Last = &e
			d.Input = e.Input
			break
		}
	}
	return d
}

// BoxID is the id of the box on its page, which a run comes back to.
func (d ConsoleBoxData) BoxID() string { return "console-" + d.Offer.Language }

// TouchConsole records a statement of learner's in lang as their last action, for the
// instructor's roster (a signed-in learner's only: teaching.ClassBook). The statement has run:
// a roster that cannot be written is logged, and the learner's run stands.
func (h *Base) TouchConsole(ctx context.Context, learner, lang string) {
	if h.Deps.Classes == nil {
		return
	}
	if err := h.Deps.Classes.Touch(ctx, learner, teaching.ActionConsole+" "+lang); err != nil {
		h.Log.Warn("the roster: a console statement not recorded", "learner", learner, "err", err)
	}
}
