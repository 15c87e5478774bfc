package ingest_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// TestIngestMatchesTruth ingests 300 milestones of the sim chain once (with the analytics
// rows and daily jobs, as `indexer run` has them) and checks the keyspace against the
// generator's ground truth (sim.Truth):
//
//   - tables/<name>: every table and materialized view holds exactly the rows a model
//     built from the truth says (row count, primary keys, every column). Views are derived
//     from their base table's model by the view's own definition (rows whose view key
//     columns are all set), read from system_schema.
//   - rows/<what>: every 17th message, transaction, output and milestone read back through
//     the store's readers, its blobs decoded and compared with the truth's fields
//     (milestone, inclusion state, conflict reason, amounts, addresses, spent state).
//   - selects/<statement>: every select of the cql catalogue runs with bind values taken
//     from the truth (several hits and one miss each) and must return what the model says,
//     in the table's clustering order; "newest first" and "white-flag order" patterns are
//     checked on the rows themselves. A select the test cannot evaluate fails the test.
func TestIngestMatchesTruth(t *testing.T) {
	e := newTruthEnv(t)
	t.Run("tables", e.checkTables)
	t.Run("rows", func(t *testing.T) {
		t.Run("messages", e.checkMessages)
		t.Run("transactions", e.checkTransactions)
		t.Run("outputs", e.checkOutputs)
		t.Run("milestones", e.checkMilestones)
		t.Run("genesis_ids_are_no_transactions", e.checkGenesisIDs)
	})
	t.Run("selects", e.checkSelects)
}

const (
	truthTip    = 300
	sampleEvery = 17
	// appliedMigrations records migrations, not the chain: no truth to compare with.
	appliedMigrations = "gocqlx_migrate"
)

// truthOptions is the ingest tests' chain with three receipts (two migrating at one
// legacy index), so the receipts table has rows to compare.
func truthOptions() sim.Options {
	opts := simOptions(truthTip)
	opts.Receipts = map[uint32]uint32{40: 5000, 41: 5000, 200: 5001}
	return opts
}

// row is one row of a table, column name to value; nil is a null column. A model row
// may hold a matcher where the value cannot be predicted exactly.
type row map[string]any

// matcher accepts a column's value it cannot predict byte for byte.
type matcher struct {
	what  string
	check func(v any) error
}

type truthEnv struct {
	st     *store.Store
	cfg    cql.Config
	raw    *cql.Session // the test's own, to read the tables around the store
	truth  *sim.Truth
	schema map[string]*tableSchema
	model  map[string][]row // every table and view of the keyspace
}

// newTruthEnv ingests truthTip milestones of the sim chain with the analytics rows and
// builds the model of the keyspace from the truth; with -short it skips the test.
func newTruthEnv(t *testing.T) *truthEnv {
	t.Helper()
	if testing.Short() {
		t.Skip("ingests 300 milestones into a Cassandra node")
	}
	st, cfg := newStore(t)
	src := sim.New(truthOptions())
	start := time.Now()
	ingestAll(t, st, src, truthTip, nil, analytics.Rows)
	took := time.Since(start)
	dailyAll(t, st, src, truthTip)
	// The sync summary is flushed on a timer: flush it now so the keyspace is settled.
	if err := st.FlushSyncSummary(context.Background()); err != nil {
		t.Fatalf("flushing the sync summary: %v", err)
	}
	if _, err := analytics.ComputeLedger(context.Background(), st, "test"); err != nil {
		t.Fatalf("ledger analytics: %v", err)
	}
	truth, err := src.Truth(truthTip)
	if err != nil {
		t.Fatal(err)
	}
	raw := testcontainers.Session(t, cfg)
	schema, err := readSchema(context.Background(), raw.Gocql(), cfg.Keyspace)
	if err != nil {
		t.Fatal(err)
	}
	e := &truthEnv{st: st, cfg: cfg, raw: raw, truth: truth, schema: schema}
	if e.model, err = buildModel(truth, st.ChunkSize, schema); err != nil {
		t.Fatalf("building the model from the truth: %v", err)
	}
	t.Logf("ingested %d milestones (%d messages, %d transactions, %d outputs) in %s",
		truthTip, len(truth.Messages), len(truth.Transactions), len(truth.Outputs), took.Round(time.Millisecond))
	return e
}

// ---- schema ----------------------------------------------------------------------------

// tableSchema is a table or view as system_schema describes it.
type tableSchema struct {
	name       string
	base       string            // for a view: its base table
	types      map[string]string // column -> CQL type
	partition  []string
	clustering []string
	desc       map[string]bool // clustering column in descending order
}

func (s *tableSchema) primaryKey() []string {
	return append(slices.Clone(s.partition), s.clustering...)
}

func readSchema(ctx context.Context, g *gocql.Session, keyspace string) (map[string]*tableSchema, error) {
	out := map[string]*tableSchema{}
	type col struct {
		name, kind, order string
		pos               int
	}
	cols := map[string][]col{}
	it := g.Query(`SELECT table_name, column_name, kind, position, clustering_order, type
		FROM system_schema.columns WHERE keyspace_name = ?`, keyspace).WithContext(ctx).Iter()
	var table, name, kind, order, typ string
	var pos int
	for it.Scan(&table, &name, &kind, &pos, &order, &typ) {
		s := out[table]
		if s == nil {
			s = &tableSchema{name: table, types: map[string]string{}, desc: map[string]bool{}}
			out[table] = s
		}
		s.types[name] = typ
		cols[table] = append(cols[table], col{name, kind, order, pos})
	}
	if err := it.Close(); err != nil {
		return nil, err
	}
	for table, cs := range cols {
		slices.SortFunc(cs, func(a, b col) int { return cmp.Compare(a.pos, b.pos) })
		s := out[table]
		for _, c := range cs {
			switch c.kind {
			case "partition_key":
				s.partition = append(s.partition, c.name)
			case "clustering":
				s.clustering = append(s.clustering, c.name)
				s.desc[c.name] = c.order == "desc"
			}
		}
	}
	it = g.Query(`SELECT view_name, base_table_name FROM system_schema.views WHERE keyspace_name = ?`, keyspace).
		WithContext(ctx).Iter()
	var view, base string
	for it.Scan(&view, &base) {
		if s := out[view]; s != nil {
			s.base = base
		}
	}
	return out, it.Close()
}

// ---- the model: every row the truth implies ------------------------------------------------

type modelBuilder struct {
	schema map[string]*tableSchema
	chunk  uint32
	rows   map[string][]row
	keys   map[string]map[string]row
	err    error
}

// add records a row; the same key twice must be the same row (hint tables are sets).
func (m *modelBuilder) add(table string, r row) {
	s := m.schema[table]
	if s == nil {
		m.err = cmp.Or(m.err, fmt.Errorf("model row for %s, which the schema does not have", table))
		return
	}
	key := keyOf(s, r)
	if m.keys[table] == nil {
		m.keys[table] = map[string]row{}
	}
	if old, dup := m.keys[table][key]; dup {
		if rowText(old) != rowText(r) {
			m.err = cmp.Or(m.err, fmt.Errorf("%s: key %s twice with different rows:\n  %s\n  %s", table, key, rowText(old), rowText(r)))
		}
		return
	}
	m.keys[table][key] = r
	m.rows[table] = append(m.rows[table], r)
}

func (m *modelBuilder) rng(index uint32) int32 { return store.RangeID(index, m.chunk) }

func buildModel(truth *sim.Truth, chunk uint32, schema map[string]*tableSchema) (map[string][]row, error) {
	m := &modelBuilder{schema: schema, chunk: chunk, rows: map[string][]row{}, keys: map[string]map[string]row{}}
	for _, ms := range truth.Milestones {
		m.add("milestones", row{"milestone_index": int32(ms.Index), "message_id": carrierText(truth, ms),
			"milestone_id": ms.MilestoneID.String(), "timestamp": ms.Timestamp.Unix(), "payload": milestonePayload(ms)})
		m.add("milestones_by_id", row{"milestone_id": ms.MilestoneID.String(), "milestone_index": int32(ms.Index)})
		m.add("spent_outputs_milestones", row{"ms_range_id": m.rng(ms.Index), "milestone_index": int32(ms.Index)})
		m.add("milestones_by_bucket", row{"bucket": int32(ms.Index / store.MilestoneBucket), "milestone_index": int32(ms.Index),
			"milestone_id": ms.MilestoneID.String(), "message_id": carrierText(truth, ms), "timestamp": ms.Timestamp.Unix()})
		m.add("sync", row{"ms_range_id": m.rng(ms.Index), "milestone_index": int32(ms.Index),
			"synced_by": int8(1), "logged_by": nil})
		for _, id := range ms.Messages {
			m.message(truth.Messages[id])
		}
		m.receipt(ms)
	}
	m.rows["receipts"] = append([]row{}, m.rows["receipts"]...) // a table without receipts has a model too
	for _, o := range sortedOutputs(truth) {
		m.output(o)
	}
	m.analytics(truth)
	m.ledgerAnalytics(truth)
	m.families(truth)
	network, _ := json.Marshal(store.RecordOf(sim.Network()))
	m.add("indexer_meta", row{"concern": "network", "value": string(network), "watermark": int64(0),
		"updated_by": "node-1", "updated_at": notNull})
	// The protocol parameters and base token, recorded with the network; the watermark is
	// the time they were recorded.
	protocol, _ := json.Marshal(store.ProtocolRecordOf(sim.Network()))
	m.add("indexer_meta", row{"concern": "protocol", "value": string(protocol), "watermark": notNull,
		"updated_by": "node-1", "updated_at": notNull})
	// milestones_by_bucket lists every milestone: the keyspace was empty when the first
	// run found no row saying so (store.FillMilestoneBuckets), so it listed none.
	m.add("indexer_meta", row{"concern": store.MilestoneBucketsConcern, "value": "0", "watermark": int64(0),
		"updated_by": "node-1", "updated_at": notNull})
	m.add("indexer_meta", row{"concern": "chunk_size", "value": strconv.Itoa(int(chunk)), "watermark": int64(0),
		"updated_by": "test", "updated_at": notNull})
	// The milestone keys, and the first milestone written as the keyspace's anchor.
	m.add("indexer_meta", row{"concern": "milestone_keys", "value": keysJSON(sim.Network().Keys), "watermark": int64(0),
		"updated_by": "node-1", "updated_at": notNull})
	m.add("indexer_meta", row{"concern": "anchor_milestone", "value": "1 " + firstMilestoneID(truth),
		"watermark": int64(0), "updated_by": "node-1", "updated_at": notNull})
	// The newest milestone any node synced (store.NewestSyncedConcern), by node 1.
	m.add("indexer_meta", row{"concern": "newest_synced", "value": "", "watermark": int64(truth.UpTo),
		"updated_by": "1", "updated_at": notNull})
	// The sync summary (store/sync_summary.go): one range, every milestone; its version
	// counts the compare-and-sets that won, and who won the last one is not fixed.
	m.add("indexer_meta", row{"concern": "sync_summary",
		"value":     fmt.Sprintf(`{"oldest":1,"newest":%d,"ranges":[{"from":1,"to":%d}]}`, truth.UpTo, truth.UpTo),
		"watermark": notNull, "updated_by": notNull, "updated_at": notNull})
	// leases: the daily jobs released theirs; schema_*: bookkeeping, not compared.
	m.rows["leases"] = []row{}
	for name, s := range schema {
		if s.base != "" {
			m.rows[name] = deriveView(s, m.rows[s.base])
		}
	}
	return m.rows, m.err
}

// receipt adds the receipts row of a milestone carrying a receipt.
func (m *modelBuilder) receipt(ms sim.MilestoneTruth) {
	mp, err := chain.DecodeMilestonePayload(ms.Payload)
	if err != nil {
		m.err = cmp.Or(m.err, err)
		return
	}
	if rc := mp.Receipt; rc != nil {
		m.add("receipts", row{"shard": int32(0), "migrated_at": int32(rc.MigratedAt), "milestone_index": int32(ms.Index),
			"milestone_id": ms.MilestoneID.String(), "receipt": rc.Encode()})
	}
}

var notNull = matcher{"any non-null value", func(v any) error {
	if v == nil {
		return errors.New("null")
	}
	return nil
}}

// milestonePayload accepts the milestone's message (the column holds the whole message
// carrying the milestone payload) as long as it is that milestone's.
// milestonePayload matches the signed milestone payload as the sim serialized it.
func milestonePayload(ms sim.MilestoneTruth) matcher {
	return matcher{"the payload of milestone " + strconv.Itoa(int(ms.Index)), func(v any) error {
		raw, _ := v.([]byte)
		mp, err := chain.DecodeMilestonePayload(raw)
		if err != nil {
			return err
		}
		if !bytes.Equal(raw, ms.Payload) || mp.ID() != ms.MilestoneID {
			return fmt.Errorf("decodes to milestone %d with ID %s", mp.Index, mp.ID())
		}
		return nil
	}}
}

// carrierText is the message ID a milestones row holds: the message carrying the
// milestone, known once the next milestone (which references it) is indexed.
func carrierText(truth *sim.Truth, ms sim.MilestoneTruth) any {
	if ms.Index >= truth.UpTo {
		return nil
	}
	return ms.MessageID.String()
}

func (m *modelBuilder) message(mt *sim.MessageTruth) {
	id, msg := mt.ID.String(), mt.Message
	state, idx, rng := int8(mt.InclusionState), int32(mt.Milestone), m.rng(mt.Milestone)
	parents := make([]string, len(msg.Parents))
	for i, p := range msg.Parents {
		parents[i] = p.String()
	}
	m.add("messages", row{"message_id": id, "version": int8(msg.ProtocolVersion), "message": mt.Raw,
		"variant": payloadVariant(msg), "parents": parents, "is_solid": true, "should_promote": false,
		"should_reattach": false, "est_milestone_index": nil, "seen_at": nil, "milestone_index": idx,
		"white_flag_index": int32(mt.WhiteFlagIndex), "inclusion_state": state,
		"conflict_reason": int8(mt.ConflictReason), "proof": nil})
	m.add("messages_by_milestone", row{"milestone_index": idx, "white_flag_index": int32(mt.WhiteFlagIndex), "message_id": id})
	for _, p := range parents {
		m.add("parents", row{"parent_id": p, "message_id": id, "est_milestone_index": nil, "milestone_index": idx,
			"ms_timestamp": mt.Timestamp, "inclusion_state": state})
	}
	if tag := msg.Tag(); len(tag) > 0 {
		m.add("tags", row{"tag": hexTag(tag), "ms_range_id": rng, "milestone_index": idx, "ms_timestamp": mt.Timestamp,
			"message_id": id, "inclusion_state": state})
		m.add("tag_hints", row{"tag": hexTag(tag), "table_kind": "message", "ms_range_id": rng})
	}
	tx := msg.TransactionOf()
	if tx == nil {
		return
	}
	txID := tx.ID()
	txRow := func(partTx chain.TransactionID, i uint16, variant string, data []byte) {
		m.add("transactions", row{"transaction_id": partTx.String(), "idx": int16(i), "variant": variant,
			"message_id": id, "data": data, "est_milestone_index": nil, "milestone_index": idx, "inclusion_state": state})
	}
	for i, in := range tx.Inputs {
		txRow(txID, uint16(i), "input", chain.EncodeInput(in))
		if i < len(tx.Unlocks) {
			txRow(in.TransactionID, in.Index, "unlock", store.EncodeSpend(store.Spend{TransactionID: txID,
				InputIndex: uint16(i), Unlock: chain.EncodeUnlock(tx.Unlocks[i])}))
		}
	}
	for j, out := range tx.Outputs {
		txRow(txID, uint16(j), "output", chain.EncodeOutput(out))
	}
}

func payloadVariant(m *chain.Message) string {
	switch m.Payload.(type) {
	case *chain.Transaction:
		return "transaction"
	case *chain.MilestonePayload:
		return "milestone"
	case *chain.TaggedData:
		return "tagged_data"
	}
	return "none"
}

// outputTable is the table an output kind is indexed in.
var outputTable = map[chain.OutputKind]cql.OutputTable{
	chain.OutputBasic: cql.BasicOutputs, chain.OutputAlias: cql.AliasOutputs,
	chain.OutputFoundry: cql.FoundryOutputs, chain.OutputNFT: cql.NFTOutputs,
}

// outputKey is the partition key of an output's row: its ID, or its chain's ID (derived
// from the output ID in the output that creates the chain).
func outputKey(o *sim.OutputTruth) string {
	switch o.Output.Kind {
	case chain.OutputAlias:
		if o.Output.AliasID.IsZero() {
			return chain.AliasIDFromOutputID(o.OutputID).String()
		}
		return o.Output.AliasID.String()
	case chain.OutputNFT:
		if o.Output.NFTID.IsZero() {
			return chain.NFTIDFromOutputID(o.OutputID).String()
		}
		return o.Output.NFTID.String()
	case chain.OutputFoundry:
		return o.Output.FoundryID.String()
	}
	return o.OutputID.String()
}

// roles are an output's addresses (and tag) by the column that holds them; absent ones nil.
func roles(o *chain.Output) map[string]any {
	a := func(x *chain.Address) any {
		if x == nil {
			return nil
		}
		return x.Bech32(sim.HRP)
	}
	r := map[string]any{"address": a(o.Address), "sender": a(o.Sender), "issuer": a(o.Issuer),
		"state_controller": a(o.StateController), "governor": a(o.Governor), "dust_return_address": nil, "tag": nil}
	if o.StorageDepositReturn != nil {
		r["dust_return_address"] = o.StorageDepositReturn.ReturnAddress.Bech32(sim.HRP)
	}
	if len(o.Tag) > 0 {
		r["tag"] = hexTag(o.Tag)
	}
	return r
}

// hintRoles are the address roles each output kind records in addresses_hints.
var hintRoles = map[chain.OutputKind][]string{
	chain.OutputBasic:   {"address", "dust_return_address", "sender"},
	chain.OutputAlias:   {"state_controller", "governor", "issuer", "sender"},
	chain.OutputFoundry: {"address"},
	chain.OutputNFT:     {"address", "dust_return_address", "sender", "issuer"},
	chain.OutputLegacy:  {"address"},
}

func (m *modelBuilder) output(o *sim.OutputTruth) {
	rng, kind := m.rng(o.MilestoneIndex), o.Output.Kind
	role := roles(&o.Output)
	var spentBy, spentMs any
	if o.Spent {
		spentBy, spentMs = o.SpentBy.String(), int32(o.SpentMilestone)
	}
	for _, variant := range hintRoles[kind] {
		if addr := role[variant]; addr != nil {
			m.add("addresses_hints", row{"address": addr, "output_kind": kind.String(), "variant": variant, "ms_range_id": rng})
		}
	}
	common := row{"ms_range_id": rng, "milestone_index": int32(o.MilestoneIndex), "ms_timestamp": o.Timestamp,
		"inclusion_state": int8(chain.Included), "message_id": o.MessageID.String(), "amount": int64(o.Output.Amount),
		"data": chain.EncodeOutput(o.Output)}
	if kind == chain.OutputLegacy {
		r := maps.Clone(common)
		maps.Copy(r, row{"output_id": o.OutputID.String(), "output_type": int8(o.Output.LegacyType),
			"is_used": o.Spent, "address": role["address"]})
		m.add("legacy_outputs", r)
		return
	}
	t, ok := outputTable[kind]
	if !ok {
		m.err = cmp.Or(m.err, fmt.Errorf("output %s of kind %s: no table", o.OutputID, kind))
		return
	}
	r := maps.Clone(common)
	maps.Copy(r, row{t.Key: outputKey(o), "output_id": o.OutputID.String(), "spent_by": spentBy, "spent_milestone_index": spentMs})
	for col := range m.schema[t.Table].types {
		if v, isRole := role[col]; isRole {
			r[col] = v
		}
	}
	if kind == chain.OutputAlias {
		r["state_index"] = int32(o.Output.StateIndex)
	}
	m.add(t.Table, r)
	m.ledger(o)
	if tag := role["tag"]; tag != nil {
		m.add("tag_hints", row{"tag": tag, "table_kind": kind.String() + "_output", "ms_range_id": rng})
	}
}

// owner restates the analytics owner definition: who must unlock the output.
func owner(o *chain.Output) (string, bool) {
	a := o.Address
	if o.Kind == chain.OutputAlias {
		a = o.StateController
	}
	if a == nil {
		return "", false
	}
	return a.Bech32(sim.HRP), true
}

// analytics adds ms_analytics, address_analytics and metrics_cache rows for every
// milestone, and date_cache and daily_analytics rows for every complete date (every date
// but the last one's, which no later milestone closes).
func (m *modelBuilder) analytics(truth *sim.Truth) {
	type flow struct{ sent, recv uint64 }
	flows := map[uint32]map[string]*flow{}
	addFlow := func(ms uint32, o *chain.Output, sent bool) {
		a, ok := owner(o)
		if !ok {
			return
		}
		if flows[ms] == nil {
			flows[ms] = map[string]*flow{}
		}
		f := flows[ms][a]
		if f == nil {
			f = &flow{}
			flows[ms][a] = f
		}
		if sent {
			f.sent += o.Amount
		} else {
			f.recv += o.Amount
		}
	}
	for _, o := range sortedOutputs(truth) {
		addFlow(o.MilestoneIndex, &o.Output, false)
		if o.Spent {
			addFlow(o.SpentMilestone, &o.Output, true)
		}
	}
	type dayData struct {
		first, last uint32
		sets        map[string]map[string]bool // metric -> values
	}
	var days []time.Time
	byDay := map[time.Time]*dayData{}
	for _, ms := range truth.Milestones {
		d := analytics.Day(ms.Timestamp)
		dd := byDay[d]
		if dd == nil {
			dd = &dayData{first: ms.Index, sets: map[string]map[string]bool{"sent": {}, "received": {}, "sent_or_received": {}, "used": {}}}
			byDay[d] = dd
			days = append(days, d)
		}
		dd.last = ms.Index
		msgs, txs := 0, 0
		var transferred uint64
		for _, id := range ms.Messages {
			mt := truth.Messages[id]
			msgs++
			if tag := mt.Message.Tag(); len(tag) > 0 {
				dd.sets["used"][hexTag(tag)] = true
			}
			tx := mt.Message.TransactionOf()
			if tx == nil || mt.InclusionState != chain.Included {
				continue
			}
			txs++
			inputOwners := map[string]bool{}
			for _, in := range tx.Inputs {
				if a, ok := owner(&truth.Outputs[in.OutputID()].Output); ok {
					inputOwners[a] = true
				}
			}
			for j := range tx.Outputs {
				if a, ok := owner(&tx.Outputs[j]); ok && !inputOwners[a] {
					transferred += tx.Outputs[j].Amount
				}
			}
		}
		m.add("ms_analytics", row{"ms_range_id": m.rng(ms.Index), "milestone_index": int32(ms.Index),
			"message_count": int32(msgs), "transaction_count": int32(txs), "transferred_tokens": int64(transferred)})
		for a, f := range flows[ms.Index] {
			if f.sent == 0 && f.recv == 0 {
				continue
			}
			m.add("address_analytics", row{"address": a, "milestone_index": int32(ms.Index),
				"sent_tokens": int64(f.sent), "recv_tokens": int64(f.recv)})
			dd.sets["sent_or_received"][a] = true
			if f.sent > 0 {
				dd.sets["sent"][a] = true
			}
			if f.recv > 0 {
				dd.sets["received"][a] = true
			}
		}
	}
	for i, d := range days {
		dd := byDay[d]
		for metric, values := range dd.sets {
			variant := "address"
			if metric == "used" {
				variant = "index"
			}
			for v := range values {
				m.add("metrics_cache", row{"date": d, "variant": variant, "metric": metric, "value": v, "metric_value": nil})
			}
		}
		if i == len(days)-1 {
			continue // not complete: no milestone after it
		}
		m.add("date_cache", row{"date": d, "start_ms": int32(dd.first), "end_ms": int32(dd.last)})
		m.add("daily_analytics", row{"year": int32(d.Year()), "date": d, "total_addresses": int32(len(dd.sets["sent_or_received"])),
			"send_addresses": int32(len(dd.sets["sent"])), "recv_addresses": int32(len(dd.sets["received"]))})
		m.dailyFamily(d, len(dd.sets["sent_or_received"]))
	}
}

// deriveView is a materialized view's content by its definition: the base rows whose
// view key columns are all set, with the view's columns.
func deriveView(view *tableSchema, rows []row) []row {
	out := []row{}
next:
	for _, r := range rows {
		for _, k := range view.primaryKey() {
			if r[k] == nil {
				continue next
			}
		}
		v := row{}
		for col := range view.types {
			v[col] = r[col]
		}
		out = append(out, v)
	}
	return out
}

func sortedOutputs(truth *sim.Truth) []*sim.OutputTruth {
	out := slices.Collect(maps.Values(truth.Outputs))
	slices.SortFunc(out, func(a, b *sim.OutputTruth) int { return bytes.Compare(a.OutputID[:], b.OutputID[:]) })
	return out
}

func hexTag(tag []byte) string { return "0x" + hex.EncodeToString(tag) }

// ---- values ----------------------------------------------------------------------------

// valueText renders a column value so that equal values of the model and of the driver
// render alike (integers of any width, times to the millisecond the column keeps).
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case matcher:
		return "<" + x.what + ">"
	case int, int8, int16, int32, int64:
		return strconv.FormatInt(reflect.ValueOf(x).Int(), 10)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return strconv.Quote(x)
	case []byte:
		return "0x" + hex.EncodeToString(x)
	case []string:
		return fmt.Sprintf("%q", x)
	case time.Time:
		return x.UTC().Truncate(time.Millisecond).Format(time.RFC3339Nano)
	}
	return fmt.Sprintf("%T(%v)", v, v)
}

// compareValues orders two values of one clustering column as Cassandra does.
func compareValues(a, b any) int {
	switch x := a.(type) {
	case int, int8, int16, int32, int64:
		return cmp.Compare(reflect.ValueOf(x).Int(), reflect.ValueOf(b).Int())
	case time.Time:
		return x.Compare(b.(time.Time))
	case string:
		return strings.Compare(x, b.(string))
	case bool:
		return cmp.Compare(boolInt(x), boolInt(b.(bool)))
	case []byte:
		return bytes.Compare(x, b.([]byte))
	}
	return strings.Compare(valueText(a), valueText(b))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// sameValue reports whether got (from the driver) is what want (the model) says.
func sameValue(got, want any) error {
	if m, ok := want.(matcher); ok {
		if err := m.check(got); err != nil {
			return fmt.Errorf("%s, want %s: %w", valueText(got), m.what, err)
		}
		return nil
	}
	if valueText(got) != valueText(want) {
		return fmt.Errorf("%s, want %s", short(valueText(got)), short(valueText(want)))
	}
	return nil
}

func short(s string) string {
	if len(s) > 90 {
		return s[:90] + "…"
	}
	return s
}

func keyOf(s *tableSchema, r row) string {
	parts := make([]string, 0, 6)
	for _, k := range s.primaryKey() {
		parts = append(parts, valueText(r[k]))
	}
	return strings.Join(parts, "|")
}

func rowText(r row) string {
	cols := slices.Sorted(maps.Keys(r))
	var b strings.Builder
	for _, c := range cols {
		fmt.Fprintf(&b, "%s=%s ", c, short(valueText(r[c])))
	}
	return b.String()
}

// rows reads every row of a select, nulls as nil (the store's reads give a null
// column its type's zero value).
func (e *truthEnv) rows(stmt string, binds ...any) ([]row, error) {
	it := e.raw.Gocql().Query(stmt, binds...).WithContext(context.Background()).PageSize(5000).Iter()
	var got []row
	for {
		var r row
		if !scanRow(it, &r) {
			break
		}
		got = append(got, r)
	}
	return got, it.Close()
}

// scanRow reads one row of any select into a row, nulls as nil.
func scanRow(it *gocql.Iter, r *row) bool {
	cols := it.Columns()
	dest := make([]any, len(cols))
	for i, c := range cols {
		dest[i] = reflect.New(reflect.TypeOf(c.TypeInfo.New())).Interface() // **T: nil for null
	}
	if !it.Scan(dest...) {
		return false
	}
	*r = row{}
	for i, c := range cols {
		p := reflect.ValueOf(dest[i]).Elem()
		if p.IsNil() {
			(*r)[c.Name] = nil
		} else {
			(*r)[c.Name] = p.Elem().Interface()
		}
	}
	return true
}

// ---- tables ----------------------------------------------------------------------------

func (e *truthEnv) checkTables(t *testing.T) {
	var summary []string
	for _, name := range slices.Sorted(maps.Keys(e.schema)) {
		if name == appliedMigrations {
			continue
		}
		s := e.schema[name]
		want, ok := e.model[name]
		if !ok {
			t.Errorf("%s: no ground truth for this table; add it to the model in truth_test.go", name)
			continue
		}
		kind := "table"
		if s.base != "" {
			kind = "view of " + s.base
		}
		summary = append(summary, fmt.Sprintf("%-36s %6d rows (%s)", name, len(want), kind))
		t.Run(name, func(t *testing.T) { e.checkTable(t, s, want) })
	}
	for name := range e.model {
		if e.schema[name] == nil {
			t.Errorf("model has rows for %s, which the keyspace does not have", name)
		}
	}
	t.Logf("rows per table and view, as the truth says and the keyspace holds:\n%s", strings.Join(summary, "\n"))
}

func (e *truthEnv) checkTable(t *testing.T, s *tableSchema, want []row) {
	got, err := e.rows(fmt.Sprintf("SELECT * FROM %s.%s", e.cfg.Keyspace, s.name))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Errorf("%d rows, the truth says %d", len(got), len(want))
	}
	wantByKey := map[string]row{}
	for _, r := range want {
		for col := range s.types {
			if _, ok := r[col]; !ok {
				t.Fatalf("the model of %s has no value for column %s (a new column? add it to the model)", s.name, col)
			}
		}
		wantByKey[keyOf(s, r)] = r
	}
	report, done := capErrors(t)
	defer done()
	seen := map[string]bool{}
	for _, r := range got {
		key := keyOf(s, r)
		seen[key] = true
		w, ok := wantByKey[key]
		if !ok {
			report("unexpected row %s", rowText(r))
			continue
		}
		for _, col := range slices.Sorted(maps.Keys(s.types)) {
			if err := sameValue(r[col], w[col]); err != nil {
				report("row %s: %s = %v", key, col, err)
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(wantByKey)) {
		if !seen[key] {
			report("missing row %s", rowText(wantByKey[key]))
		}
	}
}

// ---- rows: sampled rows decoded and compared with the truth's fields ---------------------

// capErrors reports the first few errors of a check and then only how many there were.
func capErrors(t *testing.T) (errorf func(format string, args ...any), done func()) {
	n := 0
	errorf = func(format string, args ...any) {
		t.Helper()
		if n++; n <= 8 {
			t.Errorf(format, args...)
		}
	}
	return errorf, func() {
		if n > 8 {
			t.Errorf("... %d problems in all", n)
		}
	}
}

func every[T any](items []T) []T {
	var out []T
	for i := 0; i < len(items); i += sampleEvery {
		out = append(out, items[i])
	}
	return out
}

func (e *truthEnv) messagesInOrder() []*sim.MessageTruth {
	var out []*sim.MessageTruth
	for _, ms := range e.truth.Milestones {
		for _, id := range ms.Messages {
			out = append(out, e.truth.Messages[id])
		}
	}
	return out
}

func (e *truthEnv) checkMessages(t *testing.T) {
	errorf, done := capErrors(t)
	defer done()
	ctx := context.Background()
	for _, mt := range every(e.messagesInOrder()) {
		id := mt.ID.String()
		rec, err := e.st.Message(ctx, id)
		if err != nil {
			errorf("message %s: %v", id, err)
			continue
		}
		msg, err := chain.DecodeMessage(rec.Raw)
		if err != nil || chain.MessageIDOf(rec.Raw) != mt.ID {
			errorf("message %s: stored bytes decode to %v (%v)", id, chain.MessageIDOf(rec.Raw), err)
			continue
		}
		parents := make([]string, len(msg.Parents))
		for i, p := range msg.Parents {
			parents[i] = p.String()
		}
		got := fmt.Sprintf("ms %v wf %v state %v reason %v variant %s parents %v solid %v pending %v/%v",
			deref(rec.MilestoneIndex), deref(rec.WhiteFlagIndex), deref(rec.InclusionState), uint8(deref(rec.ConflictReason)),
			rec.Variant, rec.Parents, deref(rec.IsSolid), rec.EstMilestoneIndex, rec.SeenAt)
		want := fmt.Sprintf("ms %d wf %d state %d reason %d variant %s parents %v solid true pending <nil>/<nil>",
			mt.Milestone, mt.WhiteFlagIndex, mt.InclusionState, mt.ConflictReason, payloadVariant(mt.Message), parents)
		if got != want {
			errorf("message %s:\n got %s\nwant %s", id, got, want)
		}
		raw, err := e.st.MessageRaw(ctx, id)
		if err != nil || !bytes.Equal(raw, mt.Raw) {
			errorf("message %s: raw bytes differ from the truth (%v)", id, err)
		}
		meta, err := e.st.MessageMetadata(ctx, id)
		if err != nil || deref(meta.MilestoneIndex) != int32(mt.Milestone) || deref(meta.InclusionState) != int8(mt.InclusionState) {
			errorf("message %s: metadata %+v (%v)", id, meta, err)
		}
	}
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// spendAttempt is one input of a referenced transaction message: who tried to spend what.
type spendAttempt struct {
	msg   *sim.MessageTruth
	tx    chain.TransactionID
	input uint16
}

func (e *truthEnv) spendAttempts() map[chain.OutputID][]spendAttempt {
	out := map[chain.OutputID][]spendAttempt{}
	for _, mt := range e.messagesInOrder() {
		if tx := mt.Message.TransactionOf(); tx != nil {
			for i, in := range tx.Inputs {
				out[in.OutputID()] = append(out[in.OutputID()], spendAttempt{mt, tx.ID(), uint16(i)})
			}
		}
	}
	return out
}

func (e *truthEnv) checkTransactions(t *testing.T) {
	errorf, done := capErrors(t)
	defer done()
	ctx := context.Background()
	attempts := e.spendAttempts()
	txs := slices.Collect(maps.Values(e.truth.Transactions))
	slices.SortFunc(txs, func(a, b *sim.TransactionTruth) int { return bytes.Compare(a.ID[:], b.ID[:]) })
	for _, tt := range every(txs) {
		id, tx := tt.ID.String(), tt.Transaction
		rows, err := e.st.TransactionRows(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		unlocks := 0
		for j := range tx.Outputs {
			unlocks += len(attempts[chain.NewOutputID(tt.ID, uint16(j))])
		}
		if want := len(tt.Attachments)*(len(tx.Inputs)+len(tx.Outputs)) + unlocks; len(rows) != want {
			errorf("transaction %s: %d rows, want %d (%d attachments x (%d inputs + %d outputs) + %d unlocks)",
				id, len(rows), want, len(tt.Attachments), len(tx.Inputs), len(tx.Outputs), unlocks)
		}
		for _, r := range rows {
			if err := e.checkTxRow(tt, r); err != nil {
				errorf("transaction %s row %d/%s by %s: %v", id, r.Index, r.Variant, r.MessageID, err)
			}
		}
		included, err := e.st.IncludedMessage(ctx, id)
		switch {
		case tt.Milestone == 0 && !errors.Is(err, store.ErrNotFound):
			errorf("transaction %s was never included; included message: %q, %v", id, included, err)
		case tt.Milestone != 0 && (err != nil || included != tt.Included.String()):
			errorf("transaction %s: included message %q (%v), want %s", id, included, err, tt.Included)
		}
	}
}

// checkTxRow decodes a transactions row and compares it with the transaction's truth.
func (e *truthEnv) checkTxRow(tt *sim.TransactionTruth, r store.TxRow) error {
	msgID, err := chain.ParseMessageID(r.MessageID)
	if err != nil {
		return err
	}
	mt := e.truth.Messages[msgID]
	if mt == nil {
		return errors.New("no such message in the truth")
	}
	if deref(r.InclusionState) != int8(mt.InclusionState) || deref(r.MilestoneIndex) != int32(mt.Milestone) {
		return fmt.Errorf("state %v milestone %v, want %d %d", deref(r.InclusionState), deref(r.MilestoneIndex),
			mt.InclusionState, mt.Milestone)
	}
	tx := tt.Transaction
	switch r.Variant {
	case store.VariantInput:
		in, err := chain.DecodeInput(r.Data)
		if err != nil {
			return fmt.Errorf("input %d does not decode: %w", r.Index, err)
		}
		if int(r.Index) >= len(tx.Inputs) || in != tx.Inputs[r.Index] || !slices.Contains(tt.Attachments, msgID) {
			return fmt.Errorf("input %+v is not the transaction's input %d by one of its attachments", in, r.Index)
		}
	case store.VariantOutput:
		o, err := chain.DecodeOutput(r.Data)
		if err != nil {
			return fmt.Errorf("output does not decode: %w", err)
		}
		if int(r.Index) >= len(tx.Outputs) || !slices.Contains(tt.Attachments, msgID) {
			return errors.New("output is not the transaction's")
		}
		want := tx.Outputs[r.Index]
		if o.Kind != want.Kind || o.Amount != want.Amount || addrText(o.Address) != addrText(want.Address) {
			return fmt.Errorf("output %s %d to %s, want %s %d to %s", o.Kind, o.Amount, addrText(o.Address),
				want.Kind, want.Amount, addrText(want.Address))
		}
	case store.VariantUnlock:
		s, err := store.DecodeSpend(r.Data)
		if err != nil {
			return err
		}
		spender := mt.Message.TransactionOf()
		if spender == nil || spender.ID() != s.TransactionID || int(s.InputIndex) >= len(spender.Inputs) ||
			spender.Inputs[s.InputIndex].OutputID() != chain.NewOutputID(tt.ID, r.Index) {
			return fmt.Errorf("unlock names transaction %s input %d, which does not spend output %d", s.TransactionID, s.InputIndex, r.Index)
		}
		if u, err := chain.DecodeUnlock(s.Unlock); err != nil {
			return fmt.Errorf("unlock does not decode: %w", err)
		} else if u != spender.Unlocks[s.InputIndex] {
			return fmt.Errorf("unlock %+v differs from the spender's", u)
		}
	default:
		return errors.New("unknown variant")
	}
	return nil
}

func addrText(a *chain.Address) string {
	if a == nil {
		return ""
	}
	return a.Bech32(sim.HRP)
}

func (e *truthEnv) checkOutputs(t *testing.T) {
	errorf, done := capErrors(t)
	defer done()
	ctx := context.Background()
	attempts := e.spendAttempts()
	versions := map[string]int{} // chain key -> outputs (versions) in the truth
	for _, o := range e.truth.Outputs {
		versions[outputKey(o)]++
	}
	kinds := map[chain.OutputKind]int{}
	for _, o := range every(sortedOutputs(e.truth)) {
		kinds[o.Output.Kind]++
		if err := e.checkOutput(ctx, o, versions[outputKey(o)]); err != nil {
			errorf("%s output %s: %v", o.Output.Kind, o.OutputID, err)
		}
		if err := e.checkOutputAndUnlocks(ctx, o, attempts[o.OutputID]); err != nil {
			errorf("%s output %s, transactions rows: %v", o.Output.Kind, o.OutputID, err)
		}
	}
	for _, k := range []chain.OutputKind{chain.OutputLegacy, chain.OutputBasic, chain.OutputAlias, chain.OutputFoundry, chain.OutputNFT} {
		if kinds[k] == 0 {
			t.Errorf("the sample holds no %s output: the chain or the sampling changed", k)
		}
	}
	t.Logf("sampled outputs by kind: %v", kinds)
}

func (e *truthEnv) checkOutput(ctx context.Context, o *sim.OutputTruth, nVersions int) error {
	role := roles(&o.Output)
	if t, ok := outputTable[o.Output.Kind]; ok && !slices.Contains(t.Columns, "address") {
		role["address"] = nil // aliases keep their controllers in their own columns
	}
	spentBy, spentMs := "", int32(0)
	if o.Spent {
		spentBy, spentMs = o.SpentBy.String(), int32(o.SpentMilestone)
	}
	want := fmt.Sprintf("ms %d at %s by %s state %d amount %d address %v used %v", o.MilestoneIndex,
		o.Timestamp.UTC().Format(time.RFC3339), o.MessageID, chain.Included, o.Output.Amount, role["address"], o.Spent)
	var got string
	var data []byte
	if o.Output.Kind == chain.OutputLegacy {
		rows, err := e.st.LegacyOutput(ctx, o.OutputID.String())
		if err != nil {
			return fmt.Errorf("legacy rows: %w", err)
		} else if len(rows) != 1 {
			return fmt.Errorf("%d legacy rows, want 1", len(rows))
		}
		r := rows[0]
		got = fmt.Sprintf("ms %d at %s by %s state %d amount %d address %v used %v", r.MilestoneIndex,
			r.Timestamp.UTC().Format(time.RFC3339), r.MessageID, deref(r.InclusionState), r.Amount, r.Address, r.IsUsed)
		data = r.Data
	} else {
		table := outputTable[o.Output.Kind]
		rows, _, err := e.st.OutputVersions(ctx, o.Output.Kind, outputKey(o), store.PageRequest{Size: 1000})
		if err != nil {
			return err
		}
		if len(rows) != nVersions {
			return fmt.Errorf("%s %s has %d rows, the truth %d versions", table.Key, outputKey(o), len(rows), nVersions)
		}
		i := slices.IndexFunc(rows, func(r store.OutputRow) bool { return r.OutputID == o.OutputID.String() })
		if i < 0 {
			return fmt.Errorf("not among the %d rows of %s %s", len(rows), table.Key, outputKey(o))
		}
		r := rows[i]
		for _, col := range table.Views {
			if got, want := nilIfEmpty(r.Role(col)), role[col]; valueText(got) != valueText(want) {
				return fmt.Errorf("%s = %v, want %v", col, got, want)
			}
		}
		got = fmt.Sprintf("ms %d at %s by %s state %d amount %d address %v used %v", r.MilestoneIndex,
			r.Timestamp.UTC().Format(time.RFC3339), r.MessageID, deref(r.InclusionState), r.Amount,
			nilIfEmpty(r.Address), r.SpentBy != "")
		if o.Output.Kind == chain.OutputAlias {
			want, got = want+" state_index "+strconv.Itoa(int(o.Output.StateIndex)), got+" state_index "+strconv.Itoa(int(deref(r.StateIndex)))
		}
		want += fmt.Sprintf(" spent by %q in %d", spentBy, spentMs)
		got += fmt.Sprintf(" spent by %q in %d", r.SpentBy, deref(r.SpentMilestoneIndex))
		data = r.Data
	}
	if got != want {
		return fmt.Errorf("\n got %s\nwant %s", got, want)
	}
	decoded, err := chain.DecodeOutput(data)
	if err != nil || decoded.Kind != o.Output.Kind || decoded.Amount != o.Output.Amount ||
		addrText(decoded.Address) != addrText(o.Output.Address) || !bytes.Equal(chain.EncodeOutput(decoded), chain.EncodeOutput(o.Output)) {
		return errors.Join(fmt.Errorf("data decodes to %s %d to %s", decoded.Kind, decoded.Amount, addrText(decoded.Address)), err)
	}
	return nil
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// checkOutputAndUnlocks: seed select 1 of transactions returns the output once per message
// that carried its transaction, and one unlock row per referenced attempt to spend it; a
// spent output has the unlock of its spender, included.
func (e *truthEnv) checkOutputAndUnlocks(ctx context.Context, o *sim.OutputTruth, attempts []spendAttempt) error {
	rows, err := e.st.OutputAndUnlocks(ctx, o.OutputID)
	if err != nil {
		return err
	}
	outputs := 0
	if tt := e.truth.Transactions[o.OutputID.TransactionID()]; tt != nil {
		outputs = len(tt.Attachments)
	}
	var nOut, nUnlock int
	spenderSeen := false
	for _, r := range rows {
		switch r.Variant {
		case store.VariantOutput:
			nOut++
		case store.VariantUnlock:
			nUnlock++
			s, err := store.DecodeSpend(r.Data)
			if err != nil {
				return err
			}
			if o.Spent && s.TransactionID == o.SpentBy && deref(r.InclusionState) == int8(chain.Included) {
				spenderSeen = true
			}
		}
	}
	if nOut != outputs || nUnlock != len(attempts) {
		return fmt.Errorf("%d output and %d unlock rows, want %d and %d", nOut, nUnlock, outputs, len(attempts))
	}
	if o.Spent && !spenderSeen {
		return fmt.Errorf("no included unlock row of the spender %s", o.SpentBy)
	}
	return nil
}

func (e *truthEnv) checkMilestones(t *testing.T) {
	errorf, done := capErrors(t)
	defer done()
	ctx := context.Background()
	for _, ms := range every(e.truth.Milestones) {
		got, err := e.st.Milestone(ctx, ms.Index)
		carrier, _ := carrierText(e.truth, ms).(string)
		if err != nil || got.MessageID != carrier || got.MilestoneID != ms.MilestoneID.String() ||
			got.Timestamp != ms.Timestamp.Unix() {
			errorf("milestone %d: %+v (%v), want message %s milestone %s at %d", ms.Index, got, err,
				ms.MessageID, ms.MilestoneID, ms.Timestamp.Unix())
		}
		if n := countMessagesOf(t, e.st, ms.Index); n != len(ms.Messages) {
			errorf("milestone %d: %d messages by milestone, want %d", ms.Index, n, len(ms.Messages))
		}
	}
}

// checkGenesisIDs: the outputs of the genesis milestone carry transaction IDs that no
// transaction has, so asking for the message that included such a "transaction" must find
// none.
func (e *truthEnv) checkGenesisIDs(t *testing.T) {
	ctx := context.Background()
	seen := map[chain.TransactionID]bool{}
	for _, o := range sortedOutputs(e.truth) {
		id := o.OutputID.TransactionID()
		if o.MessageID != (chain.MessageID{}) || seen[id] || !o.Spent {
			continue
		}
		seen[id] = true
		if e.truth.Transactions[id] != nil {
			t.Fatalf("genesis output %s names a real transaction", o.OutputID)
		}
		msg, err := e.st.IncludedMessage(ctx, id.String())
		if errors.Is(err, store.ErrNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		// transactions_by_state also holds the 'unlock' rows filed under a spent output's
		// transaction ID: the select must not answer with the message that spent it.
		t.Errorf("included message of genesis ID %s is %s (the spender of %s), want none", id, msg, o.OutputID)
	}
	if len(seen) == 0 {
		t.Fatal("no spent genesis output in the chain: the check would be vacuous")
	}
}

// ---- selects: every select of the catalogue against the model ----------------------------

// selectQuery is a catalogue select, parsed far enough to say what it must return.
type selectQuery struct {
	cols            []string // result columns
	count, distinct bool
	table           string
	conds           []condition
	orderCol        string
	orderDesc       bool
	limit           int
	limitBound      bool // LIMIT ?: the last bind value
}

// boundLimit is the LIMIT the probes bind: small, so a limit cuts some results short.
const boundLimit = 3

type condition struct {
	col, op string
	literal []string // IN ('a', 'b'); nil when the value is bound
	tuple   []string // (a, b) >= (?, ?): the columns compared together, in order (col is "")
}

// An ORDER BY of several columns is read by its first: the catalogue's order all its
// clustering columns one way, as CQL requires.
var (
	selectRE = regexp.MustCompile(`(?is)^SELECT\s+(.+?)\s+FROM\s+([\w.]+)(?:\s+WHERE\s+(.+?))?` +
		`(?:\s+ORDER\s+BY\s+(\w+)\s+(ASC|DESC)(?:\s*,\s*\w+\s+(?:ASC|DESC))*)?(?:\s+LIMIT\s+(\d+|\?))?$`)
	conditionRE = regexp.MustCompile(`(?is)^(\w+)\s*(=|>=|<=|<|>|IN)\s*(\?|\((.*)\)|('[^']*'|-?\d+))$`)
	tupleRE     = regexp.MustCompile(`^\(([\w\s,]+)\)\s*(>=|<=|<|>)\s*\(([?\s,]+)\)$`)
	andRE       = regexp.MustCompile(`\s+AND\s+`)
)

func parseSelect(text string) (*selectQuery, error) {
	text = strings.Join(strings.Fields(text), " ")
	m := selectRE.FindStringSubmatch(text)
	if m == nil {
		return nil, fmt.Errorf("cannot parse %q", text)
	}
	q := &selectQuery{table: m[2], orderCol: m[4], orderDesc: strings.EqualFold(m[5], "DESC")}
	cols := m[1]
	if rest, ok := strings.CutPrefix(cols, "DISTINCT "); ok {
		q.distinct, cols = true, rest
	}
	for _, c := range strings.Split(cols, ",") {
		c = strings.TrimSpace(c)
		if strings.EqualFold(c, "count(1)") || strings.EqualFold(c, "count(*)") {
			q.count, c = true, "count"
		}
		q.cols = append(q.cols, c)
	}
	if m[3] != "" {
		for _, part := range andRE.Split(m[3], -1) {
			if tm := tupleRE.FindStringSubmatch(part); tm != nil {
				q.conds = append(q.conds, tupleCondition(tm[1], tm[2]))
				continue
			}
			cm := conditionRE.FindStringSubmatch(part)
			if cm == nil {
				return nil, fmt.Errorf("cannot parse condition %q", part)
			}
			c := condition{col: cm[1], op: strings.ToUpper(cm[2])}
			if cm[5] != "" { // col = literal
				c.literal = []string{strings.Trim(cm[5], "'")}
			} else if cm[3] != "?" {
				for _, lit := range strings.Split(cm[4], ",") {
					c.literal = append(c.literal, strings.Trim(strings.TrimSpace(lit), "'"))
				}
			}
			q.conds = append(q.conds, c)
		}
	}
	switch m[6] {
	case "":
	case "?":
		q.limitBound, q.limit = true, boundLimit
	default:
		q.limit, _ = strconv.Atoi(m[6])
	}
	return q, nil
}

// bound reports whether condition c takes a bind value.
func (c condition) bound() bool { return c.literal == nil }

func tupleCondition(cols, op string) condition {
	c := condition{op: op}
	for _, col := range strings.Split(cols, ",") {
		c.tuple = append(c.tuple, strings.TrimSpace(col))
	}
	return c
}

// binds is how many bind values c takes.
func (c condition) binds() int {
	if c.tuple != nil {
		return len(c.tuple)
	}
	return 1
}

// compareTuple compares r's values of c's columns with vals lexicographically; ok is
// false when one of them is null (a null never matches).
func (c condition) compareTuple(r row, vals []any) (d int, ok bool) {
	for j, col := range c.tuple {
		if r[col] == nil {
			return 0, false
		}
		if d = compareValues(r[col], vals[j]); d != 0 {
			return d, true
		}
	}
	return 0, true
}

// expect is what q returns over the model rows of its table, and whether the order of
// the result is defined (a single partition).
func (q *selectQuery) expect(s *tableSchema, rows []row, binds []any) ([]row, bool, error) {
	vals := map[int]any{}
	next := 0
	for i, c := range q.conds {
		switch {
		case c.tuple != nil:
			vals[i], next = binds[next:next+c.binds()], next+c.binds()
		case c.bound():
			vals[i], next = binds[next], next+1
		}
	}
	var out []row
	for _, r := range rows {
		if q.matches(r, vals) {
			out = append(out, r)
		}
	}
	ordered := true
	for _, p := range s.partition {
		if !slices.ContainsFunc(q.conds, func(c condition) bool { return c.col == p && c.op == "=" }) {
			ordered = false
		}
	}
	if q.count {
		return []row{{"count": int64(len(out))}}, true, nil
	}
	reverse := q.orderCol != "" && s.desc[q.orderCol] != q.orderDesc
	slices.SortStableFunc(out, func(a, b row) int {
		for _, c := range s.clustering {
			if d := compareValues(a[c], b[c]); d != 0 {
				if s.desc[c] != reverse {
					return -d
				}
				return d
			}
		}
		return 0
	})
	var proj []row
	seen := map[string]bool{}
	for _, r := range out {
		p := row{}
		for _, c := range q.columns(s) {
			v, ok := r[c]
			if !ok {
				return nil, false, fmt.Errorf("the model of %s has no column %s", s.name, c)
			}
			p[c] = v
		}
		if q.distinct {
			if seen[rowText(p)] {
				continue
			}
			seen[rowText(p)] = true
		}
		proj = append(proj, p)
	}
	if q.limit > 0 && len(proj) > q.limit {
		if !ordered {
			return nil, false, errors.New("LIMIT over several partitions: the result is not predictable")
		}
		proj = proj[:q.limit]
	}
	return proj, ordered, nil
}

// columns are the columns q returns: its list, or for SELECT * every column of the table.
func (q *selectQuery) columns(s *tableSchema) []string {
	if len(q.cols) == 1 && q.cols[0] == "*" {
		return slices.Sorted(maps.Keys(s.types))
	}
	return q.cols
}

func (q *selectQuery) matches(r row, vals map[int]any) bool {
	for i, c := range q.conds {
		if c.tuple != nil {
			d, ok := c.compareTuple(r, vals[i].([]any))
			if !ok || !opHolds(c.op, d) {
				return false
			}
			continue
		}
		v := r[c.col]
		if v == nil {
			return false
		}
		switch {
		case !c.bound():
			if !slices.Contains(c.literal, fmt.Sprint(v)) {
				return false
			}
		case c.op == "IN":
			list := reflect.ValueOf(vals[i])
			found := false
			for j := range list.Len() {
				found = found || compareValues(v, list.Index(j).Interface()) == 0
			}
			if !found {
				return false
			}
		default:
			if !opHolds(c.op, compareValues(v, vals[i])) {
				return false
			}
		}
	}
	return true
}

// opHolds says whether a comparison that came out d (-1, 0, 1) satisfies op.
func opHolds(op string, d int) bool {
	return map[string]bool{"=": d == 0, ">=": d >= 0, ">": d > 0, "<": d < 0, "<=": d <= 0}[op]
}

// probes are bind-value lists for q: taken from rows of the model spread over the table
// (hits), plus one whose partition key matches nothing (a miss).
func (q *selectQuery) probes(s *tableSchema, rows []row) [][]any {
	var samples []row
	const n = 6
	for i := range min(n, len(rows)) {
		samples = append(samples, rows[i*(len(rows)-1)/max(min(n, len(rows))-1, 1)])
	}
	if !slices.ContainsFunc(q.conds, condition.bound) {
		if q.limitBound {
			return [][]any{{boundLimit}}
		}
		return [][]any{nil} // nothing to bind: one run says it all
	}
	var out [][]any
	for _, r := range samples {
		out = append(out, q.binds(s, r, rows, false))
	}
	var base row
	if len(samples) > 0 {
		base = samples[0]
	}
	return append(out, q.binds(s, base, rows, true))
}

func (q *selectQuery) binds(s *tableSchema, r row, rows []row, miss bool) []any {
	var out []any
	for _, c := range q.conds {
		if !c.bound() {
			continue
		}
		if c.tuple != nil {
			out = append(out, tupleBinds(c, r)...)
			continue
		}
		v := r[c.col]
		if r == nil || miss && slices.Contains(s.partition, c.col) {
			v = missing(s.types[c.col])
		}
		switch c.op {
		case "<", "<=":
			v = later(s.types[c.col], v)
		case "IN":
			list := reflect.MakeSlice(reflect.SliceOf(reflect.TypeOf(v)), 0, 2)
			list = reflect.Append(list, reflect.ValueOf(v))
			for _, o := range rows { // and one other value of the column, if any
				if o[c.col] != nil && compareValues(o[c.col], v) != 0 {
					list = reflect.Append(list, reflect.ValueOf(o[c.col]))
					break
				}
			}
			v = list.Interface()
		}
		out = append(out, v)
	}
	if q.limitBound {
		out = append(out, boundLimit)
	}
	return out
}

// tupleBinds are the values of a tuple bound taken from r: r's own position for a
// lower bound, and three hours after r's creation for an upper one.
func tupleBinds(c condition, r row) []any {
	out := make([]any, len(c.tuple))
	for j, col := range c.tuple {
		out[j] = r[col]
	}
	if at, ok := out[0].(int64); ok && (c.op == "<" || c.op == "<=") {
		out[0] = at + 3*3600
	}
	return out
}

// missing is a value of a CQL type that no row of this chain holds.
func missing(typ string) any {
	switch typ {
	case "int":
		return int32(1 << 30)
	case "tinyint":
		return int8(99)
	case "smallint":
		return int16(9999)
	case "bigint":
		return int64(1 << 40)
	case "timestamp", "date":
		return time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC)
	case "boolean":
		return true
	}
	return "0xmissing"
}

// later is an upper bound a little past v, so that a range keeps some rows and drops others.
func later(typ string, v any) any {
	switch x := v.(type) {
	case int32:
		return x + 10
	case time.Time:
		if typ == "date" {
			return x.AddDate(0, 0, 1)
		}
		return x.Add(3 * time.Hour)
	}
	return v
}

// orderPatterns are promises of a statement's Pattern checked on its result rows.
var orderPatterns = map[string]struct {
	cols []string
	desc bool
}{
	"newest first":        {[]string{"ms_range_id", "milestone_index", "ms_timestamp"}, true},
	"in white-flag order": {[]string{"white_flag_index"}, false},
}

func (e *truthEnv) checkSelects(t *testing.T) {
	special := map[string]func(t *testing.T, st *cql.Statement){
		"system.local": func(t *testing.T, st *cql.Statement) {
			var version string
			if err := e.raw.Scan(context.Background(), st, nil, &version); err != nil || !strings.HasPrefix(version, "5.") {
				t.Errorf("release_version %q (%v), want a Cassandra 5 node", version, err)
			}
		},
		// A write time is no column of the model: every synced milestone's sync row has one,
		// stamped by the coordinator at or before now.
		"sync.write_time": func(t *testing.T, st *cql.Statement) {
			for _, r := range e.model["sync"] {
				var written int64
				err := e.raw.Scan(context.Background(), st, []any{r["ms_range_id"], r["milestone_index"]}, &written)
				if err != nil || written <= 0 || written > time.Now().UnixMicro() {
					t.Fatalf("sync row of %v: write time %d (%v); want one at or before now", r["milestone_index"], written, err)
				}
			}
		},
	}
	// empty are the tables and views the truth says hold nothing: their selects can only be
	// checked to miss. The test fails when one of them gets rows (take it off the list).
	empty := map[string]string{
		"leases":                             "the daily jobs released their leases",
		"nft_outputs_by_dust_return_address": "the sim gives no NFT a storage deposit return",
		"address_balances":                   "no fold runs in this test",
	}
	for table, why := range empty {
		if len(e.model[table]) > 0 {
			t.Errorf("%s is listed as empty (%s) but the truth has %d rows: take it off the list", table, why, len(e.model[table]))
		}
	}
	n := 0
	var summary []string
	for _, st := range cql.Catalogue() {
		if st.Kind != cql.Select {
			continue
		}
		n++
		t.Run(st.Name, func(t *testing.T) {
			f, ok := special[st.Name]
			if !ok {
				f, ok = special[st.Table]
			}
			if ok {
				f(t, st)
				return
			}
			q, err := parseSelect(st.CQL)
			if err != nil {
				t.Fatalf("not covered: %v (teach truth_test.go this select)", err)
			}
			s, rows := e.schema[q.table], e.model[q.table]
			if s == nil || rows == nil {
				t.Fatalf("not covered: no model of %s (teach truth_test.go this table)", q.table)
			}
			hits, returned, probes := 0, 0, q.probes(s, rows)
			for _, binds := range probes {
				want, ordered, err := q.expect(s, rows, binds)
				if err != nil {
					t.Fatalf("not covered: %v", err)
				}
				got, err := e.rows(st.CQL, binds...)
				if err != nil {
					t.Fatalf("binds %s: %v", bindsText(binds), err)
				}
				returned += len(got)
				if len(want) > 0 && (!q.count || valueText(want[0]["count"]) != "0") {
					hits++
				}
				if err := sameRows(got, want, ordered); err != nil {
					t.Errorf("binds %s: %v", bindsText(binds), err)
				}
				for p, o := range orderPatterns {
					if strings.Contains(st.Pattern, p) && ordered {
						if err := checkOrder(got, o.cols, o.desc); err != nil {
							t.Errorf("binds %s: pattern says %q: %v", bindsText(binds), p, err)
						}
					}
				}
			}
			if _, isEmpty := empty[q.table]; hits == 0 && !isEmpty {
				t.Errorf("no probe returned a row: the check would be vacuous")
			}
			summary = append(summary, fmt.Sprintf("%-52s %d probes, %d hits, %4d rows", st.Name, len(probes), hits, returned))
		})
	}
	if n < 60 {
		t.Errorf("the catalogue has only %d selects: did Catalogue() change?", n)
	}
	t.Logf("selects run against the truth:\n%s", strings.Join(summary, "\n"))
}

func sameRows(got, want []row, ordered bool) error {
	if !ordered {
		byText := func(a, b row) int { return strings.Compare(rowText(a), rowText(b)) }
		got, want = slices.Clone(got), slices.Clone(want)
		slices.SortFunc(got, byText)
		slices.SortFunc(want, byText)
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d rows, the truth says %d", len(got), len(want))
	}
	for i := range got {
		if len(got[i]) != len(want[i]) {
			return fmt.Errorf("row %d: columns %v, want %v", i, slices.Sorted(maps.Keys(got[i])), slices.Sorted(maps.Keys(want[i])))
		}
		for col, w := range want[i] {
			if err := sameValue(got[i][col], w); err != nil {
				return fmt.Errorf("row %d: %s = %w", i, col, err)
			}
		}
	}
	return nil
}

// checkOrder: rows are in order on the first of cols the rows hold.
func checkOrder(rows []row, cols []string, desc bool) error {
	for _, c := range cols {
		if len(rows) == 0 {
			return nil
		}
		if _, ok := rows[0][c]; !ok {
			continue
		}
		for i := 1; i < len(rows); i++ {
			if d := compareValues(rows[i-1][c], rows[i][c]); desc && d < 0 || !desc && d > 0 {
				return fmt.Errorf("row %d has %s %s after %s", i, c, valueText(rows[i][c]), valueText(rows[i-1][c]))
			}
		}
		return nil
	}
	return nil
}

func bindsText(binds []any) string {
	parts := make([]string, len(binds))
	for i, b := range binds {
		if reflect.TypeOf(b).Kind() == reflect.Slice {
			parts[i] = fmt.Sprint(b)
			continue
		}
		parts[i] = short(valueText(b))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// keysJSON is the milestone keys as the keyspace records them (docs/schema.md).
func keysJSON(k chain.MilestoneKeys) string {
	ranges := make([]string, len(k.Ranges))
	for i, kr := range k.Ranges {
		ranges[i] = fmt.Sprintf(`{"publicKey":"%x","start":%d,"end":%d}`, kr.PublicKey, kr.Start, kr.End)
	}
	return fmt.Sprintf(`{"threshold":%d,"ranges":[%s]}`, k.Threshold, strings.Join(ranges, ","))
}

// firstMilestoneID is the ID of the truth's first milestone.
func firstMilestoneID(truth *sim.Truth) string { return truth.Milestones[0].MilestoneID.String() }
