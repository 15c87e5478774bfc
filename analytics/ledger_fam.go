package analytics

import (
	"slices"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Ledger families (inx-chronicle's src/analytics/ledger): figures of the unspent set,
// each the sum over its outputs of what outputFigures gives one output. A milestone's
// change is the sum over what it created less the sum over what it consumed; a recount
// sums over the whole unspent set. Figures are named "<family>.<path>".

// The ledger families, by Chronicle's measurement names.
const (
	FamilyLedgerOutputs    = "ledger_outputs"
	FamilyLedgerSize       = "ledger_size"
	FamilyAddressBalance   = "address_balance"
	FamilyUnlockConditions = "unlock_conditions"
	FamilyUnclaimedTokens  = "unclaimed_tokens"
	FamilyProtocol         = "protocol_parameters"
)

// LedgerFamilies are the five ledger families, in Chronicle's order.
var LedgerFamilies = ledgerFamilyNames()

func ledgerFamilyNames() []string {
	var out []string
	for _, f := range Families {
		if f.Ledger {
			out = append(out, f.Name)
		}
	}
	return out
}

// Rent bytes of an output beside its own bytes (iota-sdk's Rent and Chronicle's
// RentStructureBytes): its output ID (34) weighs as key bytes, its metadata (block ID
// 32, booking milestone index 4 and timestamp 4) as data bytes.
const (
	rentKeyBytes      = 34
	rentMetadataBytes = 32 + 4 + 4
)

// figureKey names a figure of a family.
func figureKey(family, path string) string { return family + "." + path }

// outputFigures adds what one output of the unspent set contributes to the additive
// ledger figures, times sign (+1 created, -1 consumed), to figs.
func outputFigures(figs map[string]int64, lo *chain.LedgerOutput, rent chain.RentStructure, sign int64) {
	o := &lo.Output
	if !isLedgerKind(o.Kind) {
		return
	}
	amount := int64(o.Amount)
	add := func(family, path string, v int64) { figs[figureKey(family, path)] += sign * v }
	kind := o.Kind.String()
	add(FamilyLedgerOutputs, kind+".count", 1)
	add(FamilyLedgerOutputs, kind+".amount", amount)
	size := len(chain.EncodeOutput(*o))
	add(FamilyLedgerSize, "total_key_bytes", rentKeyBytes)
	add(FamilyLedgerSize, "total_data_bytes", int64(size)+rentMetadataBytes)
	add(FamilyLedgerSize, "total_storage_deposit_amount", int64(StorageDeposit(o.Amount, size, rent)))
	if o.Kind == chain.OutputBasic || o.Kind == chain.OutputNFT {
		unlockConditionFigures(add, o)
	}
	if lo.MilestoneIndex == 0 {
		add(FamilyUnclaimedTokens, "unclaimed_count", 1)
		add(FamilyUnclaimedTokens, "unclaimed_amount", amount)
	}
}

// unlockConditionFigures counts a basic or NFT output (and its whole amount) under each
// of its timelock, expiration and storage deposit return conditions.
func unlockConditionFigures(add func(family, path string, v int64), o *chain.Output) {
	amount := int64(o.Amount)
	if o.Timelock != nil {
		add(FamilyUnlockConditions, "timelock.count", 1)
		add(FamilyUnlockConditions, "timelock.amount", amount)
	}
	if o.Expiration != nil {
		add(FamilyUnlockConditions, "expiration.count", 1)
		add(FamilyUnlockConditions, "expiration.amount", amount)
	}
	if o.StorageDepositReturn != nil {
		add(FamilyUnlockConditions, "storage_deposit_return.count", 1)
		add(FamilyUnlockConditions, "storage_deposit_return.amount", amount)
		add(FamilyUnlockConditions, "storage_deposit_return_inner_amount", int64(o.StorageDepositReturn.Amount))
	}
}

// StorageDeposit is the part of an output's amount its storage takes (Chronicle's
// total_storage_deposit_amount): the rent cost of its packed bytes under the rent
// structure, byte_cost * (bytes*data_factor + 34*key_factor + 40*data_factor), but
// never more than the amount.
func StorageDeposit(amount uint64, packedLen int, rent chain.RentStructure) uint64 {
	data, key := uint64(rent.VByteFactorData), uint64(rent.VByteFactorKey)
	cost := uint64(rent.VByteCost) * (uint64(packedLen)*data + rentKeyBytes*key + rentMetadataBytes*data)
	return min(cost, amount)
}

// outputOwner is the address whose balance an output adds to (Chronicle's
// owning_address: Owner, expiration ignored), under hrp; ok is false for a kind outside
// the ledger families.
func outputOwner(o *chain.Output, hrp string) (string, bool) {
	if !isLedgerKind(o.Kind) {
		return "", false
	}
	a, ok := Owner(o)
	if !ok {
		return "", false
	}
	return a.Bech32(hrp), true
}

func isLedgerKind(k chain.OutputKind) bool { return slices.Contains(ledgerKinds, k) }

// bucketKeys are the address_balance figures of bucket n.
func bucketKeys(n int32) (count, amount string) {
	prefix := "token_distribution." + strconv.Itoa(int(n))
	return figureKey(FamilyAddressBalance, prefix+".address_count"), figureKey(FamilyAddressBalance, prefix+".total_amount")
}
