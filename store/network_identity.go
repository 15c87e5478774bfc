package store

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// keysConcern is the indexer_meta row holding the milestone keys a keyspace's milestones
// were verified against.
const keysConcern = "milestone_keys"

// ErrKeysChanged refuses a source whose network, though of the recorded name, HRP and
// ID, verifies milestones against other keys: a private network reset under the same
// name. Keys may be added (a key rotation), never replaced.
var ErrKeysChanged = fmt.Errorf("%w: the milestone keys differ from those the keyspace recorded (a network reset?)",
	ErrNetworkMismatch)

// ErrChainBreak refuses a milestone whose previous milestone ID is not the one the
// keyspace holds for the milestone before it (or the other way round): the source serves
// another chain of the same network name, such as a private network reset.
var ErrChainBreak = fmt.Errorf("%w: the milestone does not continue the chain the keyspace holds (a network reset?)",
	ErrNetworkMismatch)

// keyRecord is the JSON of one recorded key range.
type keyRecord struct {
	PublicKey string `json:"publicKey"`
	Start     uint32 `json:"start"`
	End       uint32 `json:"end"`
}

type keysRecord struct {
	Threshold int         `json:"threshold"`
	Ranges    []keyRecord `json:"ranges"`
}

func recordKeys(k chain.MilestoneKeys) keysRecord {
	rec := keysRecord{Threshold: k.Threshold, Ranges: make([]keyRecord, len(k.Ranges))}
	for i, kr := range k.Ranges {
		rec.Ranges[i] = keyRecord{PublicKey: hex.EncodeToString(kr.PublicKey[:]), Start: kr.Start, End: kr.End}
	}
	return rec
}

// keys is the recorded keys as chain verifies with them (recordKeys undone).
func (rec keysRecord) keys() (chain.MilestoneKeys, error) {
	keys := chain.MilestoneKeys{Threshold: rec.Threshold, Ranges: make([]chain.KeyRange, len(rec.Ranges))}
	for i, r := range rec.Ranges {
		key, err := hex.DecodeString(r.PublicKey)
		if err != nil || len(key) != len(keys.Ranges[i].PublicKey) {
			return chain.MilestoneKeys{}, fmt.Errorf("indexer_meta %s: public key %q is not 32 bytes of hex: %w",
				keysConcern, r.PublicKey, err)
		}
		keys.Ranges[i] = chain.KeyRange{Start: r.Start, End: r.End}
		copy(keys.Ranges[i].PublicKey[:], key)
	}
	return keys, nil
}

// ensureMilestoneKeys records the keys on first use; later, every recorded range must
// still be among the source's, with the same threshold (ErrKeysChanged). A source
// without keys (none configured) is not checked.
func (st *Store) ensureMilestoneKeys(ctx context.Context, k chain.MilestoneKeys, node string) error {
	if len(k.Ranges) == 0 {
		return nil
	}
	want := recordKeys(k)
	value, _ := json.Marshal(want)
	applied, current, err := st.s.CAS(ctx, cql.InitMeta, keysConcern, string(value), int64(0), node)
	if err != nil || applied {
		return err
	}
	text, _ := current["value"].(string)
	var got keysRecord
	if err := json.Unmarshal([]byte(text), &got); err != nil {
		return fmt.Errorf("indexer_meta %s %q: %w", keysConcern, text, err)
	}
	return keysCover(want, got)
}

// keysCover checks that have keeps every range of recorded and its threshold.
func keysCover(have, recorded keysRecord) error {
	if have.Threshold != recorded.Threshold {
		return fmt.Errorf("%w: threshold %d, recorded %d", ErrKeysChanged, have.Threshold, recorded.Threshold)
	}
	kept := map[keyRecord]bool{}
	for _, r := range have.Ranges {
		kept[r] = true
	}
	for _, r := range recorded.Ranges {
		if !kept[r] {
			return fmt.Errorf("%w: the recorded key %s (milestones %d..%d) is not among the source's",
				ErrKeysChanged, r.PublicKey, r.Start, r.End)
		}
	}
	return nil
}

// CheckPrevious checks that cm continues the chain the keyspace holds: the milestone
// before it, when indexed, is the one cm names as previous (else ErrChainBreak).
func (st *Store) CheckPrevious(ctx context.Context, cm *chain.ConfirmedMilestone) error {
	if cm.Index <= 1 {
		return nil
	}
	prev, err := st.indexedMilestoneID(ctx, cm.Index-1)
	if err != nil || prev == "" || prev == cm.PreviousMilestoneID.String() {
		return err
	}
	return fmt.Errorf("%w: milestone %d names %s as previous, the keyspace holds %s for %d",
		ErrChainBreak, cm.Index, cm.PreviousMilestoneID, prev, cm.Index-1)
}

// CheckNext checks that the milestone after cm, when indexed, names cm as its previous
// (else ErrChainBreak).
func (st *Store) CheckNext(ctx context.Context, cm *chain.ConfirmedMilestone) error {
	next, err := st.Milestone(ctx, cm.Index+1)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil
	case err != nil:
		return err
	}
	mp, err := chain.DecodeMilestonePayload(next.Payload)
	if err != nil {
		return fmt.Errorf("milestone %d as stored: %w", cm.Index+1, err)
	}
	if mp.PreviousMilestoneID != cm.MilestoneID {
		return fmt.Errorf("%w: the keyspace's milestone %d names %s as previous, the source's %d is %s",
			ErrChainBreak, cm.Index+1, mp.PreviousMilestoneID, cm.Index, cm.MilestoneID)
	}
	return nil
}

// indexedMilestoneID is the ID of milestone index as indexed ("" when not indexed).
func (st *Store) indexedMilestoneID(ctx context.Context, index uint32) (string, error) {
	m, err := st.Milestone(ctx, index)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	return m.MilestoneID, err
}

// anchorConcern is the indexer_meta row naming the first milestone indexed into the
// keyspace ("<index> <milestone ID>"): a milestone the source must agree on when it
// holds it (see ingest's start).
const anchorConcern = "anchor_milestone"

// RecordAnchor records cm as the keyspace's anchor milestone unless one is recorded.
func (st *Store) RecordAnchor(ctx context.Context, cm *chain.ConfirmedMilestone, node string) error {
	value := fmt.Sprintf("%d %s", cm.Index, cm.MilestoneID)
	if _, _, err := st.s.CAS(ctx, cql.InitMeta, anchorConcern, value, int64(0), node); err != nil {
		return fmt.Errorf("recording the anchor milestone: %w", err)
	}
	return nil
}

// Anchor is the keyspace's anchor milestone (ok false while none is recorded).
func (st *Store) Anchor(ctx context.Context) (index uint32, id string, ok bool, err error) {
	value, _, _, err := st.Meta(ctx, anchorConcern)
	if errors.Is(err, ErrNotFound) {
		return 0, "", false, nil
	}
	if err != nil {
		return 0, "", false, err
	}
	if _, err := fmt.Sscanf(value, "%d %s", &index, &id); err != nil {
		return 0, "", false, fmt.Errorf("indexer_meta %s %q: %w", anchorConcern, value, err)
	}
	return index, id, true, nil
}
