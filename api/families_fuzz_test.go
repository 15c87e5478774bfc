package api

import (
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// FuzzFamilyParams: any path value and query against any /api/analytics/v2 route over a
// chain ingested with the analytics rows: no 5xx, and every 400 names a parameter.
func FuzzFamilyParams(f *testing.F) {
	e := newEnvWith(f, sim.Options{Seed: 3, MessagesPerMilestone: 6, AddressPool: 10, TagPool: 3}, fuzzEnvMilestones, true)
	routes := fuzzRoutes(e, analytics.FamiliesPrefix)
	for i := range routes {
		f.Add(uint8(i), "4", "pageSize=2&startIndex=1&endIndex=6")
		f.Add(uint8(i), "0", "startIndex=4294967295&cursor=4294967295")
		f.Add(uint8(i), "4294967295", "endIndex=4294967295&cursor=1&pageSize=1000")
		f.Add(uint8(i), "-1", "cursor=AQ&startIndex=x")
		f.Add(uint8(i), "4294967296", "pageSize=1001&endIndex=-3")
		f.Add(uint8(i), "x", "from=2022-10-01&to=2022-09-30")
		f.Add(uint8(i), "", "from=1900-01-01&to=9999-12-31&from=2022-01-01")
		f.Add(uint8(i), "2", "%zz&page_size=1")
	}
	f.Fuzz(func(t *testing.T, which uint8, pathValue, rawQuery string) {
		rt := routes[int(which)%len(routes)]
		fuzzRequest(t, e, rt, strings.TrimSuffix(fuzzPath(rt, pathValue)+"?"+rawQuery, "?"), "")
	})
}
