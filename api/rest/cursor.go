package rest

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
)

// Cursor says where the next page of a list starts: in which partition and where in
// it. The partition is named by its ms_range_id, not by its position in the hint list,
// so a partition that appears (new milestones) or disappears (expired pending rows)
// between two requests neither repeats nor skips rows: reading resumes at the named
// partition, or at the next older one if it is gone.
type Cursor struct {
	Partition int32  // ms_range_id (0 for lists of one partition)
	State     []byte // Cassandra paging state inside it; empty: from its beginning
}

// Cursor wire format, base64url without padding:
//
//	version u8 | query hash [8] | partition int32 BE | len(state) uvarint | state
const (
	cursorVersion    = 1
	cursorHeaderSize = 1 + len(QueryHash{}) + 4
	// maxStateBytes bounds a paging state: Cassandra's hold a partition key and a
	// clustering position, far below this.
	MaxStateBytes   = 2048
	maxCursorLength = (cursorHeaderSize + binary.MaxVarintLen64 + MaxStateBytes) * 4 / 3
)

func EncodeCursor(c Cursor, h QueryHash) string {
	b := make([]byte, 0, cursorHeaderSize+binary.MaxVarintLen64+len(c.State))
	b = append(b, cursorVersion)
	b = append(b, h[:]...)
	b = binary.BigEndian.AppendUint32(b, uint32(c.Partition))
	b = binary.AppendUvarint(b, uint64(len(c.State)))
	b = append(b, c.State...)
	return base64.RawURLEncoding.EncodeToString(b)
}

var errCursorOtherQuery = errors.New("minted for another query (its parameters differ); start without a cursor")

// DecodeCursor accepts only what encodeCursor produced for a query with hash h.
func DecodeCursor(s string, h QueryHash) (Cursor, error) {
	if s == "" || len(s) > maxCursorLength {
		return Cursor{}, fmt.Errorf("length %d, want 1..%d", len(s), maxCursorLength)
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		return Cursor{}, errors.New("not base64url without padding")
	}
	if len(b) < cursorHeaderSize+1 || b[0] != cursorVersion {
		return Cursor{}, errors.New("unknown format")
	}
	if QueryHash(b[1:9]) != h {
		return Cursor{}, errCursorOtherQuery
	}
	c := Cursor{Partition: int32(binary.BigEndian.Uint32(b[9:13]))}
	if c.Partition < 0 {
		return Cursor{}, errors.New("negative partition")
	}
	n, used := binary.Uvarint(b[cursorHeaderSize:])
	rest := b[cursorHeaderSize+max(used, 0):]
	switch {
	case used <= 0 || used != len(binary.AppendUvarint(nil, n)):
		return Cursor{}, errors.New("bad state length")
	case n > MaxStateBytes || n != uint64(len(rest)):
		return Cursor{}, errors.New("state length does not match")
	}
	if n > 0 {
		c.State = rest
	}
	return c, nil
}
