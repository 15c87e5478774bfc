package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// networkConcern is the indexer_meta row naming the network a keyspace indexes.
const networkConcern = "network"

// ErrNetworkMismatch: the keyspace indexes another network (or an older format).
var ErrNetworkMismatch = errors.New("keyspace indexes another network")

// NetworkRecord is what a keyspace records of its network: enough to refuse another
// network's data and to render addresses (bech32 HRP) as the network does.
type NetworkRecord struct {
	Name      string `json:"name"`
	HRP       string `json:"bech32Hrp"`
	NetworkID string `json:"networkId"` // decimal uint64, as nodes print it
}

// RecordOf is the record of a network.
func RecordOf(n chain.Network) NetworkRecord {
	return NetworkRecord{Name: n.Name, HRP: n.HRP, NetworkID: fmt.Sprint(n.ID())}
}

// EnsureNetwork records the network on first use and refuses another one later. A
// keyspace that synced milestones before any network was recorded holds the simulated
// chain's former format and is refused too. On success the store renders addresses
// under the network's HRP, and the network's protocol parameters and base token are
// recorded (see recordProtocol), and so are its milestone keys (ErrKeysChanged).
func (st *Store) EnsureNetwork(ctx context.Context, n chain.Network, node string) error {
	want := RecordOf(n)
	got, recorded, err := st.readNetwork(ctx)
	if err != nil {
		return err
	}
	if !recorded {
		// Checked before recording: once recorded, an older keyspace would pass for new.
		if err := st.refuseUnrecordedData(ctx); err != nil {
			return err
		}
		if got, err = st.recordNetwork(ctx, want, node); err != nil {
			return err
		}
	}
	if got != want {
		return fmt.Errorf("%w: keyspace holds %s (hrp %s), the source is %s (hrp %s)",
			ErrNetworkMismatch, got.Name, got.HRP, want.Name, want.HRP)
	}
	if err := st.ensureMilestoneKeys(ctx, n.Keys, node); err != nil {
		return err
	}
	st.network.Store(&want)
	return st.recordProtocol(ctx, n, node)
}

// recordNetwork records want unless another node recorded a network first; it returns
// the network recorded.
func (st *Store) recordNetwork(ctx context.Context, want NetworkRecord, node string) (NetworkRecord, error) {
	value, _ := json.Marshal(want)
	applied, current, err := st.s.CAS(ctx, cql.InitMeta, networkConcern, string(value), int64(0), node)
	if err != nil || applied {
		return want, err
	}
	return parseNetwork(current["value"])
}

// refuseUnrecordedData fails when milestones were synced before the network was
// recorded: they were written in a format this version no longer reads.
func (st *Store) refuseUnrecordedData(ctx context.Context) error {
	_, w, _, err := st.Meta(ctx, NewestSyncedConcern)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil
	case err != nil:
		return err
	case w > 0:
		return fmt.Errorf("%w: the keyspace synced milestones up to %d before any network was recorded "+
			"(an older format); index into a new keyspace", ErrNetworkMismatch, w)
	}
	return nil
}

func parseNetwork(v any) (NetworkRecord, error) {
	var rec NetworkRecord
	text, _ := v.(string)
	if err := json.Unmarshal([]byte(text), &rec); err != nil {
		return rec, fmt.Errorf("indexer_meta network %q: %w", text, err)
	}
	return rec, nil
}

// Network returns the keyspace's network, reading it once recorded (ok false while no
// indexer has recorded one).
func (st *Store) Network(ctx context.Context) (NetworkRecord, bool, error) {
	if rec := st.network.Load(); rec != nil {
		return *rec, true, nil
	}
	rec, ok, err := st.readNetwork(ctx)
	if ok && err == nil {
		st.network.Store(&rec)
	}
	return rec, ok, err
}

func (st *Store) readNetwork(ctx context.Context) (NetworkRecord, bool, error) {
	value, _, _, err := st.Meta(ctx, networkConcern)
	if errors.Is(err, ErrNotFound) {
		return NetworkRecord{}, false, nil
	}
	if err != nil {
		return NetworkRecord{}, false, err
	}
	rec, err := parseNetwork(value)
	return rec, err == nil, err
}

// HRP is the bech32 HRP addresses are stored under: the recorded network's, once known
// to this store (EnsureNetwork, or a successful Network).
func (st *Store) HRP() string {
	if rec := st.network.Load(); rec != nil {
		return rec.HRP
	}
	return ""
}

// SetNetwork sets the network without recording it: for a store that only builds rows
// offline (benchmarks), never for one that writes a keyspace (use EnsureNetwork).
func (st *Store) SetNetwork(rec NetworkRecord) { st.network.Store(&rec) }

// MilestoneKeys are the milestone keys the keyspace recorded when its first milestone
// was indexed (every indexed milestone verified against them); ErrNotFound while none
// are recorded.
func (st *Store) MilestoneKeys(ctx context.Context) (chain.MilestoneKeys, error) {
	rec, ok, err := metaJSON[keysRecord](ctx, st, keysConcern)
	if err != nil {
		return chain.MilestoneKeys{}, err
	}
	if !ok {
		return chain.MilestoneKeys{}, ErrNotFound
	}
	return rec.keys()
}
