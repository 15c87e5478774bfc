package chain_test

import "github.com/stardust-indexer/stardust-indexer/chain"
import "encoding/binary"

// Byte-level builders for encodings the typed encoder cannot produce (types in the
// wrong list or order, unknown type codes), so strict-decoding tests can craft them.

type bytesBuilder []byte

func (b bytesBuilder) u8(v uint8) bytesBuilder   { return append(b, v) }
func (b bytesBuilder) u16(v uint16) bytesBuilder { return binary.LittleEndian.AppendUint16(b, v) }
func (b bytesBuilder) u32(v uint32) bytesBuilder { return binary.LittleEndian.AppendUint32(b, v) }
func (b bytesBuilder) u64(v uint64) bytesBuilder { return binary.LittleEndian.AppendUint64(b, v) }
func (b bytesBuilder) raw(p ...byte) bytesBuilder {
	return append(b, p...)
}
func (b bytesBuilder) addr(a chain.Address) bytesBuilder { return b.raw(a.Bytes()...) }

// u256 writes a small value as a little-endian uint256.
func (b bytesBuilder) u256(v uint64) bytesBuilder {
	return b.u64(v).raw(make([]byte, 24)...)
}

// outputBytes is a serialized output in parts; entries start with their type byte.
type outputBytes struct {
	kind              chain.OutputKind
	amount            uint64
	fields            []byte // kind-specific fields between native tokens and conditions
	conds, feats, imm [][]byte
}

func (o outputBytes) encode() []byte {
	b := bytesBuilder{}.u8(uint8(o.kind)).u64(o.amount).u8(0).raw(o.fields...)
	lists := [][][]byte{o.conds, o.feats}
	if o.kind != chain.OutputBasic {
		lists = append(lists, o.imm)
	}
	for _, list := range lists {
		b = b.u8(uint8(len(list)))
		for _, e := range list {
			b = b.raw(e...)
		}
	}
	return b
}

// kindFields returns valid kind-specific fields: a non-zero alias or NFT ID, a
// foundry with a valid simple token scheme.
func kindFields(kind chain.OutputKind) []byte {
	switch kind {
	case chain.OutputAlias:
		return bytesBuilder{}.raw(fixtureAliasID[:]...).u32(1).u16(0).u32(0)
	case chain.OutputFoundry:
		return bytesBuilder{}.u32(1).u8(chain.TokenSchemeSimple).u256(1).u256(0).u256(1)
	case chain.OutputNFT:
		return bytesBuilder{}.raw(fixtureNFTID[:]...)
	}
	return nil
}

// condEntry is a valid unlock condition of type typ (for an output of amount >= 1).
func condEntry(typ int) []byte {
	b := bytesBuilder{}.u8(uint8(typ))
	switch typ {
	case chain.CondStorageDepositReturn:
		return b.addr(fixtureAddr(3)).u64(1)
	case chain.CondTimelock:
		return b.u32(1)
	case chain.CondExpiration:
		return b.addr(fixtureAddr(4)).u32(1)
	case chain.CondImmutableAlias:
		return b.addr(chain.AliasAddress(chain.AliasID{0xee}))
	}
	return b.addr(fixtureAddr(2))
}

// featEntry is a valid feature of type typ.
func featEntry(typ int) []byte {
	b := bytesBuilder{}.u8(uint8(typ))
	switch typ {
	case chain.FeatMetadata:
		return b.u16(1).raw('m')
	case chain.FeatTag:
		return b.u8(1).raw('t')
	}
	return b.addr(fixtureAddr(5))
}

// requiredConds are the unlock conditions each kind must have, ascending.
func requiredConds(kind chain.OutputKind) []int {
	switch kind {
	case chain.OutputAlias:
		return []int{chain.CondStateController, chain.CondGovernor}
	case chain.OutputFoundry:
		return []int{chain.CondImmutableAlias}
	}
	return []int{chain.CondAddress}
}

// minimalOutput is a valid output of kind with only its required conditions.
func minimalOutput(kind chain.OutputKind) outputBytes {
	o := outputBytes{kind: kind, amount: 1_000_000, fields: kindFields(kind)}
	for _, c := range requiredConds(kind) {
		o.conds = append(o.conds, condEntry(c))
	}
	return o
}

// withSorted returns the entries of types, ascending, built by entry.
func withSorted(types []int, entry func(int) []byte) [][]byte {
	var out [][]byte
	for t := 0; t < 256; t++ {
		for _, u := range types {
			if u == t {
				out = append(out, entry(t))
			}
		}
	}
	return out
}
