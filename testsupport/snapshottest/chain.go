// Package snapshottest makes Hornet snapshot files (TIP-35) of a made-up Stardust
// network for tests and benchmarks: a genesis ledger of any size, streamed and never
// held in memory, and signed milestones that consume and create outputs, one of them
// with a receipt. It knows the ledger at every milestone, so a test can compare what a
// bootstrap loaded with what the files hold.
package snapshottest

import (
	"cmp"
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Network name and HRP of the made-up network: no real network's data passes for it.
const (
	NetworkName = "snapshot-test"
	HRP         = "snt"
	keyCount    = 3
	threshold   = 2
)

// Options shape a chain.
type Options struct {
	Seed       uint64
	Outputs    int    // genesis outputs (default 1000)
	Milestones uint32 // milestones 1..Milestones (default 20)
	Changes    int    // outputs each milestone consumes (default 8)
	Addresses  int    // distinct owner addresses (default 100)
	Receipt    uint32 // a milestone with a receipt (0: none)
	Treasury   uint64 // the genesis treasury (default 1e12)
}

func (o *Options) defaults() {
	o.Outputs = cmp.Or(o.Outputs, 1000)
	o.Milestones = cmp.Or(o.Milestones, 20)
	o.Changes = cmp.Or(o.Changes, 8)
	o.Changes = min(o.Changes, o.Outputs/2) // a milestone always finds that many unspent outputs
	o.Addresses = cmp.Or(o.Addresses, 100)
	o.Treasury = cmp.Or(o.Treasury, 1_000_000_000_000)
}

// Chain is a made-up network: its genesis outputs (derived, not stored), its milestones
// and the ledger changes of each.
type Chain struct {
	opts       Options
	keys       []ed25519.PrivateKey
	supply     uint64
	Milestones []*chain.ConfirmedMilestone // index i at [i-1]
	// Treasury is the treasury at each milestone (index 0: genesis).
	Treasury []Treasury
	// consumedAt names the milestone that spent an output (absent: unspent at the tip).
	consumedAt map[chain.OutputID]uint32
}

// Treasury is the treasury output: the milestone that made it and its amount.
type Treasury struct {
	MilestoneID chain.MilestoneID
	Amount      uint64
}

var genesisTime = time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)

// Timestamp is milestone index's time (10 s apart).
func Timestamp(index uint32) time.Time {
	return genesisTime.Add(time.Duration(index) * 10 * time.Second)
}

// New generates a chain.
func New(opts Options) *Chain {
	opts.defaults()
	c := &Chain{opts: opts, consumedAt: map[chain.OutputID]uint32{}}
	for i := range keyCount {
		seed := blake2b.Sum256([]byte(fmt.Sprintf("snapshot-test-coo-%d", i)))
		c.keys = append(c.keys, ed25519.NewKeyFromSeed(seed[:]))
	}
	c.supply = opts.Treasury
	for i := range opts.Outputs {
		c.supply += c.Genesis(i).Output.Amount
	}
	c.Treasury = []Treasury{{Amount: opts.Treasury}}
	g := newGrower(c)
	for i := uint32(1); i <= opts.Milestones; i++ {
		c.Milestones = append(c.Milestones, g.milestone(i))
	}
	return c
}

// Network is the made-up network with its milestone keys and protocol parameters.
func (c *Chain) Network() chain.Network {
	n := chain.Network{Name: NetworkName, HRP: HRP, Params: c.Params(), Keys: chain.MilestoneKeys{Threshold: threshold}}
	for _, k := range c.keys {
		n.Keys.Ranges = append(n.Keys.Ranges, chain.Signer(k))
	}
	return n
}

// Params are the protocol parameters; the token supply is the genesis ledger's.
func (c *Chain) Params() chain.ProtocolParameters {
	return chain.ProtocolParameters{Version: chain.ProtocolVersion, NetworkName: NetworkName, Bech32HRP: HRP,
		BelowMaxDepth: 15, RentStructure: chain.RentStructure{VByteCost: 100, VByteFactorData: 1, VByteFactorKey: 10},
		TokenSupply: c.supply}
}

// KeysJSON is the network's milestone keys as a Hornet config's protocol section.
func (c *Chain) KeysJSON() string {
	s := fmt.Sprintf(`{"protocol":{"milestonePublicKeyCount":%d,"publicKeyRanges":[`, threshold)
	for i, k := range c.keys {
		if i > 0 {
			s += ","
		}
		s += fmt.Sprintf(`{"key":"0x%x","start":0,"end":0}`, []byte(k.Public().(ed25519.PublicKey)))
	}
	return s + "]}}"
}

// Address is owner address number n.
func (c *Chain) Address(n int) chain.Address {
	return chain.Address{Kind: chain.AddressEd25519, ID: c.derive("address", uint64(n))}
}

func (c *Chain) derive(purpose string, n uint64) [32]byte {
	buf := binary.LittleEndian.AppendUint64(nil, c.opts.Seed)
	buf = append(buf, purpose...)
	buf = binary.LittleEndian.AppendUint64(buf, n)
	return blake2b.Sum256(buf)
}

// Genesis is genesis output i: booked at milestone 0 with no block, most of them basic
// outputs, some aliases and NFTs, a few with native tokens, a timelock or a tag.
func (c *Chain) Genesis(i int) chain.LedgerOutput {
	h := c.derive("genesis", uint64(i))
	id := chain.NewOutputID(chain.TransactionID(c.derive("genesis-tx", uint64(i/100))), uint16(i%100))
	owner := c.Address(int(binary.LittleEndian.Uint32(h[:4])) % c.opts.Addresses)
	o := chain.Output{Kind: chain.OutputBasic, Amount: 1_000_000 + uint64(h[4])*1000, Address: &owner}
	switch i % 50 {
	case 7:
		o = chain.Output{Kind: chain.OutputAlias, Amount: o.Amount, AliasID: chain.AliasID(c.derive("alias", uint64(i))),
			StateController: &owner, Governor: &owner}
	case 13:
		o.Kind, o.NFTID = chain.OutputNFT, chain.NFTID(c.derive("nft", uint64(i)))
	case 21:
		o.Tag = []byte("genesis-tag")
	case 33:
		o.Timelock = ptr(uint32(Timestamp(1000).Unix()))
	}
	return chain.LedgerOutput{OutputID: id, Output: o, Timestamp: genesisTime}
}

func ptr[T any](v T) *T { return &v }

// Supply is the token supply: the genesis outputs and treasury.
func (c *Chain) Supply() uint64 { return c.supply }

// rng is the generator's randomness for milestone index.
func (c *Chain) rng(index uint32) *rand.Rand {
	return rand.New(rand.NewPCG(c.opts.Seed, uint64(index)))
}
