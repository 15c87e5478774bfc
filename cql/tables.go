package cql

import (
	"slices"

	"github.com/scylladb/gocqlx/v2/table"
)

// The models of the schema's tables and materialized views (migrations/cql): each one's
// partition key, clustering key and other columns, as the migrations create them. The
// catalogue's statements are built from them with gocqlx's query builder, and
// TestModelsMatchTheSchema compares every model with a migrated keyspace.

var models = map[string]*table.Table{}

// model registers the model of one table or view: its partition key, its clustering
// key (in key order) and its other columns.
func model(name string, partKey, sortKey []string, other ...string) *table.Table {
	m := table.New(table.Metadata{Name: name, Columns: join(partKey, sortKey, other), PartKey: partKey, SortKey: sortKey})
	models[name] = m
	return m
}

// keys is a key's columns, in key order.
func keys(cols ...string) []string { return cols }

// PrimaryKey is a table's primary key columns: its partition key, then its clustering key.
func PrimaryKey(name string) []string {
	m := models[name]
	if m == nil {
		return nil
	}
	return join(m.Metadata().PartKey, m.Metadata().SortKey)
}

// The tables and views of the messages, milestones, transactions and their indexes.
var (
	messages = model("messages", keys("message_id"), nil, "conflict_reason", "est_milestone_index",
		"inclusion_state", "is_solid", "message", "milestone_index", "parents", "proof", "seen_at", "should_promote",
		"should_reattach", "variant", "version", "white_flag_index")
	messagesByMilestone = model("messages_by_milestone", keys("milestone_index"), keys("white_flag_index", "message_id"))
	milestones          = model("milestones", keys("milestone_index"), nil, "message_id", "milestone_id", "payload",
		"timestamp")
	milestonesByBucket = model("milestones_by_bucket", keys("bucket"), keys("milestone_index"), "message_id",
		"milestone_id", "timestamp")
	milestonesByID = model("milestones_by_id", keys("milestone_id"), nil, "milestone_index")
	receipts       = model("receipts", keys("shard"), keys("migrated_at", "milestone_index"), "milestone_id", "receipt")
	transactions   = model("transactions", keys("transaction_id"), keys("idx", "variant", "message_id"), "data",
		"est_milestone_index", "inclusion_state", "milestone_index")
	transactionsByState = model("transactions_by_state", keys("transaction_id"),
		keys("inclusion_state", "idx", "variant", "message_id"))
	tags = model("tags", keys("tag", "ms_range_id"), keys("ms_timestamp", "milestone_index", "message_id"),
		"inclusion_state")
	parents     = model("parents", keys("parent_id"), keys("message_id"), "est_milestone_index", "inclusion_state", "milestone_index", "ms_timestamp")
	parentsByMs = model("parents_by_ms", keys("parent_id"), keys("ms_timestamp", "message_id"), "est_milestone_index",
		"inclusion_state", "milestone_index")
	syncRows       = model("sync", keys("ms_range_id"), keys("milestone_index"), "synced_by", "logged_by")
	tagHints       = model("tag_hints", keys("tag"), keys("table_kind", "ms_range_id"))
	addressesHints = model("addresses_hints", keys("address"), keys("output_kind", "variant", "ms_range_id"))
	legacyOutputs  = model("legacy_outputs", keys("output_id"),
		keys("output_type", "is_used", "ms_range_id", "milestone_index", "ms_timestamp"), "inclusion_state",
		"message_id", "amount", "address", "data")
	legacyOutputsByAddress = model("legacy_outputs_by_address", keys("address", "ms_range_id"),
		keys("output_type", "is_used", "ms_timestamp", "milestone_index", "output_id"), "amount", "data",
		"inclusion_state", "message_id")
)

// The ledger state: the unspent set, its spent twin, the ledger updates.
var (
	unspentOutputs, unspentOutputsByAddress = ledgerSide("unspent", nil, carriedColumns)
	spentOutputs, spentOutputsByAddress     = ledgerSide("spent", []string{"spent_milestone_index"},
		join(carriedColumns, []string{"spent_by"}))
	spentOutputsMilestones = model("spent_outputs_milestones", keys("ms_range_id"), keys("milestone_index"))
	addressLedgerUpdates   = model("address_ledger_updates", keys("address", "ms_range_id"),
		keys("milestone_index", "output_id", "is_spent"), "ms_timestamp", "output_kind", "roles", "amount")
	milestoneLedgerUpdates = model("milestone_ledger_updates", keys("milestone_index"), keys("is_spent", "output_id"),
		"output_kind", "amount", "address")
)

// The analytics, the indexer's own rows and the leases.
var (
	msAnalytics = model("ms_analytics", keys("ms_range_id"), keys("milestone_index"), "message_count",
		"transaction_count", "transferred_tokens")
	dailyAnalytics   = model("daily_analytics", keys("year"), keys("date"), "total_addresses", "send_addresses", "recv_addresses")
	addressAnalytics = model("address_analytics", keys("address"), keys("milestone_index"), "sent_tokens", "recv_tokens")
	dateCache        = model("date_cache", keys("date"), nil, "start_ms", "end_ms")
	metricsCache     = model("metrics_cache", keys("date"), keys("variant", "metric", "value"), "metric_value")
	richest          = model("richest_addresses", keys("ledger_index"), keys("rank"), "address", "balance")
	distribution     = model("token_distribution", keys("ledger_index"), keys("magnitude"), "address_count", "total_balance")
	milestoneFams    = model("milestone_families", keys("family", "ms_range_id"), keys("milestone_index"),
		"milestone_timestamp", "figures", "detail")
	dailyFams     = model("daily_families", keys("family", "year"), keys("date"), "figures")
	ledgerDeltas  = model("ledger_family_deltas", keys("ms_range_id"), keys("milestone_index"), "figures", "balances")
	addressBals   = model("address_balances", keys("address"), keys("milestone_index"), "balance")
	indexerMeta   = model("indexer_meta", keys("concern"), nil, "updated_at", "updated_by", "value", "watermark")
	leases        = model("leases", keys("name"), nil, "owner", "expires_at")
	systemLocal   = table.New(table.Metadata{Name: "system.local", Columns: []string{"key", "release_version"}, PartKey: []string{"key"}})
	outputSpentBy = []string{"spent_by", "spent_milestone_index"}
)

// carriedColumns are what an address's ledger rows carry of their output (migration
// 000014): its bytes and creating block, so that a wallet's sync needs no read of the
// output table; the spent side adds the spending transaction.
var carriedColumns = []string{"output_data", "message_id"}

// ledgerSide registers the tables of one side of the ledger state, by kind and by an
// address in a role: the filter columns, then the side's own; the by-address table also
// carries the output (carried).
func ledgerSide(side string, own, carried []string) (byKind, byAddress *table.Table) {
	cols := join(unspentFilterColumns, own)
	return model(side+"_outputs", keys("output_kind", "ms_range_id"), keys("created_at", "output_id"), cols...),
		model(side+"_outputs_by_address", keys("address", "ms_range_id"),
			keys("output_kind", "role", "created_at", "output_id"), join(cols, carried)...)
}

// outputModel registers the models of an output table and of its views: a view is
// keyed by its column and the row's partition, then by time, and holds every other
// column of the base row.
func outputModel(t OutputTable) {
	key := t.KeyColumns()
	base := model(t.Table, key[:1], key[1:], join(without(t.Columns, key), outputSpentBy)...)
	all := base.Metadata().Columns
	for _, v := range t.Views {
		part := keys(v, "ms_range_id")
		sortKey := keys("ms_timestamp", "milestone_index", "output_id")
		if t.HasOutputID {
			sortKey = keys("ms_timestamp", "milestone_index", t.Key, "output_id")
		}
		model(t.Table+"_by_"+v, part, sortKey, without(all, join(part, sortKey))...)
	}
}

// without is cols less those in drop, in order.
func without(cols, drop []string) []string {
	var out []string
	for _, c := range cols {
		if !slices.Contains(drop, c) {
			out = append(out, c)
		}
	}
	return out
}
