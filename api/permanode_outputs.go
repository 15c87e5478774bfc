package api

import (
	"context"
	"log/slog"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// outputList is one output list route (/outputs, /aliases, /nft, /foundries): its
// kind of output (its table), and the query parameters that can pick the view, in order
// of preference. The first one given picks the view and its hint partitions; the others
// filter rows.
type outputList struct {
	kind       chain.OutputKind
	selectors  []selector
	dustReturn bool // accepts requiresDustReturn / hasStorageDepositReturn
}

// selector is a query parameter backed by a view: a column holding an address role
// (hinted in addresses_hints under variant = column) or a tag (hinted in tag_hints).
type selector struct {
	param   string
	column  string
	tagKind string // tag_hints table_kind when the column is a tag
}

var (
	basicList = outputList{kind: chain.OutputBasic, dustReturn: true, selectors: []selector{
		{param: "address", column: "address"}, {param: "sender", column: "sender"},
		{param: "tag", column: "tag", tagKind: store.TagKindBasicOutput}}}
	aliasList = outputList{kind: chain.OutputAlias, selectors: []selector{
		{param: "stateController", column: "state_controller"}, {param: "governor", column: "governor"},
		{param: "issuer", column: "issuer"}, {param: "sender", column: "sender"}}}
	nftList = outputList{kind: chain.OutputNFT, dustReturn: true, selectors: []selector{
		{param: "address", column: "address"}, {param: "issuer", column: "issuer"}, {param: "sender", column: "sender"},
		{param: "tag", column: "tag", tagKind: store.TagKindNFTOutput}}}
	foundryList = outputList{kind: chain.OutputFoundry, selectors: []selector{
		{param: "address", column: "address"}}}
)

// Boolean filters of output lists. hasStorageDepositReturn is TIP-26's name for the
// seed's requiresDustReturn.
const (
	paramDustReturn    = "requiresDustReturn"
	paramStorageReturn = "hasStorageDepositReturn"
	paramUnspent       = "unspent"
)

func (l outputList) params() []param {
	var ps []param
	for _, sel := range l.selectors {
		k, doc := addressKind, "outputs whose "+sel.column+" is this address"
		if sel.tagKind != "" {
			k, doc = tagKind, "outputs with this tag feature"
		}
		ps = append(ps, param{name: sel.param, kind: k, doc: doc})
	}
	if l.dustReturn {
		ps = append(ps, param{name: paramDustReturn, kind: boolKind, doc: "true: only outputs with a storage deposit return; false: only without"},
			param{name: paramStorageReturn, kind: boolKind, doc: "TIP-26 name of requiresDustReturn"})
	}
	return append(ps, param{name: paramUnspent, kind: boolKind, doc: "true: only unspent outputs; false: only spent ones"},
		fromParam, toParam)
}

func (l outputList) names() string {
	var names []string
	for _, sel := range l.selectors {
		names = append(names, sel.param)
	}
	return strings.Join(names, ", ")
}

// list serves the route of l.
func (s *Server) list(l outputList) func(context.Context, *input) (any, error) {
	return func(ctx context.Context, in *input) (any, error) {
		sel, ok := l.pick(in)
		if !ok {
			return nil, badParam(l.names(), "give at least one of them")
		}
		keep, err := l.filter(in, sel)
		if err != nil {
			return nil, err
		}
		value, tr := in.text(sel.param), timeRange(in)
		parts, err := s.partitions(ctx, l, sel, value)
		if err != nil {
			return nil, err
		}
		fetch := func(ctx context.Context, part int32, req store.PageRequest) ([]store.OutputRow, []byte, error) {
			return s.st.OutputsPage(ctx, l.kind, sel.column, value, part, tr, req)
		}
		return walk(ctx, in, parts, fetch, keep, outputItems(in.hrp))
	}
}

func (l outputList) pick(in *input) (selector, bool) {
	for _, sel := range l.selectors {
		if in.has(sel.param) {
			return sel, true
		}
	}
	return selector{}, false
}

func (s *Server) partitions(ctx context.Context, l outputList, sel selector, value string) ([]int32, error) {
	if sel.tagKind != "" {
		return s.st.TagRanges(ctx, value, sel.tagKind)
	}
	return s.st.AddressRanges(ctx, value, l.kind, sel.column)
}

// filter builds the row filter of every given parameter but the one picking the view.
func (l outputList) filter(in *input, picked selector) (func(*store.OutputRow) bool, error) {
	var tests []func(*store.OutputRow) bool
	for _, sel := range l.selectors {
		if sel != picked && in.has(sel.param) {
			column, want := sel.column, in.text(sel.param)
			tests = append(tests, func(r *store.OutputRow) bool { return r.Role(column) == want })
		}
	}
	dust, err := dustFilter(in)
	if err != nil {
		return nil, err
	}
	if dust != nil {
		tests = append(tests, func(r *store.OutputRow) bool { return (r.DustReturnAddress != "") == *dust })
	}
	if unspent := in.flag(paramUnspent); unspent != nil {
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

// dustFilter reads requiresDustReturn or its alias; both given must agree.
func dustFilter(in *input) (*bool, error) {
	a, b := in.flag(paramDustReturn), in.flag(paramStorageReturn)
	if a != nil && b != nil && *a != *b {
		return nil, badParam(paramStorageReturn, "contradicts %s (they are one filter)", paramDustReturn)
	}
	if a != nil {
		return a, nil
	}
	return b, nil
}

// outputItemJSON is one row of an output list or an output's versions.
type outputItemJSON struct {
	OutputID  string `json:"outputId"`
	AliasID   string `json:"aliasId,omitempty"`
	NFTID     string `json:"nftId,omitempty"`
	FoundryID string `json:"foundryId,omitempty"`
	MessageID string `json:"messageId"`
	stateJSON
	Timestamp           int64       `json:"timestamp"`
	Amount              string      `json:"amount"`
	Spent               bool        `json:"spent"`
	SpentBy             string      `json:"spentBy,omitempty"` // transaction ID
	SpentMilestoneIndex *int32      `json:"spentMilestoneIndex,omitempty"`
	Output              *outputJSON `json:"output,omitempty"`
}

// outputItems renders output rows with addresses under hrp.
func outputItems(hrp string) func(*store.OutputRow) outputItemJSON {
	return func(r *store.OutputRow) outputItemJSON { return newOutputItem(r, hrp) }
}

func newOutputItem(r *store.OutputRow, hrp string) outputItemJSON {
	j := outputItemJSON{OutputID: r.OutputID, MessageID: r.MessageID, Timestamp: r.Timestamp.Unix(),
		stateJSON: partitionState(r.RangeID, r.MilestoneIndex, r.InclusionState),
		Amount:    strconv.FormatInt(r.Amount, 10), Spent: r.SpentBy != "", SpentBy: r.SpentBy,
		SpentMilestoneIndex: r.SpentMilestoneIndex}
	switch r.Kind {
	case chain.OutputAlias:
		j.AliasID = r.Key
	case chain.OutputNFT:
		j.NFTID = r.Key
	case chain.OutputFoundry:
		j.FoundryID = r.Key
	}
	out, err := decodeOutputJSON(r.Data, hrp)
	if err != nil {
		slog.Warn("stored output does not decode", "table", r.Table, "output_id", r.OutputID, "error", err)
	}
	j.Output = out
	return j
}
