package course_test

import (
	"strconv"
	"strings"
	"testing"

	"twissandra/ports/teaching"
)

// wrongDesign is a well-formed, wrong design for the method lesson's exercise id (design-N: the
// N-th design pattern): on a node the pattern's own table with a query that names no partition
// (a scan, on the table the model answer uses too); elsewhere a key on the wrong column.
func wrongDesign(t testing.TB, id string, onNode bool) string {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimPrefix(id, "design-"))
	ps := teaching.DesignPatterns()
	if err != nil || n < 1 || n > len(ps) {
		t.Fatalf("%s: not a design exercise", id)
	}
	p := ps[n-1]
	if onNode {
		text, _, _ := strings.Cut(teaching.DesignText(p, p.Answer()), " WHERE ")
		return text
	}
	k := teaching.KeyChoice{Pattern: p.ID, Partition: []string{p.Columns[len(p.Columns)-1].Name}}
	return k.ChoiceText()
}
