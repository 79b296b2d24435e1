package engine

import "testing"

func TestSmoke(t *testing.T) {
	stores(t, func(t *testing.T, n *Node) {
		for _, c := range []string{"a", "b", "c", "d", "e"} {
			insert(t, n, "Twissandra", "Username", "k", nil, []byte(c), "v"+c, 1)
		}
		got := sliceNames(t, n, "Twissandra", "Username", "k", nil, SliceRange{Start: []byte("b"), Finish: []byte("d"), Count: 100})
		if !equalStrings(got, []string{"b", "c", "d"}) {
			t.Fatal(got)
		}
	})
}
