package realdata

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
)

// inclusionStates maps Chronicle's snake_case ledger inclusion states to TIP-25's spelling.
var inclusionStates = map[string]string{
	"no_transaction": "noTransaction",
	"included":       "included",
	"conflicting":    "conflicting",
}

// conflictReasons maps Chronicle's conflict reason names (its ConflictReason enum, snake_case)
// to the TIP-25 codes.
var conflictReasons = map[string]uint8{
	"none":                     0,
	"input_utxo_already_spent": 1,
	"input_utxo_already_spent_in_this_milestone": 2,
	"input_utxo_not_found":                       3,
	"created_consumed_amount_mismatch":           4,
	"invalid_signature":                          5,
	"timelock_not_expired":                       6,
	"invalid_native_tokens":                      7,
	"storage_deposit_return_unfulfilled":         8,
	"invalid_unlock":                             9,
	"inputs_commitments_mismatch":                10,
	"unverified_sender":                          11,
	"invalid_chain_state_transition":             12,
	"semantic_validation_failed":                 255,
}

// convertBlock builds a Block from a file record; id is the recorded block ID.
func convertBlock(fb fileBlock, id bin) (Block, error) {
	var b Block
	if err := exact(b.ID[:], id, "block ID"); err != nil {
		return b, err
	}
	m := fb.Metadata
	state, ok := inclusionStates[m.InclusionState]
	if !ok {
		return b, fmt.Errorf("block %x: unknown inclusion state %q", b.ID, m.InclusionState)
	}
	reason, ok := conflictReasons[m.ConflictReason]
	if !ok {
		return b, fmt.Errorf("block %x: unknown conflict reason %q", b.ID, m.ConflictReason)
	}
	for _, p := range m.Parents {
		if len(p) != 32 {
			return b, fmt.Errorf("block %x: parent of %d bytes", b.ID, len(p))
		}
	}
	b.Raw, b.Parents = fb.Raw, ids32(m.Parents)
	b.ReferencedBy, b.MilestoneIndex, b.WhiteFlagIndex = m.ReferencedByMilestoneIndex, m.MilestoneIndex, m.WhiteFlagIndex
	b.InclusionState, b.ConflictReason = state, reason
	return b, nil
}

// convertCone converts a cone keyed by white-flag index, checks each key against the block's
// own index and returns the blocks in white-flag order.
func convertCone(cone map[string]fileBlock) ([]Block, error) {
	out := make([]Block, 0, len(cone))
	for key, fb := range cone {
		b, err := convertBlock(fb, fb.BlockID)
		if err != nil {
			return nil, err
		}
		if key != strconv.FormatUint(uint64(b.WhiteFlagIndex), 10) {
			return nil, fmt.Errorf("cone key %s holds white-flag index %d", key, b.WhiteFlagIndex)
		}
		out = append(out, b)
	}
	sortByWhiteFlag(out)
	return out, nil
}

func sortByWhiteFlag(bs []Block) {
	slices.SortFunc(bs, func(a, b Block) int { return int(a.WhiteFlagIndex) - int(b.WhiteFlagIndex) })
}

// BlockPayload returns the payload bytes of a raw block (from its uint32 payload type on; nil
// when the block has none), checking only the framing of TIP-24: version, parents, payload
// length, nonce and no trailing bytes.
func BlockPayload(raw []byte) ([]byte, error) {
	if len(raw) < 2 {
		return nil, fmt.Errorf("block: %d bytes", len(raw))
	}
	off := 2 + 32*int(raw[1])
	if len(raw) < off+4 {
		return nil, fmt.Errorf("block: too short for %d parents", raw[1])
	}
	n := int(binary.LittleEndian.Uint32(raw[off:]))
	off += 4
	if len(raw)-off-8 != n {
		return nil, fmt.Errorf("block: payload length %d, but %d bytes between it and the nonce", n, len(raw)-off-8)
	}
	if n == 0 {
		return nil, nil
	}
	return raw[off : off+n : off+n], nil
}

// PayloadType returns the uint32 type of a payload (0 if shorter than 4 bytes, which no
// Stardust payload is).
func PayloadType(payload []byte) uint32 {
	if len(payload) < 4 {
		return 0
	}
	return binary.LittleEndian.Uint32(payload)
}
