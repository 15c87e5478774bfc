package explorer

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/stardust-indexer/stardust-indexer/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// exportRows reads the details of an export's changes as they are written: each
// output's booked row (its bytes, creating block and spend), the spending block, and the
// transaction of each block once (the parties of the last blocks are kept).
type exportRows struct {
	s        *API
	address  string
	hrp      string
	rows     map[string]*store.UnspentRow // the holdings' rows, by output ID
	times    changeTimes
	decimals uint32
	mu       sync.Mutex
	blocks   map[string]*txParties // by block ID
}

// txParties are the addresses a transaction names: the signers of its inputs and the
// owners of its outputs (analytics.Owner).
type txParties struct{ signers, owners []string }

// maxKeptBlocks bounds the transactions an export keeps decoded: a milestone's changes
// of one address come from a few blocks.
const maxKeptBlocks = 256

// exportBatch is how many rows an export reads ahead of what it writes (their reads
// run rest.MaxParallelReads at a time): the memory a stream holds beyond its holdings.
const exportBatch = 256

// write writes the header, a row per change with the balance after it, and the end.
func (x *exportRows) write(ctx context.Context, w exportWriter, h *exportHeaderJSON, changes []outputChange, balance int64) error {
	if err := w.header(h); err != nil {
		return err
	}
	batch := make([]exportRowJSON, exportBatch)
	for start := 0; start < len(changes); start += exportBatch {
		part := changes[start:min(start+exportBatch, len(changes))]
		if err := x.readBatch(ctx, part, batch); err != nil {
			return err
		}
		for i := range part {
			balance += part[i].delta
			batch[i].BalanceAfter = strconv.FormatInt(balance, 10)
			if err := w.row(&batch[i]); err != nil {
				return err
			}
		}
	}
	return w.end(exportEndJSON{Record: "end", Rows: len(changes), Balance: strconv.FormatInt(balance, 10)})
}

// readBatch reads the rows of changes into out, in parallel.
func (x *exportRows) readBatch(ctx context.Context, changes []outputChange, out []exportRowJSON) error {
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(rest.MaxParallelReads)
	for i := range changes {
		g.Go(func() (err error) {
			out[i], err = x.row(ctx, &changes[i])
			return err
		})
	}
	return g.Wait()
}

// row is a change's row, but for the balance after it.
func (x *exportRows) row(ctx context.Context, ch *outputChange) (exportRowJSON, error) {
	r := x.rows[ch.outputID]
	id, err := chain.ParseOutputID(ch.outputID)
	if err != nil {
		return exportRowJSON{}, fmt.Errorf("ledger row %q: %w", ch.outputID, err)
	}
	kind, _ := chain.ParseOutputKind(r.Kind)
	booked, err := x.s.st.BookedRow(ctx, kind, r.RowKey(), id, uint32(r.MilestoneIndex))
	if err != nil {
		return exportRowJSON{}, fmt.Errorf("output %s: its %s row booked in %d: %w", id, kind, r.MilestoneIndex, err)
	}
	at, err := x.times.of(ctx, ch.index)
	if err != nil {
		return exportRowJSON{}, err
	}
	amount := uint64(max(ch.delta, -ch.delta))
	out := exportRowJSON{Record: "change", MilestoneIndex: ch.index, MilestoneTimestamp: at, Time: isoTime(at),
		OutputID: ch.outputID, Event: eventOf(r, ch), Direction: "received", Amount: strconv.FormatUint(amount, 10),
		DisplayAmount: displayAmount(amount, x.decimals), Counterparties: []string{}}
	if ch.delta < 0 {
		out.Direction = "sent"
	}
	if out.NativeTokens, err = nativeTokensOf(id, booked.Data); err != nil {
		return out, err
	}
	return out, x.transaction(ctx, &out, id, &booked)
}

// eventOf is what made a change: the output's creation, its spend, or its expiration
// (which passes it from its owner to its return address).
func eventOf(r *store.UnspentRow, ch *outputChange) string {
	switch {
	case ch.delta >= 0 && ch.index == uint32(r.MilestoneIndex):
		return "created"
	case ch.delta < 0 && r.SpentMilestoneIndex > 0 && ch.index == uint32(r.SpentMilestoneIndex):
		return "spent"
	}
	return "expired"
}

// transaction fills the row's transaction, block and counterparties: for a creation,
// the creating transaction and the signers of its inputs; for a spend, the spending
// transaction and the owners of its outputs; the address itself is not its own
// counterparty. An expiration has none.
func (x *exportRows) transaction(ctx context.Context, out *exportRowJSON, id chain.OutputID, booked *store.OutputRow) error {
	switch out.Event {
	case "created":
		out.TransactionID, out.BlockID = id.TransactionID().String(), booked.MessageID
	case "spent":
		out.TransactionID = booked.SpentBy
		block, err := x.s.st.IncludedMessage(ctx, booked.SpentBy)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		out.BlockID = block
	default:
		return nil
	}
	if out.BlockID == "" {
		return nil
	}
	p, err := x.parties(ctx, out.BlockID)
	if err != nil {
		return err
	}
	names := p.signers
	if out.Event == "spent" {
		names = p.owners
	}
	for _, a := range names {
		if a != x.address {
			out.Counterparties = append(out.Counterparties, a)
		}
	}
	return nil
}

// parties are the addresses the transaction of block names, read once.
func (x *exportRows) parties(ctx context.Context, block string) (*txParties, error) {
	x.mu.Lock()
	p, ok := x.blocks[block]
	x.mu.Unlock()
	if ok {
		return p, nil
	}
	raw, err := x.s.IndexedMessageRaw(ctx, "block", block)
	if err != nil {
		return nil, err
	}
	m, err := chain.DecodeMessage(raw)
	if err != nil {
		return nil, fmt.Errorf("block %s: stored bytes do not decode: %w", block, err)
	}
	tx, ok := m.Payload.(*chain.Transaction)
	if !ok {
		return nil, fmt.Errorf("block %s: holds no transaction", block)
	}
	p = &txParties{}
	for _, u := range tx.Unlocks {
		if u.Kind == chain.UnlockSignature {
			p.signers = append(p.signers, chain.Ed25519Address(u.PublicKey).Bech32(x.hrp))
		}
	}
	for i := range tx.Outputs {
		if a, ok := analytics.Owner(&tx.Outputs[i]); ok {
			p.owners = append(p.owners, a.Bech32(x.hrp))
		}
	}
	p.signers, p.owners = sortedSet(p.signers), sortedSet(p.owners)
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.blocks) >= maxKeptBlocks {
		clear(x.blocks)
	}
	x.blocks[block] = p
	return p, nil
}

func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Compact(s)
}

// nativeTokensOf are the native tokens of an output's stored bytes, amounts in decimal.
func nativeTokensOf(id chain.OutputID, data []byte) ([]nativeTokenJSON, error) {
	o, err := chain.DecodeOutput(data)
	if err != nil {
		return nil, fmt.Errorf("output %s: stored bytes do not decode: %w", id, err)
	}
	out := make([]nativeTokenJSON, len(o.NativeTokens))
	for i, t := range o.NativeTokens {
		out[i] = nativeTokenJSON{ID: t.ID.String(), Amount: t.Amount.String()}
	}
	return out, nil
}

// displayAmount is amount base units in the token's unit: decimals digits after the point.
func displayAmount(amount uint64, decimals uint32) string {
	if decimals == 0 {
		return strconv.FormatUint(amount, 10)
	}
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(amount),
		new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)).FloatString(int(decimals))
}
