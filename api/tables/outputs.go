package tables

import (
	"context"
	"log/slog"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// outputList is one output list route (/outputs, /aliases, /nft, /foundries): its
// kind of output (its table) and the columns whose query parameters can pick the view,
// in order of preference (its parameter struct's selectors). The first one given picks
// the view and its hint partitions; the others filter rows.
type outputList struct {
	kind    chain.OutputKind
	tagKind string // tag_hints table_kind of its tag column, if it has one
}

var (
	BasicList   = outputList{kind: chain.OutputBasic, tagKind: store.TagKindBasicOutput}
	aliasList   = outputList{kind: chain.OutputAlias}
	nftList     = outputList{kind: chain.OutputNFT, tagKind: store.TagKindNFTOutput}
	foundryList = outputList{kind: chain.OutputFoundry}
)

// selector is a query parameter backed by a view: a column holding an address role
// (hinted in addresses_hints under variant = column) or the tag (hinted in tag_hints),
// and the value the request gives it (nil: not given).
type selector struct {
	param, column string
	value         *string
}

// The parameters of each output list: its selectors, then the row filters.
type (
	BasicListParams struct {
		Address *string `query:"address" kind:"address" doc:"outputs whose address is this address"`
		Sender  *string `query:"sender" kind:"address" doc:"outputs whose sender is this address"`
		Tag     *string `query:"tag" kind:"tag" doc:"outputs with this tag feature"`
		dustParams
		outputFilterParams
	}
	aliasListParams struct {
		StateController *string `query:"stateController" kind:"address" doc:"outputs whose state_controller is this address"`
		Governor        *string `query:"governor" kind:"address" doc:"outputs whose governor is this address"`
		Issuer          *string `query:"issuer" kind:"address" doc:"outputs whose issuer is this address"`
		Sender          *string `query:"sender" kind:"address" doc:"outputs whose sender is this address"`
		outputFilterParams
	}
	nftListParams struct {
		Address *string `query:"address" kind:"address" doc:"outputs whose address is this address"`
		Issuer  *string `query:"issuer" kind:"address" doc:"outputs whose issuer is this address"`
		Sender  *string `query:"sender" kind:"address" doc:"outputs whose sender is this address"`
		Tag     *string `query:"tag" kind:"tag" doc:"outputs with this tag feature"`
		dustParams
		outputFilterParams
	}
	foundryListParams struct {
		Address *string `query:"address" kind:"address" doc:"outputs whose address is this address"`
		outputFilterParams
	}
)

func (p *BasicListParams) selectors() []selector {
	return []selector{{"address", "address", p.Address}, {"sender", "sender", p.Sender}, {"tag", "tag", p.Tag}}
}

func (p *aliasListParams) selectors() []selector {
	return []selector{{"stateController", "state_controller", p.StateController}, {"governor", "governor", p.Governor},
		{"issuer", "issuer", p.Issuer}, {"sender", "sender", p.Sender}}
}

func (p *nftListParams) selectors() []selector {
	return []selector{{"address", "address", p.Address}, {"issuer", "issuer", p.Issuer}, {"sender", "sender", p.Sender},
		{"tag", "tag", p.Tag}}
}

func (p *foundryListParams) selectors() []selector {
	return []selector{{"address", "address", p.Address}}
}

func (p *BasicListParams) dust() (*bool, error)   { return p.dustParams.dust() }
func (p *nftListParams) dust() (*bool, error)     { return p.dustParams.dust() }
func (p *aliasListParams) dust() (*bool, error)   { return nil, nil }
func (p *foundryListParams) dust() (*bool, error) { return nil, nil }

// dustParams filter by the storage deposit return condition, under the seed's name or
// TIP-26's.
type dustParams struct {
	DustReturn    *bool `query:"requiresDustReturn" kind:"bool" doc:"true: only outputs with a storage deposit return; false: only without"`
	StorageReturn *bool `query:"hasStorageDepositReturn" kind:"bool" doc:"TIP-26 name of requiresDustReturn"`
}

// outputFilterParams filter every output list's rows.
type outputFilterParams struct {
	Unspent *bool `query:"unspent" kind:"bool" doc:"true: only unspent outputs; false: only spent ones"`
	timeRangeParams
}

func (p *outputFilterParams) filters() *outputFilterParams { return p }

// outputListRequest is what the list handler asks of a list's parameters.
type outputListRequest interface {
	selectors() []selector
	dust() (*bool, error)
	filters() *outputFilterParams
}

// ListOutputs serves the route of l with the parameters P declares.
func ListOutputs[P any, R interface {
	*P
	outputListRequest
}](s *API, l outputList) func(context.Context, *rest.Input, *P) (any, error) {
	return func(ctx context.Context, in *rest.Input, params *P) (any, error) {
		p := R(params)
		sels := p.selectors()
		sel, ok := pick(sels)
		if !ok {
			return nil, rest.BadParam(selectorNames(sels), "give at least one of them")
		}
		keep, err := rowFilter(p, sel)
		if err != nil {
			return nil, err
		}
		value, tr := *sel.value, p.filters().timeRange()
		parts, err := s.partitions(ctx, l, sel, value)
		if err != nil {
			return nil, err
		}
		fetch := func(ctx context.Context, part int32, req store.PageRequest) ([]store.OutputRow, []byte, error) {
			return s.st.OutputsPage(ctx, l.kind, sel.column, value, part, tr, req)
		}
		return rest.Walk(ctx, in, parts, fetch, keep, outputItems(in.HRP))
	}
}

func selectorNames(sels []selector) string {
	var names []string
	for _, sel := range sels {
		names = append(names, sel.param)
	}
	return strings.Join(names, ", ")
}

// pick is the first selector the request gives.
func pick(sels []selector) (selector, bool) {
	for _, sel := range sels {
		if sel.value != nil {
			return sel, true
		}
	}
	return selector{}, false
}

func (s *API) partitions(ctx context.Context, l outputList, sel selector, value string) ([]int32, error) {
	if sel.column == "tag" {
		return s.st.TagRanges(ctx, value, l.tagKind)
	}
	return s.st.AddressRanges(ctx, value, l.kind, sel.column)
}

// rowFilter builds the row filter of every given parameter but the one picking the view.
func rowFilter(p outputListRequest, picked selector) (func(*store.OutputRow) bool, error) {
	var tests []func(*store.OutputRow) bool
	for _, sel := range p.selectors() {
		if sel.param != picked.param && sel.value != nil {
			column, want := sel.column, *sel.value
			tests = append(tests, func(r *store.OutputRow) bool { return r.Role(column) == want })
		}
	}
	dust, err := p.dust()
	if err != nil {
		return nil, err
	}
	if dust != nil {
		tests = append(tests, func(r *store.OutputRow) bool { return (r.DustReturnAddress != "") == *dust })
	}
	if unspent := p.filters().Unspent; unspent != nil {
		tests = append(tests, func(r *store.OutputRow) bool { return (r.SpentBy == "") == *unspent })
	}
	if len(tests) == 0 {
		return nil, nil
	}
	return func(r *store.OutputRow) bool {
		for _, t := range tests {
			if !t(r) {
				return false
			}
		}
		return true
	}, nil
}

// dust reads requiresDustReturn or its alias; both given must agree.
func (p *dustParams) dust() (*bool, error) {
	a, b := p.DustReturn, p.StorageReturn
	if a != nil && b != nil && *a != *b {
		return nil, rest.BadParam("hasStorageDepositReturn", "contradicts requiresDustReturn (they are one filter)")
	}
	if a != nil {
		return a, nil
	}
	return b, nil
}

// OutputItemJSON is one row of an output list or an output's versions.
type OutputItemJSON struct {
	OutputID  string `json:"outputId"`
	AliasID   string `json:"aliasId,omitempty"`
	NFTID     string `json:"nftId,omitempty"`
	FoundryID string `json:"foundryId,omitempty"`
	MessageID string `json:"messageId"`
	StateJSON
	Timestamp           int64       `json:"timestamp"`
	Amount              string      `json:"amount"`
	Spent               bool        `json:"spent"`
	SpentBy             string      `json:"spentBy,omitempty"` // transaction ID
	SpentMilestoneIndex *int32      `json:"spentMilestoneIndex,omitempty"`
	Output              *outputJSON `json:"output,omitempty"`
}

// outputItems renders output rows with addresses under hrp.
func outputItems(hrp string) func(*store.OutputRow) OutputItemJSON {
	return func(r *store.OutputRow) OutputItemJSON { return newOutputItem(r, hrp) }
}

func newOutputItem(r *store.OutputRow, hrp string) OutputItemJSON {
	j := OutputItemJSON{OutputID: r.OutputID, MessageID: r.MessageID, Timestamp: r.Timestamp.Unix(),
		StateJSON: partitionState(r.RangeID, r.MilestoneIndex, r.InclusionState),
		Amount:    strconv.FormatInt(r.Amount, 10), Spent: r.SpentBy != "", SpentBy: r.SpentBy,
		SpentMilestoneIndex: r.SpentMilestoneIndex}
	j.AliasID, j.NFTID, j.FoundryID = r.AliasID, r.NFTID, r.FoundryID
	out, err := decodeOutputJSON(r.Data, hrp)
	if err != nil {
		slog.Warn("stored output does not decode", "table", r.Table, "output_id", r.OutputID, "error", err)
	}
	j.Output = out
	return j
}
