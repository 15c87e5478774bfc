package store

import (
	"encoding/binary"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Spend is the data of a transactions row of variant 'unlock': stored under the spent
// output's transaction ID and index, it names the transaction and input that spent it.
type Spend struct {
	TransactionID chain.TransactionID
	InputIndex    uint16
	Unlock        []byte // chain.EncodeUnlock of the input's unlock
}

// EncodeSpend lays a Spend out as tx ID (32) ‖ input index (uint16 LE) ‖ unlock.
func EncodeSpend(s Spend) []byte {
	b := make([]byte, 0, 34+len(s.Unlock))
	b = append(b, s.TransactionID[:]...)
	b = binary.LittleEndian.AppendUint16(b, s.InputIndex)
	return append(b, s.Unlock...)
}

// DecodeSpend reverses EncodeSpend.
func DecodeSpend(b []byte) (Spend, error) {
	if len(b) < 34 {
		return Spend{}, fmt.Errorf("spend record: %d bytes, want at least 34", len(b))
	}
	var s Spend
	copy(s.TransactionID[:], b[:32])
	s.InputIndex = binary.LittleEndian.Uint16(b[32:34])
	s.Unlock = b[34:]
	return s, nil
}
