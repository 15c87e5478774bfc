package tables

import (
	"context"
	"log/slog"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// versions serves GET /aliases/{aliasId}, /nft/{nftId} and /foundries/{foundryId}:
// every version (output) of the chain, newest first, unreferenced ones first of all.
func versions[P any, R interface {
	*P
	ChainID() string
}](s *API, kind chain.OutputKind, what string) func(context.Context, *rest.Input, *P) (any, error) {
	return func(ctx context.Context, in *rest.Input, params *P) (any, error) {
		key := R(params).ChainID()
		fetch := func(ctx context.Context, _ int32, req store.PageRequest) ([]store.OutputRow, []byte, error) {
			return s.st.OutputVersions(ctx, kind, key, req)
		}
		page, err := rest.Walk(ctx, in, rest.OnePartition, fetch, nil, outputItems(in.HRP))
		if err == nil && in.Cursor == nil && len(page.Items) == 0 && page.Cursor == "" {
			return nil, rest.NotFound("%s %s is not indexed", what, key)
		}
		return page, err
	}
}

// LegacyItemJSON is one legacy (pre-Stardust) output.
type LegacyItemJSON struct {
	OutputID   string `json:"outputId"`
	OutputType int8   `json:"outputType"` // 0 SigLockedSingleOutput, 1 SigLockedDustAllowanceOutput
	MessageID  string `json:"messageId"`
	StateJSON
	Timestamp int64       `json:"timestamp"`
	Amount    string      `json:"amount"`
	Address   string      `json:"address"`
	Spent     bool        `json:"spent"`
	Output    *outputJSON `json:"output,omitempty"`
}

func newLegacyItem(r *store.LegacyRow, hrp string) LegacyItemJSON {
	j := LegacyItemJSON{OutputID: r.OutputID, OutputType: r.OutputType, MessageID: r.MessageID,
		StateJSON: partitionState(r.RangeID, r.MilestoneIndex, r.InclusionState), Timestamp: r.Timestamp.Unix(),
		Amount: strconv.FormatInt(r.Amount, 10), Address: r.Address, Spent: r.IsUsed}
	out, err := decodeOutputJSON(r.Data, hrp)
	if err != nil {
		slog.Warn("stored legacy output does not decode", "output_id", r.OutputID, "error", err)
	}
	j.Output = out
	return j
}

// legacyOutputs serves GET /legacy-outputs: an address's legacy outputs, partition by
// partition newest first; within one, unspent before spent (the view's order).
// legacyParams: an address's legacy outputs, spent, unspent or both.
type legacyParams struct {
	Address string `query:"address" kind:"address" required:"true" doc:"owner address"`
	Unspent *bool  `query:"unspent" kind:"bool" doc:"true: only unspent outputs; false: only spent ones"`
}

func (s *API) legacyOutputs(ctx context.Context, in *rest.Input, p *legacyParams) (any, error) {
	address := p.Address
	parts, err := s.st.AddressRanges(ctx, address, chain.OutputLegacy, "address")
	if err != nil {
		return nil, err
	}
	var keep func(*store.LegacyRow) bool
	if unspent := p.Unspent; unspent != nil {
		keep = func(r *store.LegacyRow) bool { return r.IsUsed != *unspent }
	}
	fetch := func(ctx context.Context, part int32, req store.PageRequest) ([]store.LegacyRow, []byte, error) {
		return s.st.LegacyPage(ctx, address, part, req)
	}
	return rest.Walk(ctx, in, parts, fetch, keep, func(r *store.LegacyRow) LegacyItemJSON { return newLegacyItem(r, in.HRP) })
}
