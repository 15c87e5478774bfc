package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Chronicle's analytics families (migration 000013, docs/analytics.md): one row per
// (family, milestone) and per (family, date).
var (
	InsertMilestoneFamily = def(milestoneFams, "milestone_families.insert",
		"record one family's figures of one milestone", milestoneFams.InsertBuilder())
	MilestoneFamilyRange = def(milestoneFams, "milestone_families.range",
		"list one family's figures of the milestones of [start, end] in one partition, newest first",
		milestoneFams.SelectBuilder("milestone_index", "milestone_timestamp", "figures", "detail").
			Where(qb.GtOrEq("milestone_index"), qb.LtOrEq("milestone_index")).LimitNamed("limit"))
	InsertDailyFamily = def(dailyFams, "daily_families.insert", "record one family's figures of one UTC date",
		dailyFams.InsertBuilder())
	DailyFamilyRange = def(dailyFams, "daily_families.range",
		"list one family's figures of the dates of [from, to] in one year, newest first",
		dailyFams.SelectBuilder("date", "figures").Where(qb.GtOrEq("date"), qb.LtOrEq("date")))
)
