package sim

import (
	"crypto/ed25519"
	"encoding/binary"
	"fmt"
	"math/rand"
	"time"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Zipf exponent for address and tag popularity: a few are very busy, most
// are rare, like on a live network.
const zipfExponent = 1.1

// recentMilestones is how far back parents may point.
const recentMilestones = 3

// outRec is everything ever known about one output; spentMs 0 = unspent.
type outRec struct {
	id      chain.OutputID
	msgID   chain.MessageID
	ms      uint32
	ts      time.Time
	raw     []byte // chain.EncodeOutput: the network's serialization
	spentBy chain.TransactionID
	spentMs uint32
	spentTs time.Time
}

// generator holds the evolving ledger; only Sim's mutex-holding methods
// touch it, one milestone at a time.
type generator struct {
	opts     Options
	rng      *rand.Rand
	addrZipf *rand.Zipf
	tagZipf  *rand.Zipf
	keys     []ed25519.PrivateKey
	addrs    []chain.Address
	keyOf    map[[32]byte]int // Ed25519 address ID -> index in keys
	network  chain.Network
	coo      []ed25519.PrivateKey // the coordinator's keys: they sign every milestone
	tags     [][]byte

	outputs  map[chain.OutputID]*outRec
	live     map[chain.OutputID]*chain.Output // decoded unspent outputs in the pools
	fungible *idSet                           // basic and legacy outputs free to spend
	aliases  *idSet                           // current alias outputs
	nfts     *idSet                           // current NFT outputs

	recent       [][]chain.MessageID  // message IDs of the last few milestones
	lastIncluded []*chain.Transaction // included in the previous milestone; may be re-attached
	prevID       chain.MilestoneID
	treasury     treasury    // the treasury output the newest receipt left
	prevBlock    *msgRec     // the message carrying the previous milestone: the next cone holds it
	records      []*msRecord // index - FirstIndex - dropped
	dropped      uint32      // milestones forgotten from the front of records (Options.Retain)
}

func newGenerator(opts Options) *generator {
	rng := rand.New(rand.NewSource(opts.Seed))
	g := &generator{
		opts:     opts,
		rng:      rng,
		addrZipf: rand.NewZipf(rng, zipfExponent, 1, uint64(opts.AddressPool-1)),
		tagZipf:  rand.NewZipf(rng, zipfExponent, 1, uint64(opts.TagPool-1)),
		keyOf:    make(map[[32]byte]int, opts.AddressPool),
		network:  Network(),
		coo:      coordinatorKeys(),
		treasury: treasury{amount: GenesisTreasury},
		outputs:  make(map[chain.OutputID]*outRec),
		live:     make(map[chain.OutputID]*chain.Output),
		fungible: newIDSet(),
		aliases:  newIDSet(),
		nfts:     newIDSet(),
	}
	for i := 0; i < opts.AddressPool; i++ {
		seed := derive(opts.Seed, "key", uint64(i))
		key := ed25519.NewKeyFromSeed(seed[:])
		addr := chain.Ed25519Address([32]byte(key.Public().(ed25519.PublicKey)))
		g.keys = append(g.keys, key)
		g.addrs = append(g.addrs, addr)
		g.keyOf[addr.ID] = i
	}
	for i := 0; i < opts.TagPool; i++ {
		g.tags = append(g.tags, []byte(fmt.Sprintf("sim-tag-%03d", i)))
	}
	return g
}

// derive hashes seed, purpose and n into 32 bytes, for values that must
// not consume the main random stream.
func derive(seed int64, purpose string, n uint64) [32]byte {
	buf := binary.LittleEndian.AppendUint64(nil, uint64(seed))
	buf = append(buf, purpose...)
	buf = binary.LittleEndian.AppendUint64(buf, n)
	return blake2b.Sum256(buf)
}

// popularAddress draws an Ed25519 address with Zipf popularity.
func (g *generator) popularAddress() chain.Address { return g.addrs[g.addrZipf.Uint64()] }

// popularTag draws a tag with Zipf popularity.
func (g *generator) popularTag() []byte { return g.tags[g.tagZipf.Uint64()] }

func (g *generator) chance(p float64) bool { return g.rng.Float64() < p }

// between returns a uniform value in [lo, hi].
func (g *generator) between(lo, hi uint64) uint64 {
	if hi <= lo {
		return lo
	}
	return lo + uint64(g.rng.Int63n(int64(hi-lo+1)))
}

func (g *generator) randomBytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.rng.Intn(256))
	}
	return b
}

func (g *generator) timestamp(index uint32) time.Time {
	offset := time.Duration(index-g.opts.FirstIndex) * g.opts.MilestoneInterval
	return g.opts.Genesis.Add(offset).UTC().Truncate(time.Second)
}

// owner is who must sign to spend an output in the pools.
func owner(o *chain.Output) chain.Address {
	if o.Kind == chain.OutputAlias {
		return *o.StateController
	}
	return *o.Address
}
