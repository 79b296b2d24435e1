package cql3

import (
	"strings"
	"testing"
)

func TestSchemaTextHoldsEveryTableInOrder(t *testing.T) {
	s := SchemaText()
	last := -1
	for _, table := range []string{"users", "friends", "followers", "tweets", "userline", "timeline", "public_line", "authors", "blog_entries", "tagged_posts", "comments"} {
		i := strings.Index(s, "CREATE TABLE IF NOT EXISTS "+table+" ")
		if i < 0 {
			i = strings.Index(s, "CREATE TABLE IF NOT EXISTS "+table+"(")
		}
		if i < 0 {
			t.Fatalf("schema text lacks table %s", table)
		}
		if table == "authors" && i < last {
			t.Fatalf("blog migration printed before Twissandra's")
		}
		last = i
	}
}
