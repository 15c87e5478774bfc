package wallet

import (
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Bounds of one request: its addresses and the outputs of its page.
const (
	MaxAddresses    = 1000
	MaxPageSize     = 1000
	DefaultPageSize = 100
)

// outputsBody is the body of POST /api/wallet/v1/outputs.
type outputsBody struct {
	Addresses    []string `json:"addresses"`
	LedgerIndex  *uint32  `json:"ledgerIndex"`
	IncludeSpent bool     `json:"includeSpent"`
	Cursor       string   `json:"cursor"`
	PageSize     *int     `json:"pageSize"`
}

// syncRequest is a validated body: its addresses as the keyspace stores them (bech32
// under the network's HRP, in the body's order, each once), the ledger index it asks
// for (nil: the ledger index; a cursor carries the first page's), and where its page
// starts.
type syncRequest struct {
	addresses    []string
	asked        *uint32
	includeSpent bool
	at           place
	size         int
}

// place is where a page starts: an address (its position among the body's addresses,
// each counted once) and, among its outputs in TIP-26 order, the first of the page.
type place struct {
	address int
	from    store.Position
}

// parseRequest reads and checks a body; every refusal names the member at fault (an
// address by its position).
func parseRequest(body io.Reader, hrp string) (*syncRequest, error) {
	var b outputsBody
	if err := rest.ReadJSONBody(body, &b, `an object {"addresses": [...], "ledgerIndex", "includeSpent", "cursor", "pageSize"}`); err != nil {
		return nil, err
	}
	if n := len(b.Addresses); n == 0 || n > MaxAddresses {
		return nil, rest.BadParam("addresses", "%d addresses; give 1 to %d", n, MaxAddresses)
	}
	req := &syncRequest{asked: b.LedgerIndex, includeSpent: b.IncludeSpent, size: DefaultPageSize}
	if b.PageSize != nil {
		if *b.PageSize < 1 || *b.PageSize > MaxPageSize {
			return nil, rest.BadParam("pageSize", "%d; give 1 to %d", *b.PageSize, MaxPageSize)
		}
		req.size = *b.PageSize
	}
	seen := make(map[string]bool, len(b.Addresses))
	for k, text := range b.Addresses {
		a, err := chain.ParseAddress(text)
		if err != nil {
			return nil, rest.BadParam(fmt.Sprintf("addresses[%d]", k), "%v", err)
		}
		if local := a.Bech32(hrp); !seen[local] {
			seen[local] = true
			req.addresses = append(req.addresses, local)
		}
	}
	return req, req.readCursor(b.Cursor)
}

// A cursor is "address,createdAt,outputID,ledgerIndex,walk": the next page's place (the
// address's position and its first output's place in TIP-26 order), the ledger index
// every page of the walk is answered at, and a digest of what the walk asks for (its
// addresses and includeSpent): a cursor sent with other addresses is refused, since its
// place would name another address.
func (r *syncRequest) readCursor(c string) error {
	if c == "" {
		return nil
	}
	parts := strings.Split(c, ",")
	bad := func() error { return rest.BadParam("cursor", "%q is not a cursor this route gave", c) }
	if len(parts) != 5 {
		return bad()
	}
	if parts[4] != r.walk() {
		return rest.BadParam("cursor", "it walks other addresses (or includeSpent); send the body of its first page")
	}
	k, err0 := strconv.Atoi(parts[0])
	at, err1 := strconv.ParseInt(parts[1], 10, 64)
	id, err2 := chain.ParseOutputID(parts[2])
	index, err3 := strconv.ParseUint(parts[3], 10, 32)
	if err0 != nil || err1 != nil || err2 != nil || err3 != nil || k < 0 || k >= len(r.addresses) {
		return bad()
	}
	if r.asked != nil && *r.asked != uint32(index) {
		return rest.BadParam("cursor", "it walks ledger index %d, the body asks for %d", index, *r.asked)
	}
	li := uint32(index)
	r.at, r.asked = place{address: k, from: store.Position{CreatedAt: at, OutputID: id.String()}}, &li
	return nil
}

func (r *syncRequest) cursorOf(p place, ledgerIndex uint32) string {
	return fmt.Sprintf("%d,%d,%s,%d,%s", p.address, p.from.CreatedAt, p.from.OutputID, ledgerIndex, r.walk())
}

// walk is the digest of what a walk asks for.
func (r *syncRequest) walk() string {
	h := fnv.New64a()
	for _, a := range r.addresses {
		h.Write([]byte(a))
		h.Write([]byte{0})
	}
	fmt.Fprint(h, r.includeSpent)
	return strconv.FormatUint(h.Sum64(), 36)
}
