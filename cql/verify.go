package cql

import "slices"

// Statements of `indexer verify`: for every write a milestone makes, a select of the row
// it writes by its whole primary key (does the row exist, with the columns the write
// bound?), and for every materialized view a select of one view row and of a milestone's
// rows in one view partition (does the view agree with its base table?). They are
// derived from the write statements and the tables' models, so a new column of a write
// is checked without an edit here.

// milestoneTables are the tables a milestone writes; their keys come from their models.
var milestoneTables = []string{"messages", "messages_by_milestone", "milestones", "milestones_by_id",
	"milestones_by_bucket", "receipts", "parents", "tags", "transactions", "legacy_outputs", "unspent_outputs",
	"unspent_outputs_by_address", "spent_outputs", "spent_outputs_by_address", "spent_outputs_milestones",
	"address_ledger_updates", "milestone_ledger_updates", "tag_hints", "addresses_hints",
	"basic_outputs", "alias_outputs", "foundry_outputs", "nft_outputs",
	// The analytics rows written with a milestone (analytics.Rows): one row per milestone,
	// per moving address, per date's set member, per family, and the ledger deltas.
	"ms_analytics", "address_analytics", "metrics_cache", "milestone_families", "ledger_family_deltas"}

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
	for _, st := range Catalogue() {
		if st.Kind == Select || !st.Idempotent || slices.Contains(st.Names, ttlBind) ||
			!slices.Contains(milestoneTables, st.Table) {
			continue
		}
		if key := PrimaryKey(st.Table); coversKey(st, key) {
			rowChecks[st.Name] = defineRowCheck(st, key)
		}
	}
	for _, t := range outputTables {
		for _, v := range t.Views {
			defineView(t.Table+"_by_"+v, t.Table, true)
		}
	}
	defineView("parents_by_ms", "parents", false)
	defineView("transactions_by_state", "transactions", false)
}

// coversKey: the write names every primary key column (so its row can be selected).
func coversKey(st *Statement, key []string) bool {
	return !slices.ContainsFunc(key, func(k string) bool { return !slices.Contains(st.Columns, k) })
}

// defineRowCheck: the select of the row st writes, returning the non-key columns it
// binds (or its first key column when it binds none, to tell presence).
func defineRowCheck(st *Statement, key []string) *Statement {
	var want []string
	for _, c := range st.Columns {
		if c != "" && !slices.Contains(key, c) {
			want = append(want, c)
		}
	}
	if len(want) == 0 {
		want = key[:1]
	}
	m := models[st.Table]
	return def(m, st.Name+".verify", "indexer verify: read back the row "+st.Name+" writes, by its primary key",
		from(m, key...).Columns(want...))
}

func defineView(name, base string, bySlice bool) {
	baseKey, vm := PrimaryKey(base), models[name]
	full, ok := fullRows[base]
	if !ok {
		full = def(models[base], base+".verify_full",
			"indexer verify: a base row with every column, to compare with its views", get(models[base]))
		fullRows[base] = full
	}
	partition := vm.Metadata().PartKey
	v := &View{Name: name, Base: base, Partition: partition, Key: PrimaryKey(name), BaseRow: full, BaseKey: baseKey}
	v.ByKey = def(vm, name+".verify_row",
		"indexer verify: one view row by its whole key, to compare with its base row", from(vm, v.Key...))
	if bySlice {
		v.MilestoneSlice = def(vm, name+".verify_milestone",
			"indexer verify: a milestone's rows in one view partition, each must have its base row",
			from(vm, join(partition, keys("ms_timestamp", "milestone_index"))...))
	}
	views[base] = append(views[base], v)
}

// RowCheck is the select of the row a write statement writes (nil when it has none).
func RowCheck(write *Statement) *Statement { return rowChecks[write.Name] }

// FullRow is SELECT * of one row of a table with views, by PrimaryKey.
func FullRow(table string) *Statement { return fullRows[table] }

// ViewsOf lists the materialized views over a base table.
func ViewsOf(base string) []*View { return views[base] }
