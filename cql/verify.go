package cql

import (
	"strings"
)

// Statements of `indexer verify`: for every write a milestone makes, a select of the row
// it writes by its whole primary key (does the row exist, with the columns the write
// bound?), and for every materialized view a select of one view row and of a milestone's
// rows in one view partition (does the view agree with its base table?). They are
// derived from the write statements and the primary keys below, so a new column of a
// write is checked without an edit here.

// primaryKeys are the primary key columns (partition then clustering) of the tables a
// milestone writes.
var primaryKeys = map[string][]string{
	"messages":                   {"message_id"},
	"messages_by_milestone":      {"milestone_index", "white_flag_index", "message_id"},
	"milestones":                 {"milestone_index"},
	"milestones_by_id":           {"milestone_id"},
	"milestones_by_bucket":       {"bucket", "milestone_index"},
	"receipts":                   {"shard", "migrated_at", "milestone_index"},
	"parents":                    {"parent_id", "message_id"},
	"tags":                       {"tag", "ms_range_id", "ms_timestamp", "milestone_index", "message_id"},
	"transactions":               {"transaction_id", "idx", "variant", "message_id"},
	"legacy_outputs":             {"output_id", "output_type", "is_used", "ms_range_id", "milestone_index", "ms_timestamp"},
	"unspent_outputs":            {"output_kind", "ms_range_id", "created_at", "output_id"},
	"unspent_outputs_by_address": {"address", "ms_range_id", "output_kind", "role", "created_at", "output_id"},
	"spent_outputs":              {"output_kind", "ms_range_id", "created_at", "output_id"},
	"spent_outputs_by_address":   {"address", "ms_range_id", "output_kind", "role", "created_at", "output_id"},
	"spent_outputs_milestones":   {"ms_range_id", "milestone_index"},
	"address_ledger_updates":     {"address", "ms_range_id", "milestone_index", "output_id", "is_spent"},
	"milestone_ledger_updates":   {"milestone_index", "is_spent", "output_id"},
	"tag_hints":                  {"tag", "table_kind", "ms_range_id"},
	"addresses_hints":            {"address", "output_kind", "variant", "ms_range_id"},
	// The analytics rows written with a milestone (analytics.Rows): one row per milestone,
	// per moving address, per date's set member, per family, and the ledger deltas.
	"ms_analytics":         {"ms_range_id", "milestone_index"},
	"address_analytics":    {"address", "milestone_index"},
	"metrics_cache":        {"date", "variant", "metric", "value"},
	"milestone_families":   {"family", "ms_range_id", "milestone_index"},
	"ledger_family_deltas": {"ms_range_id", "milestone_index"},
}

// View is a materialized view: its base table and its primary key (Partition first).
type View struct {
	Name, Base     string
	Partition, Key []string
	ByKey          *Statement // SELECT * of one view row by its whole key
	MilestoneSlice *Statement // SELECT * of one partition's rows of one (ms_timestamp, milestone_index), if the view has them
	BaseRow        *Statement // SELECT * of the base row by the base key
	BaseKey        []string
}

var (
	rowChecks = map[string]*Statement{} // write statement name -> select of its row
	fullRows  = map[string]*Statement{} // table -> SELECT * by primary key
	views     = map[string][]*View{}    // base table -> its views
)

func init() {
	for _, t := range []OutputTable{BasicOutputs, AliasOutputs, FoundryOutputs, NFTOutputs} {
		primaryKeys[t.Table] = t.KeyColumns()
	}
	for _, st := range Catalogue() {
		if st.Kind == Select || !st.Idempotent || strings.Contains(st.CQL, "USING TTL") {
			continue
		}
		if key, ok := primaryKeys[st.Table]; ok && coversKey(st, key) {
			rowChecks[st.Name] = defineRowCheck(st, key)
		}
	}
	for _, t := range []OutputTable{BasicOutputs, AliasOutputs, FoundryOutputs, NFTOutputs} {
		for _, v := range t.Views {
			key := []string{v, "ms_range_id", "ms_timestamp", "milestone_index"}
			if t.HasOutputID {
				key = append(key, t.Key)
			}
			defineView(t.Table+"_by_"+v, t.Table, []string{v, "ms_range_id"}, append(key, "output_id"), true)
		}
	}
	defineView("parents_by_ms", "parents", []string{"parent_id"}, []string{"parent_id", "ms_timestamp", "message_id"}, false)
	defineView("transactions_by_state", "transactions", []string{"transaction_id"},
		[]string{"transaction_id", "inclusion_state", "idx", "variant", "message_id"}, false)
}

// coversKey: the write names every primary key column (so its row can be selected).
func coversKey(st *Statement, key []string) bool {
	bound := map[string]bool{}
	for _, c := range WriteColumns(st) {
		bound[c] = true
	}
	for _, k := range key {
		if !bound[k] {
			return false
		}
	}
	return true
}

// defineRowCheck: the select of the row st writes, returning the non-key columns it
// binds (or its first key column when it binds none, to tell presence).
func defineRowCheck(st *Statement, key []string) *Statement {
	var want []string
	for _, c := range WriteColumns(st) {
		if c != "" && !contains(key, c) {
			want = append(want, c)
		}
	}
	if len(want) == 0 {
		want = key[:1]
	}
	return query(Statement{Name: st.Name + ".verify", Table: st.Table, InUse: true,
		Pattern: "indexer verify: read back the row " + st.Name + " writes, by its primary key"}, want, equal(key))
}

func defineView(name, base string, partition, key []string, bySlice bool) {
	baseKey := primaryKeys[base]
	full, ok := fullRows[base]
	if !ok {
		full = define(Statement{Name: base + ".verify_full", Table: base, Kind: Select, InUse: true,
			Pattern: "indexer verify: a base row with every column, to compare with its views",
			CQL:     "SELECT * FROM " + base + " WHERE " + equal(baseKey)})
		fullRows[base] = full
	}
	v := &View{Name: name, Base: base, Partition: partition, Key: key, BaseRow: full, BaseKey: baseKey}
	v.ByKey = define(Statement{Name: name + ".verify_row", Table: name, Kind: Select, InUse: true,
		Pattern: "indexer verify: one view row by its whole key, to compare with its base row",
		CQL:     "SELECT * FROM " + name + " WHERE " + equal(key)})
	if bySlice {
		v.MilestoneSlice = define(Statement{Name: name + ".verify_milestone", Table: name, Kind: Select, InUse: true,
			Pattern: "indexer verify: a milestone's rows in one view partition, each must have its base row",
			CQL: "SELECT * FROM " + name + " WHERE " + equal(append(append([]string{}, partition...),
				"ms_timestamp", "milestone_index"))})
	}
	views[base] = append(views[base], v)
}

// RowCheck is the select of the row a write statement writes (nil when it has none).
func RowCheck(write *Statement) *Statement { return rowChecks[write.Name] }

// PrimaryKey is a table's primary key columns, as RowCheck binds them.
func PrimaryKey(table string) []string { return primaryKeys[table] }

// FullRow is SELECT * of one row of a table with views, by PrimaryKey.
func FullRow(table string) *Statement { return fullRows[table] }

// ViewsOf lists the materialized views over a base table.
func ViewsOf(base string) []*View { return views[base] }

// WriteColumns names, for each value a write binds, the column it sets or selects by
// ("" for a value that is not a column, such as a TTL).
func WriteColumns(st *Statement) []string {
	text := strings.Join(strings.Fields(st.CQL), " ")
	switch st.Kind {
	case Insert:
		open, mid := strings.Index(text, "("), strings.Index(text, ") VALUES (")
		if open < 0 || mid < 0 {
			return nil
		}
		names := splitList(text[open+1 : mid])
		rest := text[mid+len(") VALUES ("):]
		vals := splitList(rest[:strings.Index(rest, ")")])
		var out []string
		for i, v := range vals {
			if v == "?" && i < len(names) {
				out = append(out, names[i])
			}
		}
		return append(out, trailingMarks(rest[strings.Index(rest, ")"):])...)
	case Update:
		set, where, ok := strings.Cut(text[strings.Index(text, " SET ")+5:], " WHERE ")
		if !ok {
			return nil
		}
		return append(assigned(set, ", "), assigned(where, " AND ")...)
	case Delete:
		_, where, _ := strings.Cut(text, " WHERE ")
		return assigned(where, " AND ")
	}
	return nil
}

// assigned lists the columns of "a = ?<sep>b = ?".
func assigned(text, sep string) []string {
	var out []string
	for _, part := range strings.Split(text, sep) {
		if col, val, ok := strings.Cut(part, "="); ok && strings.TrimSpace(val) == "?" {
			out = append(out, strings.TrimSpace(col))
		}
	}
	return out
}

// trailingMarks is one "" per bind marker after the values list (USING TTL ?).
func trailingMarks(text string) []string { return make([]string, strings.Count(text, "?")) }

func splitList(text string) []string {
	parts := strings.Split(text, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
