package cql

// Chronicle's analytics families (migration 000013, docs/analytics.md): one row per
// (family, milestone) and per (family, date).
var (
	InsertMilestoneFamily = define(Statement{Name: "milestone_families.insert", Table: "milestone_families", Kind: Insert, InUse: true,
		Pattern: "record one family's figures of one milestone",
		CQL: `INSERT INTO milestone_families (family, ms_range_id, milestone_index, milestone_timestamp, figures, detail)
			VALUES (?, ?, ?, ?, ?, ?)`})
	MilestoneFamilyRange = define(Statement{Name: "milestone_families.range", Table: "milestone_families", Kind: Select, InUse: true,
		Pattern: "list one family's figures of the milestones of [start, end] in one partition, newest first",
		CQL: `SELECT milestone_index, milestone_timestamp, figures, detail FROM milestone_families
			WHERE family = ? AND ms_range_id = ? AND milestone_index >= ? AND milestone_index <= ? LIMIT ?`})
	InsertDailyFamily = define(Statement{Name: "daily_families.insert", Table: "daily_families", Kind: Insert, InUse: true,
		Pattern: "record one family's figures of one UTC date",
		CQL:     `INSERT INTO daily_families (family, year, date, figures) VALUES (?, ?, ?, ?)`})
	DailyFamilyRange = define(Statement{Name: "daily_families.range", Table: "daily_families", Kind: Select, InUse: true,
		Pattern: "list one family's figures of the dates of [from, to] in one year, newest first",
		CQL: `SELECT date, figures FROM daily_families
			WHERE family = ? AND year = ? AND date >= ? AND date <= ?`})
)
