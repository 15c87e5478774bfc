package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Chronicle's analytics families (migration 000013, docs/analytics.md): one row per
// (family, milestone) and per (family, date).
var (
	InsertMilestoneFamily = define(milestoneFams, Statement{Name: "milestone_families.insert", InUse: true,
		Pattern: "record one family's figures of one milestone"},
		milestoneFams.InsertBuilder())
	MilestoneFamilyRange = define(milestoneFams, Statement{Name: "milestone_families.range", InUse: true,
		Pattern: "list one family's figures of the milestones of [start, end] in one partition, newest first"},
		milestoneFams.SelectBuilder("milestone_index", "milestone_timestamp", "figures", "detail").
			Where(qb.GtOrEq("milestone_index"), qb.LtOrEq("milestone_index")).LimitNamed("limit"))
	InsertDailyFamily = define(dailyFams, Statement{Name: "daily_families.insert", InUse: true,
		Pattern: "record one family's figures of one UTC date"},
		dailyFams.InsertBuilder())
	DailyFamilyRange = define(dailyFams, Statement{Name: "daily_families.range", InUse: true,
		Pattern: "list one family's figures of the dates of [from, to] in one year, newest first"},
		dailyFams.SelectBuilder("date", "figures").Where(qb.GtOrEq("date"), qb.LtOrEq("date")))
)
