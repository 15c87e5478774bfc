package ledgerquery

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// A TIP-26 cursor, as inx-indexer (Stardust) mints it: 8 hex digits of the creation
// time (unix seconds), the 34-byte output ID in hex, then "." and the page size. It is
// the position of the first item of the next page (inclusive).
const (
	timeDigits     = 8
	outputIDDigits = 68
	cursorDigits   = timeDigits + outputIDDigits // inx-indexer's CursorLength (76)
)

// ErrCursor is why a cursor is refused.
var ErrCursor = errors.New("want <8 hex digits of creation time><68 hex digits of output ID>.<page size>")

// EncodeCursor is the TIP-26 cursor of position p for pages of pageSize.
func EncodeCursor(p store.Position, pageSize int) string {
	id := strings.TrimPrefix(p.OutputID, "0x")
	if id == "" {
		id = strings.Repeat("0", outputIDDigits)
	}
	return fmt.Sprintf("%08x%s.%d", uint32(p.CreatedAt), id, pageSize)
}

// NewestSuffix ends a newest-first cursor: a cursor is a position in one order, so a
// request of the other order refuses it.
const NewestSuffix = ".newest"

// ErrCursorOrder is why a cursor of one order is refused on a request of the other.
var ErrCursorOrder = errors.New("the cursor is of the other sort order")

// EncodeSortedCursor is EncodeCursor for oldest-first pages and EncodeCursor with
// ".newest" for newest-first ones, where p is where the next page starts going down:
// its first item lies at or before p.
func EncodeSortedCursor(p store.Position, pageSize int, newest bool) string {
	if !newest {
		return EncodeCursor(p, pageSize)
	}
	if p.OutputID == "" { // every ID at p's time: the largest
		p.OutputID = "0x" + strings.Repeat("f", outputIDDigits)
	}
	return EncodeCursor(p, pageSize) + NewestSuffix
}

// DecodeSortedCursor reads a cursor of a page in the given order: ErrCursorOrder when
// it is of the other.
func DecodeSortedCursor(s string, newest bool) (store.Position, int, error) {
	body, isNewest := strings.CutSuffix(s, NewestSuffix)
	p, size, err := DecodeCursor(body)
	if err == nil && isNewest != newest {
		return store.Position{}, 0, ErrCursorOrder
	}
	return p, size, err
}

// DecodeCursor reads a TIP-26 cursor: its position and the page size it names (any
// positive number; the caller bounds it). Hex digits may be of either case.
func DecodeCursor(s string) (store.Position, int, error) {
	body, size, ok := strings.Cut(s, ".")
	if !ok || len(body) != cursorDigits {
		return store.Position{}, 0, ErrCursor
	}
	body = strings.ToLower(body)
	if _, err := hex.DecodeString(body); err != nil {
		return store.Position{}, 0, fmt.Errorf("%w: not hex", ErrCursor)
	}
	at, _ := strconv.ParseUint(body[:timeDigits], 16, 32)
	n, err := strconv.ParseUint(size, 10, 31)
	if err != nil || n == 0 || strconv.FormatUint(n, 10) != size {
		return store.Position{}, 0, fmt.Errorf("%w: page size %q", ErrCursor, size)
	}
	return store.Position{CreatedAt: int64(at), OutputID: "0x" + body[timeDigits:]}, int(n), nil
}

// Successor is the first position after p: the next output ID at the same time, or the
// next second when p's ID is the largest one. Positions are compared as the tables
// order them: time, then the output ID's lowercase 0x-hex text (its bytes' order).
func Successor(p store.Position) store.Position {
	digits := []byte(strings.TrimPrefix(p.OutputID, "0x"))
	if len(digits) != outputIDDigits {
		// Not a canonical ID (the zero position ""): the smallest canonical ID follows it.
		return store.Position{CreatedAt: p.CreatedAt, OutputID: "0x" + strings.Repeat("0", outputIDDigits)}
	}
	for i := len(digits) - 1; i >= 0; i-- {
		switch digits[i] {
		case 'f':
			digits[i] = '0'
			continue
		case '9':
			digits[i] = 'a'
		default:
			digits[i]++
		}
		return store.Position{CreatedAt: p.CreatedAt, OutputID: "0x" + string(digits)}
	}
	if p.CreatedAt == math.MaxInt64 {
		return p
	}
	return store.Position{CreatedAt: p.CreatedAt + 1, OutputID: ""}
}

// Less orders positions in TIP-26 order.
func Less(a, b store.Position) bool {
	if a.CreatedAt != b.CreatedAt {
		return a.CreatedAt < b.CreatedAt
	}
	return a.OutputID < b.OutputID
}

// PositionOf is where a row lies in TIP-26 order.
func PositionOf(r *store.UnspentRow) store.Position {
	return store.Position{CreatedAt: r.CreatedAt, OutputID: r.OutputID}
}
