// Package realdata loads the real Shimmer fixtures in testdata/realdata (exported by
// inx-chronicle, see testdata/realdata/README.md) for tests in other packages.
//
// Outputs and milestone payloads in those files are in Chronicle's JSON model; this package
// serializes them to Stardust wire bytes with its own code (SerializeOutput,
// SerializeMilestonePayload), independent of the project's codec, so that tests can use the bytes
// as a check on that codec. Its own tests prove the serializer against the raw blocks. It takes
// only chain's parameter types (protocol parameters, key ranges, base token), never its codec.
//
// The returned values are shared between callers: treat them as read-only.
package realdata

import (
	"encoding/json"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Set is the content of shimmer_ms_17339_17340.json.
type Set struct {
	Milestones   map[uint32]*Milestone    // keyed by index: 17339, 17340
	Protocol     chain.ProtocolParameters // protocol parameters in force (equal for both milestones)
	KeyRanges    []chain.KeyRange         // node_config.milestone_key_ranges
	KeyThreshold int                      // node_config.milestone_public_key_count
	BaseToken    chain.BaseToken          // node_config.base_token
}

// Milestone is one milestone of the data: its payload, cone and ledger changes.
type Milestone struct {
	Index, Timestamp    uint32
	MilestoneID         [32]byte // as recorded by Chronicle
	ProtocolVersion     uint8
	PreviousMilestoneID [32]byte
	Parents             [][32]byte
	InclusionMerkleRoot [32]byte
	AppliedMerkleRoot   [32]byte
	Metadata            []byte
	Signatures          []Signature
	Payload             []byte // whole payload from the JSON: uint32 type 7, essence, signatures
	Essence             []byte // index .. options; its BLAKE2b-256 is the milestone ID
	Cone                []Block
	Created             []Output
	Consumed            []Spent
}

// Signature is one Ed25519 milestone signature.
type Signature struct {
	PublicKey [32]byte
	Signature [64]byte
}

// Block is a block with its metadata, in TIP-25 terms.
type Block struct {
	ID             [32]byte
	Raw            []byte
	Parents        [][32]byte
	ReferencedBy   uint32 // milestone index that referenced the block
	MilestoneIndex uint32 // for milestone blocks: the index they carry; else 0
	InclusionState string // "noTransaction", "included" or "conflicting"
	ConflictReason uint8  // TIP-25 code: 0 none, 1..12, 255
	WhiteFlagIndex uint32
}

// Output is a ledger output record.
type Output struct {
	OutputID        [34]byte // transaction ID ‖ index uint16 LE
	BlockID         [32]byte // all zero for genesis outputs
	Booked          uint32   // milestone index that booked the output
	BookedTimestamp uint32
	Raw             []byte          // wire bytes serialized by SerializeOutput from JSON
	JSON            json.RawMessage // Chronicle's output object as in the file
	RentKeyBytes    uint32          // Chronicle's rent_structure.num_key_bytes
	RentDataBytes   uint32          // Chronicle's rent_structure.num_data_bytes
}

// Spent is a consumed output record.
type Spent struct {
	Output
	SpentBy        [32]byte // transaction ID that spent it
	Spent          uint32   // milestone index
	SpentTimestamp uint32
}

// Lowest returns the lowest milestone index of the set.
func (s *Set) Lowest() uint32 { return s.bound(func(a, b uint32) bool { return a < b }) }

// Highest returns the highest milestone index of the set.
func (s *Set) Highest() uint32 { return s.bound(func(a, b uint32) bool { return a > b }) }

func (s *Set) bound(better func(a, b uint32) bool) uint32 {
	var best uint32
	first := true
	for i := range s.Milestones {
		if first || better(i, best) {
			best, first = i, false
		}
	}
	return best
}
