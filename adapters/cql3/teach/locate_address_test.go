package teach

import "testing"

// A record's address is valid CQL: text in quotes, a uuid or timeuuid bare, whichever of the key
// columns it names.
func TestAddressIsCQL(t *testing.T) {
	t.Parallel()
	tweets := InspectTable{Name: "tweets", PartitionKey: []InspectColumn{{Name: "tweet_id", Type: "timeuuid"}}}
	followers := InspectTable{Name: "followers", PartitionKey: []InspectColumn{{Name: "username", Type: "text"}},
		Clustering: []InspectColumn{{Name: "follower", Type: "text"}}}
	for _, tc := range []struct {
		t    InspectTable
		w    cqlWhere
		want string
	}{
		{tweets, cqlWhere{key: "7646ae42-8d1c-11de-8080-808080808080"}, "tweets WHERE tweet_id = 7646ae42-8d1c-11de-8080-808080808080"},
		{followers, cqlWhere{key: "bob", clustering: "o'neil"}, "followers WHERE username = 'bob' AND follower = 'o''neil'"},
		{timelineInfo, cqlWhere{key: "bob", clustering: "7646ae42-8d1c-11de-8080-808080808080"}, "timeline WHERE username = 'bob' AND time = 7646ae42-8d1c-11de-8080-808080808080"},
	} {
		if got := addressOf(tc.t, tc.w); got != tc.want {
			t.Errorf("%s, want %s", got, tc.want)
		}
	}
}
