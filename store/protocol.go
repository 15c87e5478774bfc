package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// protocolConcern is the indexer_meta row holding the network's protocol parameters and
// base token as the source last reported them (served by the node interface's /info).
const protocolConcern = "protocol"

// ProtocolRecord is what a keyspace records of its network beyond NetworkRecord: the
// protocol parameters in force and the base token. BaseToken is nil when the source
// named none. Its JSON is protocolJSON's.
type ProtocolRecord struct {
	Params    chain.ProtocolParameters
	BaseToken *chain.BaseToken
}

// ProtocolRecordOf is the record of a network.
func ProtocolRecordOf(n chain.Network) ProtocolRecord {
	rec := ProtocolRecord{Params: n.Params}
	if n.BaseToken != (chain.BaseToken{}) {
		bt := n.BaseToken
		rec.BaseToken = &bt
	}
	return rec
}

// recordProtocol records the network's protocol parameters and base token unless the
// keyspace holds them already. Parameters can change over a network's life (a protocol
// upgrade), so, unlike the network, a later report replaces an earlier one: the
// watermark is the time of the report, and a newer report wins.
func (st *Store) recordProtocol(ctx context.Context, n chain.Network, node string) error {
	want := ProtocolRecordOf(n)
	got, ok, err := st.Protocol(ctx)
	if err != nil || ok && got.equal(want) {
		return err
	}
	st.protocol.Store(&want)
	value, _ := json.Marshal(want)
	if _, err := st.AdvanceWatermark(ctx, protocolConcern, time.Now().UnixMicro(), string(value), node); err != nil {
		return fmt.Errorf("recording protocol parameters: %w", err)
	}
	return nil
}

func (r ProtocolRecord) equal(o ProtocolRecord) bool {
	a, _ := json.Marshal(r)
	b, _ := json.Marshal(o)
	return string(a) == string(b)
}

// Protocol reads the recorded protocol parameters and base token; ok is false in a
// keyspace written before they were recorded (or before any indexer ran).
func (st *Store) Protocol(ctx context.Context) (ProtocolRecord, bool, error) {
	rec, ok, err := metaJSON[ProtocolRecord](ctx, st, protocolConcern)
	if ok && err == nil {
		st.protocol.Store(&rec)
	}
	return rec, ok, err
}

// KnownProtocol is the protocol record this store last read or recorded (Protocol,
// EnsureNetwork), without a read: for row builders that have no context. ok is false
// before either.
func (st *Store) KnownProtocol() (ProtocolRecord, bool) {
	if rec := st.protocol.Load(); rec != nil {
		return *rec, true
	}
	return ProtocolRecord{}, false
}
