// Package archive writes confirmed milestones to an archive file and serves them back
// as a source (source.Source), so a keyspace can be rebuilt without a node.
//
// An archive is one gzip stream (docs/archive.md gives the format byte by byte):
//
//	magic "SDXARCH\n" ‖ version u16 ‖ header length u32 ‖ header JSON ‖ CRC32C u32
//	records: length u32 ‖ body ‖ CRC32C(length ‖ body) u32   (one per milestone, in order)
//	end:     length 0 u32 ‖ record count u32 ‖ CRC32C(both) u32
//
// Integers are little-endian. Every milestone's record is read and checked whole
// before it is handed on: a bad record is refused, naming its number and offset.
package archive

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Magic opens every archive (after decompression); Version is the format written.
const (
	Magic   = "SDXARCH\n"
	Version = 1
	// maxHeader bounds the header JSON.
	maxHeader = 1 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Header names what an archive holds: the network (what its milestones are verified
// against; the keys come from the importer, never from the archive) and the range.
type Header struct {
	Network  store.NetworkRecord   `json:"network"`
	Protocol *store.ProtocolRecord `json:"protocol,omitempty"`
	From     uint32                `json:"from"`
	To       uint32                `json:"to"`
	Created  time.Time             `json:"created"`
}

// ErrCorrupt is wrapped by every refusal of an archive's bytes.
var ErrCorrupt = errors.New("archive: corrupt")

// CorruptError is an archive refused at a record: its number (0 is the header, 1 the
// first milestone) and the offset of its first byte in the decompressed stream.
type CorruptError struct {
	File   string
	Record int
	Offset int64
	Err    error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("archive %s: record %d at offset %d: %v", e.File, e.Record, e.Offset, e.Err)
}
func (e *CorruptError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

// encodeMilestone lays out a record body:
//
//	index u32 ‖ payload bytes ‖ messages u32 ‖ each: white-flag index u32,
//	inclusion state u8, conflict reason u8, raw bytes ‖ created u32 ‖ each: output ‖
//	consumed u32 ‖ each: output, spent-by transaction ID [32], spent milestone u32,
//	spent time i64
//
// where bytes is a u32 length then the bytes, and output is output ID [34], message ID
// [32], milestone u32, time i64 (unix seconds), output bytes (chain.EncodeOutput).
func encodeMilestone(cm *chain.ConfirmedMilestone) []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, cm.Index)
	b = appendBytes(b, cm.Milestone.Encode())
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cm.Messages)))
	for i := range cm.Messages {
		rm := &cm.Messages[i]
		b = binary.LittleEndian.AppendUint32(b, rm.WhiteFlagIndex)
		b = append(b, byte(rm.InclusionState), byte(rm.ConflictReason))
		b = appendBytes(b, rm.Raw)
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cm.Created)))
	for i := range cm.Created {
		b = appendOutput(b, &cm.Created[i])
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(len(cm.Consumed)))
	for i := range cm.Consumed {
		ls := &cm.Consumed[i]
		b = appendOutput(b, &ls.LedgerOutput)
		b = append(b, ls.SpentBy[:]...)
		b = binary.LittleEndian.AppendUint32(b, ls.SpentMilestoneIndex)
		b = binary.LittleEndian.AppendUint64(b, uint64(ls.SpentTimestamp.Unix()))
	}
	return b
}

func appendBytes(b, v []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	return append(b, v...)
}

func appendOutput(b []byte, lo *chain.LedgerOutput) []byte {
	b = append(b, lo.OutputID[:]...)
	b = append(b, lo.MessageID[:]...)
	b = binary.LittleEndian.AppendUint32(b, lo.MilestoneIndex)
	b = binary.LittleEndian.AppendUint64(b, uint64(lo.Timestamp.Unix()))
	return appendBytes(b, chain.EncodeOutput(lo.Output))
}
