package method_test

import (
	"html"
	"net/url"
	"testing"

	"twissandra/internal/testkit/teachkit"
	"twissandra/internal/testkit/webkit"
	"twissandra/ports/teaching"
)

// The page: on the node the design is written in a text area, an injection is refused with a
// readable message, and a right design passes; on memory the key is chosen, and the page says
// the node grades the CQL.
func TestDesignExercisePage(t *testing.T) {
	st, _ := webkit.CQL3Stores(t)
	c := teachkit.NewApp(t, st).Client(t)
	body := html.UnescapeString(c.LessonPage("/learn/method"))
	webkit.MustContain(t, body, `id="ex-design-5"`, `<textarea name="answer" id="ex-design-5-answer"`, "the tweets with a hashtag, newest first", "CREATE TABLE t (")
	p, _ := teaching.LookupPattern("hashtag")
	model := teaching.DesignText(p, teaching.RulesKey(p))
	body = html.UnescapeString(c.Submit("/learn/exercises/design-5", url.Values{"answer": {model + "; DROP TABLE users"}}, "/learn/method#ex-design-5").Body)
	webkit.MustContain(t, body, `id="ex-design-5-error"`, "one CREATE TABLE and one SELECT, nothing after them")
	body = html.UnescapeString(c.Submit("/learn/exercises/design-5", url.Values{"answer": {model}}, "/learn/method#ex-design-5").Body)
	webkit.MustContain(t, body, `data-verdict="correct"`, "one-partition on 1 of 3 partitions, 6 rows", "What your answer cost")

	m := teachkit.NewApp(t, webkit.MemoryStores()).Client(t)
	body = html.UnescapeString(m.LessonPage("/learn/method"))
	webkit.MustContain(t, body, `id="ex-design-5"`, "partition: col, col; clustering:", "On a cql3 node this exercise takes the CREATE TABLE")
	body = html.UnescapeString(m.Submit("/learn/exercises/design-5", url.Values{"answer": {"partition: author; clustering: time"}}, "/learn/method#ex-design-5").Body)
	webkit.MustContain(t, body, `data-verdict="incorrect"`, `<code id="ex-design-5-model">partition: tag; clustering: time desc</code>`)
}

// In compare mode the node is the second model's: the design is written in CQL, graded there,
// and the footer says so.
func TestDesignExerciseInCompareMode(t *testing.T) {
	c := teachkit.NewApp(t, webkit.CompareStores(t)).Client(t)
	webkit.MustContain(t, c.LessonPage("/learn/method"), `<textarea name="answer" id="ex-design-6-answer"`)
	p, _ := teaching.LookupPattern("mentions")
	body := html.UnescapeString(c.Submit("/learn/exercises/design-6", url.Values{"answer": {teaching.DesignText(p, teaching.RulesKey(p))}}, "/learn/method#ex-design-6").Body)
	webkit.MustContain(t, body, `data-verdict="correct"`, "the design is graded on cql3, compare mode's second model")
}
