package rest

import (
	"encoding/binary"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// bech32Slots is the size of the cache of addresses' bech32 text.
const bech32Slots = 1024

// bech32Cache remembers the bech32 text of recently shown addresses, one per slot picked
// by the address's first bytes (a hash: spread evenly). A page of outputs by address
// names the queried address on every row, and an address is 0.5 µs and a few
// allocations to encode: uncached, bech32 takes 15% of the API's CPU on that route.
type bech32Cache struct {
	mu    sync.Mutex
	slots [bech32Slots]bech32Slot
}

type bech32Slot struct {
	hrp  string
	addr chain.Address
	text string
}

var AddressNames bech32Cache

// Text is a.Bech32(hrp), from the cache when the slot holds it.
func (c *bech32Cache) Text(a *chain.Address, hrp string) string {
	i := binary.LittleEndian.Uint16(a.ID[:2]) % bech32Slots
	c.mu.Lock()
	s := c.slots[i]
	c.mu.Unlock()
	if s.text != "" && s.hrp == hrp && s.addr == *a {
		return s.text
	}
	s = bech32Slot{hrp: hrp, addr: *a, text: a.Bech32(hrp)}
	c.mu.Lock()
	c.slots[i] = s
	c.mu.Unlock()
	return s.text
}
