package store

import (
	"slices"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Ledger state rows (migration 000008): the unspent set by kind and by address, the
// ledger updates of each address and of each milestone. Written from the same ledger
// changes as the output tables; a spend (a later milestone, PhaseSpent) deletes what the
// creation inserted, and its timestamp wins whichever arrives first.

// Roles an address plays in an output: the variants of addresses_hints and the role
// column of unspent_outputs_by_address. RoleAddress is the address unlock condition
// (basic, NFT) or the alias address of a foundry; an alias's owner is its state controller.
const (
	RoleAddress           = "address"
	RoleDustReturn        = "dust_return_address"
	RoleExpirationReturn  = "expiration_return_address"
	RoleSender            = "sender"
	RoleIssuer            = "issuer"
	RoleStateController   = "state_controller"
	RoleGovernor          = "governor"
	LedgerUpdateHintKind  = "any"           // addresses_hints output_kind of ledger-update partitions
	LedgerUpdateHintRoles = "ledger_update" // and their variant
)

// AddressRole is one address an output names and the role it plays there.
type AddressRole struct {
	Address string
	Role    string
}

// ledgerOutput is what the ledger-state rows of one output share.
type ledgerOutput struct {
	row   UnspentRow    // unspent_outputs row (its key and filter columns)
	roles []AddressRole // the addresses it names
}

// newLedgerOutput builds the rows of a created output (not legacy: ok false).
func (b *builder) newLedgerOutput(lo *chain.LedgerOutput) (ledgerOutput, bool) {
	o := &lo.Output
	if _, ok := outputTables[o.Kind]; !ok {
		return ledgerOutput{}, false
	}
	r := UnspentRow{Kind: o.Kind.String(), RangeID: b.rangeOf(lo.MilestoneIndex), CreatedAt: lo.Timestamp.Unix(),
		OutputID: lo.OutputID.String(), MilestoneIndex: int32(lo.MilestoneIndex), Amount: amount(o.Amount),
		NativeTokenCount: int32(len(o.NativeTokens)), Owner: b.addr(o.Address), DustReturnAddress: b.dustReturn(o),
		Sender: b.addr(o.Sender), Tag: TagText(o.Tag), Issuer: b.addr(o.Issuer),
		StateController: b.addr(o.StateController), Governor: b.addr(o.Governor)}
	if o.StorageDepositReturn != nil {
		r.DustReturnAmount = ptr(amount(o.StorageDepositReturn.Amount))
	}
	if o.Timelock != nil {
		r.Timelock = ptr(int64(*o.Timelock))
	}
	if o.Expiration != nil {
		r.Expiration = ptr(int64(o.Expiration.UnixTime))
		r.ExpirationReturnAddress = b.addr(&o.Expiration.ReturnAddress)
	}
	if o.Kind != chain.OutputBasic {
		r.ChainID = outputKey(o, lo.OutputID)
	}
	return ledgerOutput{row: r, roles: rolesOf(o.Kind, &r)}, true
}

// rolesOf lists the addresses a row names, each with its role.
func rolesOf(kind chain.OutputKind, r *UnspentRow) []AddressRole {
	var out []AddressRole
	add := func(addr, role string) {
		if addr != "" {
			out = append(out, AddressRole{addr, role})
		}
	}
	if kind != chain.OutputAlias { // an alias's owner is its state controller, listed below
		add(r.Owner, RoleAddress)
	}
	add(r.DustReturnAddress, RoleDustReturn)
	add(r.ExpirationReturnAddress, RoleExpirationReturn)
	add(r.Sender, RoleSender)
	add(r.Issuer, RoleIssuer)
	add(r.StateController, RoleStateController)
	add(r.Governor, RoleGovernor)
	return out
}

// byAddress is the unspent_outputs_by_address row of lo for one address and role.
func (lo *ledgerOutput) byAddress(ar AddressRole) *UnspentRow {
	r := lo.row
	r.Address, r.Role = ar.Address, ar.Role
	return &r
}

// addressRoles groups the roles by address, in first-named order.
func (lo *ledgerOutput) addressRoles() (addrs []string, roles map[string][]string) {
	roles = map[string][]string{}
	for _, ar := range lo.roles {
		if _, seen := roles[ar.Address]; !seen {
			addrs = append(addrs, ar.Address)
		}
		roles[ar.Address] = append(roles[ar.Address], ar.Role)
	}
	return addrs, roles
}

// createdLedger adds the ledger-state rows of an output a confirmed milestone created,
// the by-address rows carrying its bytes (data) and creating block (msgID).
func (b *builder) createdLedger(w where, lo *chain.LedgerOutput, msgID string, data []byte) {
	l, ok := b.newLedgerOutput(lo)
	if !ok {
		return
	}
	l.row.MessageID, l.row.OutputData = msgID, data
	b.addRow(cql.InsertUnspent, w.ts, "", &l.row)
	for _, ar := range l.roles {
		b.Hints.AddAddress(ar.Address, l.row.Kind, ar.Role, l.row.RangeID)
		b.addRow(cql.InsertUnspentByAddress, w.ts, "", l.byAddress(ar))
	}
	b.ledgerUpdates(w.ts, &l, lo.MilestoneIndex, lo.Timestamp, false)
}

// spentLedger moves a spent output from the unspent set to its spent twin (same keys,
// same filter columns) and records the spend. Both rows are keyed by the output, so
// writing a milestone again writes the same rows.
func (b *builder) spentLedger(ts int64, ls *chain.LedgerSpent, msgID string) {
	l, ok := b.newLedgerOutput(&ls.LedgerOutput)
	if !ok {
		return
	}
	l.row.SpentMilestoneIndex = int32(ls.SpentMilestoneIndex)
	l.row.MessageID, l.row.OutputData, l.row.SpentBy = msgID, chain.EncodeOutput(ls.Output), ls.SpentBy.String()
	b.addRow(cql.DeleteUnspent, ts, "", &l.row)
	b.addRow(cql.InsertSpent, ts, "", &l.row)
	for _, ar := range l.roles {
		b.addRow(cql.DeleteUnspentByAddress, ts, "", l.byAddress(ar))
		b.addRow(cql.InsertSpentByAddress, ts, "", l.byAddress(ar))
	}
	b.ledgerUpdates(ts, &l, ls.SpentMilestoneIndex, ls.SpentTimestamp, true)
}

// ledgerUpdates writes one update (created or spent in milestone index) per address the
// output names, and the milestone's own update row.
func (b *builder) ledgerUpdates(ts int64, l *ledgerOutput, index uint32, at time.Time, spent bool) {
	rng := b.rangeOf(index)
	addrs, roles := l.addressRoles()
	for _, a := range addrs {
		b.Hints.AddAddress(a, LedgerUpdateHintKind, LedgerUpdateHintRoles, rng)
		u := AddressUpdate{Address: a, RangeID: rng, MilestoneIndex: int32(index), OutputID: l.row.OutputID,
			IsSpent: spent, Timestamp: at, Kind: l.row.Kind, Roles: slices.Clone(roles[a]),
			Amount: l.row.Amount}
		b.addRow(cql.InsertAddressUpdate, ts, "", &u)
	}
	if !b.snapshot {
		b.milestoneUpdate(ts, l, index, spent)
	}
}

// milestoneUpdate writes the row of milestone index's ledger updates for one output.
func (b *builder) milestoneUpdate(ts int64, l *ledgerOutput, index uint32, spent bool) {
	m := MilestoneUpdate{MilestoneIndex: int32(index), IsSpent: spent, OutputID: l.row.OutputID, Kind: l.row.Kind,
		Amount: l.row.Amount, Address: l.row.Owner}
	b.addRow(cql.InsertMilestoneUpdate, ts, "", &m)
}

// spentTwinMilestone records that the spent twin holds milestone index's spends, so a
// reader can tell a keyspace indexed with the twin from one indexed before it.
func (b *builder) spentTwinMilestone(ts int64, index uint32) {
	b.add(cql.InsertSpentMilestone, ts, "", b.rangeOf(index), int32(index))
}
