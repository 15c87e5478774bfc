package api

// familyRoutes are the routes of Chronicle's analytics families, /api/analytics/v2
// (docs/analytics.md): one series route per family, the daily active addresses, and
// every family of one milestone. Their answers move: the ledger fold and recounts write
// rows after the milestone.
func (s *analyticsAPI) familyRoutes() []route {
	out := make([]route, 0, len(families)+2)
	for _, spec := range families {
		out = append(out, withParams(route{pattern: familiesPrefix + "/" + spec.Name, tag: "analytics",
			summary: "Chronicle's " + spec.Name + " of the milestones in [startIndex, endIndex], newest first: " +
				spec.summary,
			schema: familySchemaName(spec.Name) + "Points"}, s.familySeries(spec)))
	}
	return append(out,
		withParams(route{pattern: familiesPrefix + "/" + dailyFamily + "/daily", tag: "analytics",
			summary: "Chronicle's active_addresses of the computed UTC dates in [from, to], newest first",
			schema:  "ActiveAddressesDaily"}, s.activeAddressesDaily),
		withParams(route{pattern: familiesPrefix + "/milestones/{index}", tag: "analytics",
			summary: "Every analytics family of one milestone, named as inx-chronicle names them", canMiss: true,
			schema: "MilestoneFamilies"}, s.milestoneFamilies))
}
