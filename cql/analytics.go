package cql

// Analytics (seed: Milestone-based, Daily and Address Analytics, Date Cache, Metric Cache).
var (
	InsertMsAnalytics = define(Statement{Name: "ms_analytics.insert", Table: "ms_analytics", Kind: Insert, InUse: true,
		Pattern: "store one milestone's counts",
		CQL: `INSERT INTO ms_analytics (ms_range_id, milestone_index, message_count, transaction_count, transferred_tokens)
			VALUES (?, ?, ?, ?, ?)`})
	MsAnalyticsRange = define(Statement{Name: "ms_analytics.by_range", Table: "ms_analytics", Kind: Select, InUse: true,
		Pattern: "milestone analytics of one ms_range_id within [start, end) (seed select, table name fixed)",
		CQL: `SELECT milestone_index, message_count, transaction_count, transferred_tokens FROM ms_analytics
			WHERE ms_range_id = ? AND milestone_index >= ? AND milestone_index < ?`})
	InsertDailyAnalytics = define(Statement{Name: "daily_analytics.insert", Table: "daily_analytics", Kind: Insert, InUse: true,
		Pattern: "store one UTC date's address counts",
		CQL: `INSERT INTO daily_analytics (year, date, total_addresses, send_addresses, recv_addresses)
			VALUES (?, ?, ?, ?, ?)`})
	DailyAnalyticsRange = define(Statement{Name: "daily_analytics.by_year_range", Table: "daily_analytics", Kind: Select, InUse: true,
		Pattern: "daily analytics of one year within [from, to] (seed select)",
		CQL: `SELECT date, total_addresses, send_addresses, recv_addresses FROM daily_analytics
			WHERE year = ? AND date >= ? AND date <= ?`})
	InsertAddressAnalytics = define(Statement{Name: "address_analytics.insert", Table: "address_analytics", Kind: Insert, InUse: true,
		Pattern: "store an address's sent and received tokens in one milestone",
		CQL: `INSERT INTO address_analytics (address, milestone_index, sent_tokens, recv_tokens)
			VALUES (?, ?, ?, ?)`})
	AddressAnalyticsRange = define(Statement{Name: "address_analytics.by_range", Table: "address_analytics", Kind: Select, InUse: true,
		Pattern: "an address's tokens per milestone within [start, end) (seed select)",
		CQL: `SELECT milestone_index, sent_tokens, recv_tokens FROM address_analytics
			WHERE address = ? AND milestone_index >= ? AND milestone_index < ?`})
	InsertDateCache = define(Statement{Name: "date_cache.insert", Table: "date_cache", Kind: Insert, InUse: true,
		Pattern: "store the first and last milestone of a UTC date",
		CQL:     `INSERT INTO date_cache (date, start_ms, end_ms) VALUES (?, ?, ?)`})
	DateCache = define(Statement{Name: "date_cache.by_date", Table: "date_cache", Kind: Select, InUse: true,
		Pattern: "get the first and last milestone of a UTC date (seed select)",
		CQL:     `SELECT start_ms, end_ms FROM date_cache WHERE date = ?`})
	InsertMetric = define(Statement{Name: "metrics_cache.insert", Table: "metrics_cache", Kind: Insert, InUse: true,
		Pattern: "record an address (or index) in a date's metric set (seed inserts, variant and metric bound)",
		CQL:     `INSERT INTO metrics_cache (date, variant, metric, value) VALUES (?, ?, ?, ?)`})
	CountMetric = define(Statement{Name: "metrics_cache.count", Table: "metrics_cache", Kind: Select, InUse: true,
		Pattern: "count a date's metric set (seed selects, variant and metric bound)",
		CQL:     `SELECT count(1) FROM metrics_cache WHERE date = ? AND variant = ? AND metric = ?`})
	DeleteMetrics = define(Statement{Name: "metrics_cache.delete_date", Table: "metrics_cache", Kind: Delete, InUse: true,
		Pattern: "drop a date's metric sets before recomputing them (seed delete)",
		CQL:     `DELETE FROM metrics_cache WHERE date = ?`})
)
