package analytics

import (
	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// Routes are the routes of Chronicle's analytics families, /api/analytics/v2
// (docs/analytics.md): one series route per family, the daily active addresses, and
// every family of one milestone. Their answers move: the ledger fold and recounts write
// rows after the milestone.
func (s *API) Routes() []rest.Route {
	out := make([]rest.Route, 0, len(Families)+3)
	for _, spec := range Families {
		out = append(out, rest.WithParams(rest.Route{Pattern: FamiliesPrefix + "/" + spec.Name, Tag: "analytics",
			Summary: "Chronicle's " + spec.Name + " of the milestones in [startIndex, endIndex], newest first: " +
				spec.summary,
			Schema: FamilySchemaName(spec.Name) + "Points"}, s.familySeries(spec)))
	}
	return append(out,
		rest.WithParams(rest.Route{Pattern: FamiliesPrefix + "/" + DailyFamily + "/daily", Tag: "analytics",
			Summary: "Chronicle's active_addresses of the computed UTC dates in [from, to], newest first",
			Schema:  "ActiveAddressesDaily"}, s.activeAddressesDaily),
		rest.WithParams(rest.Route{Pattern: FamiliesPrefix + "/token-distribution", Tag: "analytics",
			Summary: "The token distribution (address_balance) at the end of each computed UTC date in [from, to], " +
				"newest first: a series of the ledger fold's figures at each date's last milestone",
			Schema: "TokenDistributionDaily"}, s.tokenDistribution),
		rest.WithParams(rest.Route{Pattern: FamiliesPrefix + "/milestones/{index}", Tag: "analytics",
			Summary: "Every analytics family of one milestone, named as inx-chronicle names them", CanMiss: true,
			Schema: "MilestoneFamilies"}, s.milestoneFamilies))
}
