package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Analytics (seed: Milestone-based, Daily and Address Analytics, Date Cache, Metric Cache).
var (
	InsertMsAnalytics = def(msAnalytics, "ms_analytics.insert", "store one milestone's counts",
		msAnalytics.InsertBuilder())
	MsAnalyticsRange = def(msAnalytics, "ms_analytics.by_range",
		"milestone analytics of one ms_range_id within [start, end) (seed select, table name fixed)",
		msAnalytics.SelectBuilder("milestone_index", "message_count", "transaction_count", "transferred_tokens").
			Where(qb.GtOrEq("milestone_index"), qb.Lt("milestone_index")))
	InsertDailyAnalytics = def(dailyAnalytics, "daily_analytics.insert", "store one UTC date's address counts",
		dailyAnalytics.InsertBuilder())
	DailyAnalyticsRange = def(dailyAnalytics, "daily_analytics.by_year_range",
		"daily analytics of one year within [from, to] (seed select)",
		dailyAnalytics.SelectBuilder("date", "total_addresses", "send_addresses", "recv_addresses").
			Where(qb.GtOrEq("date"), qb.LtOrEq("date")))
	InsertAddressAnalytics = def(addressAnalytics, "address_analytics.insert",
		"store an address's sent and received tokens in one milestone", addressAnalytics.InsertBuilder())
	AddressAnalyticsRange = def(addressAnalytics, "address_analytics.by_range",
		"an address's tokens per milestone within [start, end) (seed select)",
		addressAnalytics.SelectBuilder("milestone_index", "sent_tokens", "recv_tokens").
			Where(qb.GtOrEq("milestone_index"), qb.Lt("milestone_index")))
	InsertDateCache = def(dateCache, "date_cache.insert", "store the first and last milestone of a UTC date",
		dateCache.InsertBuilder())
	DateCache = def(dateCache, "date_cache.by_date", "get the first and last milestone of a UTC date (seed select)",
		dateCache.SelectBuilder("start_ms", "end_ms"))
	InsertMetric = def(metricsCache, "metrics_cache.insert",
		"record an address (or index) in a date's metric set (seed inserts, variant and metric bound)",
		qb.Insert(metricsCache.Name()).Columns("date", "variant", "metric", "value"))
	CountMetric = def(metricsCache, "metrics_cache.count",
		"count a date's metric set (seed selects, variant and metric bound)",
		from(metricsCache, "date", "variant", "metric").Columns("count(1)"))
	DeleteMetrics = def(metricsCache, "metrics_cache.delete_date",
		"drop a date's metric sets before recomputing them (seed delete)",
		qb.Delete(metricsCache.Name()).Where(qb.Eq("date")))
)
