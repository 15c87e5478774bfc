package chain_test

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Milestone options (TIP-29): receipt (TIP-34) and protocol parameters.

// optionEntries returns the fixture's receipt and protocol-parameters option entries
// (type byte included) as serialized.
func optionEntries() (receipt, params []byte) {
	mp := fixtureMilestonePayload()
	p := mp.ProtocolParams
	mp.ProtocolParams = nil
	receipt = mp.Essence()[len(essencePrefix())+1:]
	mp.Receipt, mp.ProtocolParams = nil, p
	params = mp.Essence()[len(essencePrefix())+1:]
	return receipt, params
}

// essencePrefix is the fixture's essence up to (without) the options count.
func essencePrefix() []byte {
	mp := fixtureMilestonePayload()
	mp.Receipt, mp.ProtocolParams = nil, nil
	e := mp.Essence()
	return e[:len(e)-1]
}

// withOptions serializes the fixture milestone payload with the given option entries.
func withOptions(opts ...[]byte) []byte {
	b := bytesBuilder{}.u32(7).raw(essencePrefix()...).u8(uint8(len(opts)))
	for _, o := range opts {
		b = b.raw(o...)
	}
	sigs := fixtureMilestonePayload().Encode()
	return b.raw(sigs[len(sigs)-1-3*97:]...)
}

func TestRejectMilestoneOptions(t *testing.T) {
	receipt, params := optionEntries()
	if _, err := chain.DecodeMilestonePayload(withOptions(receipt, params)); err != nil {
		t.Fatalf("withOptions: %v", err)
	}
	wantField(t, decodeMilestoneErr(withOptions(params, receipt)), "milestone.options[1].type", "not in ascending order")
	wantField(t, decodeMilestoneErr(withOptions(receipt, receipt)), "milestone.options[1].type", "or duplicate")
	wantField(t, decodeMilestoneErr(withOptions(params, params)), "milestone.options[1].type", "or duplicate")
	unknown := append([]byte{2}, params[1:]...)
	wantField(t, decodeMilestoneErr(withOptions(receipt, unknown)), "milestone.options[1].type", "unknown milestone option type 2")
	for _, opts := range [][][]byte{nil, {receipt}, {params}} {
		if _, err := chain.DecodeMilestonePayload(withOptions(opts...)); err != nil {
			t.Fatalf("%d options refused: %v", len(opts), err)
		}
	}
}

func TestRejectProtocolParamsOption(t *testing.T) {
	runMilestoneCases(t, []milestoneCase{
		{"target = index", "milestone.options[1].targetMilestoneIndex", "9 not in 10..39",
			func(mp *chain.MilestonePayload) { mp.ProtocolParams.TargetMilestoneIndex = 9 }},
		{"target > index+30", "milestone.options[1].targetMilestoneIndex", "40 not in 10..39",
			func(mp *chain.MilestonePayload) { mp.ProtocolParams.TargetMilestoneIndex = 40 }},
		{"params", "milestone.options[1].params", "too long: 8193 bytes > 8192",
			func(mp *chain.MilestonePayload) { mp.ProtocolParams.Params = make([]byte, 8193) }},
	})
	for _, target := range []uint32{10, 39} {
		mp := fixtureMilestonePayload()
		mp.ProtocolParams.TargetMilestoneIndex = target
		if _, err := chain.DecodeMilestonePayload(mp.Encode()); err != nil {
			t.Fatalf("target %d refused: %v", target, err)
		}
	}
}

// Near the top of the uint32 range index+30 wraps around; the window must not.
func TestProtocolParamsOptionAtHighIndex(t *testing.T) {
	mp := fixtureMilestonePayload()
	mp.Index = math.MaxUint32 - 10
	mp.ProtocolParams.TargetMilestoneIndex = math.MaxUint32
	if _, err := chain.DecodeMilestonePayload(mp.Encode()); err != nil {
		t.Fatalf("target %d for index %d refused: %v", uint32(math.MaxUint32), mp.Index, err)
	}
}

func TestRejectReceipt(t *testing.T) {
	runMilestoneCases(t, []milestoneCase{
		{"no funds", "milestone.options[0].funds", "count 0 not in 1..127", func(mp *chain.MilestonePayload) { mp.Receipt.Funds = nil }},
		{"128 funds", "milestone.options[0].funds", "count 128 not in 1..127", func(mp *chain.MilestonePayload) {
			mp.Receipt.Funds = manyFunds(128)
		}},
		{"unsorted", "milestone.options[0].funds[1].tailTransactionHash", "not sorted ascending", func(mp *chain.MilestonePayload) {
			f := mp.Receipt.Funds
			f[0], f[1] = f[1], f[0]
		}},
		{"duplicate", "milestone.options[0].funds[1].tailTransactionHash", "or duplicate", func(mp *chain.MilestonePayload) {
			mp.Receipt.Funds[1].TailTransactionHash = mp.Receipt.Funds[0].TailTransactionHash
		}},
		{"deposit", "milestone.options[0].funds[0].deposit", "999999 below the minimum 1000000", func(mp *chain.MilestonePayload) {
			mp.Receipt.Funds[0].Deposit = chain.MinMigratedDeposit - 1
		}},
		{"alias address", "milestone.options[0].funds[1].address", "must be an Ed25519 address", func(mp *chain.MilestonePayload) {
			mp.Receipt.Funds[1].Address = chain.AliasAddress(chain.AliasID{1})
		}},
	})
	mp := fixtureMilestonePayload()
	mp.Receipt.Funds = manyFunds(chain.MaxReceiptFunds)
	if _, err := chain.DecodeMilestonePayload(mp.Encode()); err != nil {
		t.Fatalf("%d funds refused: %v", chain.MaxReceiptFunds, err)
	}
}

func manyFunds(n int) []chain.MigratedFunds {
	out := make([]chain.MigratedFunds, n)
	for i := range out {
		out[i] = chain.MigratedFunds{TailTransactionHash: [49]byte{byte(i + 1)}, Address: fixtureAddr(1), Deposit: chain.MinMigratedDeposit}
	}
	return out
}

func TestRejectReceiptBytes(t *testing.T) {
	receipt, params := optionEntries()
	const txAt = 1 + 4 + 1 + 2 + 2*90 // type, migrated at, final, funds count, 2 funds
	cases := []struct {
		name, field, reason string
		mod                 func(r []byte) []byte
	}{
		{"final 2", "milestone.options[0].final", "boolean byte 2 is neither 0 nor 1", func(r []byte) []byte { r[5] = 2; return r }},
		{"no transaction", "milestone.options[0].transaction", "needs its treasury transaction",
			func(r []byte) []byte { return bytesBuilder(r[:txAt]).u32(0) }},
		{"transaction type", "milestone.options[0].transaction.type", "payload type 5 is not a treasury transaction",
			func(r []byte) []byte { r[txAt+4] = 5; return r }},
		{"input type", "milestone.options[0].transaction.input.type", "unknown treasury input type 0",
			func(r []byte) []byte { r[txAt+8] = 0; return r }},
		{"output type", "milestone.options[0].transaction.output.type", "unknown treasury output type 3",
			func(r []byte) []byte { r[txAt+8+33] = 3; return r }},
		{"short transaction", "milestone.options[0].transaction.output.amount", "truncated",
			func(r []byte) []byte { binary.LittleEndian.PutUint32(r[txAt:], 45); return r[:len(r)-1] }},
		{"trailing in transaction", "milestone.options[0].transaction", "trailing bytes: 1 unexpected",
			func(r []byte) []byte { binary.LittleEndian.PutUint32(r[txAt:], 47); return append(r, 0) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantField(t, decodeMilestoneErr(withOptions(c.mod(clone(receipt)), params)), c.field, c.reason)
		})
	}
	if binary.LittleEndian.Uint32(receipt[txAt:]) != 46 || len(receipt) != txAt+4+46 {
		t.Fatalf("treasury transaction must be framed by uint32 46: %x", receipt[txAt:])
	}
}
