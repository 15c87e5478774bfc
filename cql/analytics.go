package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Analytics (seed: Milestone-based, Daily and Address Analytics, Date Cache, Metric Cache).
var (
	InsertMsAnalytics = define(msAnalytics, Statement{Name: "ms_analytics.insert", InUse: true,
		Pattern: "store one milestone's counts"},
		msAnalytics.InsertBuilder())
	MsAnalyticsRange = define(msAnalytics, Statement{Name: "ms_analytics.by_range", InUse: true,
		Pattern: "milestone analytics of one ms_range_id within [start, end) (seed select, table name fixed)"},
		msAnalytics.SelectBuilder("milestone_index", "message_count", "transaction_count", "transferred_tokens").
			Where(qb.GtOrEq("milestone_index"), qb.Lt("milestone_index")))
	InsertDailyAnalytics = define(dailyAnalytics, Statement{Name: "daily_analytics.insert", InUse: true,
		Pattern: "store one UTC date's address counts"},
		dailyAnalytics.InsertBuilder())
	DailyAnalyticsRange = define(dailyAnalytics, Statement{Name: "daily_analytics.by_year_range", InUse: true,
		Pattern: "daily analytics of one year within [from, to] (seed select)"},
		dailyAnalytics.SelectBuilder("date", "total_addresses", "send_addresses", "recv_addresses").
			Where(qb.GtOrEq("date"), qb.LtOrEq("date")))
	InsertAddressAnalytics = define(addressAnalytics, Statement{Name: "address_analytics.insert", InUse: true,
		Pattern: "store an address's sent and received tokens in one milestone"},
		addressAnalytics.InsertBuilder())
	AddressAnalyticsRange = define(addressAnalytics, Statement{Name: "address_analytics.by_range", InUse: true,
		Pattern: "an address's tokens per milestone within [start, end) (seed select)"},
		addressAnalytics.SelectBuilder("milestone_index", "sent_tokens", "recv_tokens").
			Where(qb.GtOrEq("milestone_index"), qb.Lt("milestone_index")))
	InsertDateCache = define(dateCache, Statement{Name: "date_cache.insert", InUse: true,
		Pattern: "store the first and last milestone of a UTC date"},
		dateCache.InsertBuilder())
	DateCache = define(dateCache, Statement{Name: "date_cache.by_date", InUse: true,
		Pattern: "get the first and last milestone of a UTC date (seed select)"},
		dateCache.SelectBuilder("start_ms", "end_ms"))
	InsertMetric = define(metricsCache, Statement{Name: "metrics_cache.insert", InUse: true,
		Pattern: "record an address (or index) in a date's metric set (seed inserts, variant and metric bound)"},
		qb.Insert(metricsCache.Name()).Columns("date", "variant", "metric", "value"))
	CountMetric = define(metricsCache, Statement{Name: "metrics_cache.count", InUse: true,
		Pattern: "count a date's metric set (seed selects, variant and metric bound)"},
		from(metricsCache, "date", "variant", "metric").Columns("count(1)"))
	DeleteMetrics = define(metricsCache, Statement{Name: "metrics_cache.delete_date", InUse: true,
		Pattern: "drop a date's metric sets before recomputing them (seed delete)"},
		qb.Delete(metricsCache.Name()).Where(qb.Eq("date")))
)
