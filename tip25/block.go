package tip25

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// BlockJSON is a block (a chain.Message). Payload is nil (omitted), *TaggedDataJSON,
// *TransactionJSON or *MilestoneJSON. Parents keep the block's order, which the codec
// guarantees is ascending: iota.js refuses to serialize unsorted parents.
type BlockJSON struct {
	ProtocolVersion uint8    `json:"protocolVersion"`
	Parents         []string `json:"parents"`
	Payload         any      `json:"payload,omitempty"`
	Nonce           string   `json:"nonce"`
}

// TaggedDataJSON is a tagged-data payload; an empty tag or data is omitted, as iota.go does.
type TaggedDataJSON struct {
	Type uint8  `json:"type"`
	Tag  string `json:"tag,omitempty"`
	Data string `json:"data,omitempty"`
}

// Block returns the TIP-25 form of a block.
func Block(m *chain.Message) (*BlockJSON, error) {
	j := &BlockJSON{ProtocolVersion: m.ProtocolVersion, Parents: ids(m.Parents), Nonce: u64(m.Nonce)}
	switch p := m.Payload.(type) {
	case nil:
	case *chain.TaggedData:
		j.Payload = TaggedData(p)
	case *chain.Transaction:
		tx, err := Transaction(p)
		if err != nil {
			return nil, fmt.Errorf("block payload: %w", err)
		}
		j.Payload = tx
	case *chain.MilestonePayload:
		mp, err := Milestone(p)
		if err != nil {
			return nil, fmt.Errorf("block payload: %w", err)
		}
		j.Payload = mp
	default:
		return nil, fmt.Errorf("%w: block payload %T", ErrUnknownType, p)
	}
	return j, nil
}

// TaggedData returns the TIP-25 form of a tagged-data payload.
func TaggedData(td *chain.TaggedData) *TaggedDataJSON {
	return &TaggedDataJSON{Type: chain.PayloadTaggedData, Tag: optHex(td.Tag), Data: optHex(td.Data)}
}

// ids renders 32-byte IDs (block parents, milestone parents); never null.
func ids[T ~[32]byte](in []T) []string {
	out := make([]string, len(in))
	for i, id := range in {
		out[i] = hexOf(id[:])
	}
	return out
}
