package teach

import (
	"testing"

	"twissandra/adapters/cql3"
	"twissandra/adapters/widerow"
	"twissandra/adapters/widerow/engine"
	"twissandra/internal/testkit/webkit"
	"twissandra/web"
	"twissandra/web/pages"
	"twissandra/web/site"
)

// newApp serves the pages, the teaching views (and the JSON API) on st.
func newApp(t testing.TB, st webkit.Stores) *webkit.App {
	t.Helper()
	return webkit.NewApp(t, st, web.Config{}, registerPages, registerTeach)
}

func registerPages(_ testing.TB, s *site.Site, sv webkit.Services) error {
	return pages.Register(s, pages.Deps{Social: sv.Social, Blog: sv.Blog, Access: sv.Access})
}

// registerTeach adds the teaching views on st's readers, with a comparator lab of the test's own
// unless st.NoLab.
func registerTeach(t testing.TB, s *site.Site, sv webkit.Services) error {
	st := sv.Stores
	var lab *widerow.Lab
	if !st.NoLab {
		lab = webkit.Lab(t)
	}
	return Register(s, Deps{Social: sv.Social, Blog: sv.Blog, Backend: st.Backend, Wide: st.Wide, CQL: st.CQL, Locator: st.Locator,
		StorageConf: engine.DefaultSchemaXML, Lab: lab, Consistency: lab, ClusterLevels: st.Levels, Claims: st.Claims, Sizes: st.Sizes,
		CompareSizes: st.CompareSizes, CompareBackend: st.CompareBackend, QueryFirstDDL: cql3.SchemaText(), QueryLab: st.QueryLab, Ring: st.Ring, CompareRing: st.CompareRing})
}
