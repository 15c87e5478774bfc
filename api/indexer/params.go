package indexer

import (
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TIP-26 parameters: inx-indexer's (Stardust) names and forms. Page sizes: inx-indexer
// answers its maximum (1000) when none is given; out-of-range sizes are a 400 here
// where inx-indexer quietly used its maximum.
const (
	Tip26MaxPageSize     = 1000
	Tip26DefaultPageSize = Tip26MaxPageSize
)

var (
	unixKind = rest.TypedKind(map[string]any{"type": "integer", "minimum": 0, "maximum": 4294967295,
		"description": "unix seconds"}, rest.ParseUint32)
	tokenCountKind = rest.TypedKind(map[string]any{"type": "integer", "minimum": 0, "maximum": chain.MaxNativeTokens},
		parseTokenCount)
	tip26PageSizeKind = rest.TypedKind(map[string]any{"type": "integer", "minimum": 1, "maximum": Tip26MaxPageSize,
		"default": Tip26DefaultPageSize}, parseTip26PageSize)
	tip26CursorKind = rest.TypedKind(map[string]any{"type": "string", "pattern": "^[0-9a-fA-F]{76}\\.[0-9]+(\\.newest)?$",
		"description": "from the previous page: creation time (8 hex digits), output ID (68 hex digits), '.', " +
			"page size, and '.newest' on a newest-first page"}, parseTip26Cursor)
	tip26SortKind = rest.TypedKind(map[string]any{"type": "string", "enum": []string{"oldest", "newest"},
		"default": "oldest"}, rest.ParseOldest)
)

// The TIP-26 kinds, by the names the parameter structs give them.
var _ = rest.NamedKinds(map[string]rest.Kind{"unix": unixKind, "tokenCount": tokenCountKind,
	"tip26PageSize": tip26PageSizeKind, "tip26Cursor": tip26CursorKind, "tip26Sort": tip26SortKind})

func parseTokenCount(name, v string) (int32, error) {
	n, err := strconv.ParseUint(v, 10, 8)
	if err != nil || n > chain.MaxNativeTokens {
		return 0, rest.BadParam(name, "want an integer in 0..%d, got %s", chain.MaxNativeTokens, rest.Quote(v))
	}
	return int32(n), nil
}

func parseTip26PageSize(name, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > Tip26MaxPageSize {
		return 0, rest.BadParam(name, "want an integer in 1..%d, got %s", Tip26MaxPageSize, rest.Quote(v))
	}
	return n, nil
}

// tip26Cursor is a decoded cursor: where the page starts, its size and its order.
type tip26Cursor struct {
	at       store.Position
	pageSize int
	newest   bool
}

func parseTip26Cursor(name, v string) (tip26Cursor, error) {
	newest := strings.HasSuffix(v, ledgerquery.NewestSuffix)
	at, size, err := ledgerquery.DecodeSortedCursor(v, newest)
	if err != nil {
		return tip26Cursor{}, rest.BadParam(name, "%v, got %s", err, rest.Quote(v))
	}
	if size > Tip26MaxPageSize {
		return tip26Cursor{}, rest.BadParam(name, "page size %d, want 1..%d", size, Tip26MaxPageSize)
	}
	return tip26Cursor{at, size, newest}, nil
}

// The TIP-26 parameters, in groups the list routes share (inx-indexer's names and order).

type TokenParams struct {
	HasNativeTokens *bool  `query:"hasNativeTokens" kind:"bool" doc:"only outputs with (true) or without (false) native tokens"`
	MinNativeTokens *int32 `query:"minNativeTokenCount" kind:"tokenCount" doc:"only outputs with at least this many native tokens"`
	MaxNativeTokens *int32 `query:"maxNativeTokenCount" kind:"tokenCount" doc:"only outputs with at most this many native tokens"`
}

type unlockableParams struct {
	Unlockable *chain.LocalAddress `query:"unlockableByAddress" kind:"address" doc:"bech32 address in any unlock condition: a basic or NFT output's address, expiration return or storage deposit return address; an alias's state controller or governor; a foundry's alias (an alias address only)"`
}

type ConditionParams struct {
	Address *chain.LocalAddress `query:"address" kind:"address" doc:"bech32 address of the address unlock condition"`
	unlockableParams
	HasSDR           *bool               `query:"hasStorageDepositReturn" kind:"bool" doc:"storage deposit return unlock condition present"`
	SDRAddress       *chain.LocalAddress `query:"storageDepositReturnAddress" kind:"address" doc:"its return address"`
	HasTimelock      *bool               `query:"hasTimelock" kind:"bool" doc:"timelock unlock condition present"`
	TimelockedBefore *uint32             `query:"timelockedBefore" kind:"unix" doc:"timelocked until before this unix time"`
	TimelockedAfter  *uint32             `query:"timelockedAfter" kind:"unix" doc:"timelocked until after this unix time"`
	HasExpiration    *bool               `query:"hasExpiration" kind:"bool" doc:"expiration unlock condition present"`
	ExpiresBefore    *uint32             `query:"expiresBefore" kind:"unix" doc:"expiring before this unix time"`
	ExpiresAfter     *uint32             `query:"expiresAfter" kind:"unix" doc:"expiring after this unix time"`
	ExpirationReturn *chain.LocalAddress `query:"expirationReturnAddress" kind:"address" doc:"the expiration's return address"`
}

type SenderParams struct {
	Sender *chain.LocalAddress `query:"sender" kind:"address" doc:"bech32 address of the sender feature"`
}

type TagParams struct {
	Tag *string `query:"tag" kind:"tag" doc:"the tag feature, 0x-hex"`
}

type IssuerParams struct {
	Issuer *chain.LocalAddress `query:"issuer" kind:"address" doc:"bech32 address of the issuer feature"`
}

type AliasRoleParams struct {
	StateController *chain.LocalAddress `query:"stateController" kind:"address" doc:"bech32 state controller address"`
	Governor        *chain.LocalAddress `query:"governor" kind:"address" doc:"bech32 governor address"`
}

type AliasAddressParams struct {
	AliasAddress *chain.LocalAddress `query:"aliasAddress" kind:"address" doc:"bech32 address of the foundry's alias"`
}

// AsOfParams ask for the ledger once an earlier milestone was applied.
type AsOfParams struct {
	LedgerIndex *uint32 `query:"ledgerIndex" kind:"index" doc:"the outputs unspent once this milestone was applied (default: the ledger index): created up to it and not spent by then; with includeSpent, every output created up to it. Above the ledger index, 400"`
}

// asked is the ledger index asked for (nil: the ledger index).
func (p *AsOfParams) asked() *uint32 { return p.LedgerIndex }

// TailParams end every list's parameters: the creation time, the page and the ledger
// index.
type TailParams struct {
	CreatedBefore *uint32      `query:"createdBefore" kind:"unix" doc:"created before this unix time"`
	CreatedAfter  *uint32      `query:"createdAfter" kind:"unix" doc:"created after this unix time"`
	PageSize      *int         `query:"pageSize" kind:"tip26PageSize" doc:"items per page (1-1000, default 1000); a cursor's own wins"`
	Cursor        *tip26Cursor `query:"cursor" kind:"tip26Cursor" doc:"where the page starts: the cursor of the previous page"`
	AsOfParams
}

// OrderParams are inx-chronicle's order and spent-output switches, on its routes (the
// kinds' lists).
type OrderParams struct {
	Oldest       *bool `query:"sort" kind:"tip26Sort" doc:"oldest (default): TIP-26 order; newest: its reverse. A cursor belongs to one order: the other refuses it"`
	IncludeSpent *bool `query:"includeSpent" kind:"bool" doc:"false (default): unspent outputs; true: spent ones too, every output created up to the ledger index (docs/indexer-api.md)"`
}

func (p *BasicParams) order() *OrderParams   { return &p.OrderParams }
func (p *nftParams) order() *OrderParams     { return &p.OrderParams }
func (p *aliasParams) order() *OrderParams   { return &p.OrderParams }
func (p *foundryParams) order() *OrderParams { return &p.OrderParams }
func (p *AnyParams) order() *OrderParams     { return nil }

func (p *TailParams) tail() *TailParams { return p }

func (p *TokenParams) setOn(f *ledgerquery.Filter) {
	f.HasNativeTokens, f.MinNativeTokens, f.MaxNativeTokens = p.HasNativeTokens, p.MinNativeTokens, p.MaxNativeTokens
}

func (p *ConditionParams) setOn(f *ledgerquery.Filter) {
	f.Address, f.Unlockable, f.HasSDR, f.SDRAddress = opt(p.Address), opt(p.Unlockable), p.HasSDR, opt(p.SDRAddress)
	f.HasTimelock, f.TimelockedBefore, f.TimelockedAfter = p.HasTimelock, unix(p.TimelockedBefore), unix(p.TimelockedAfter)
	f.HasExpiration, f.ExpiresBefore, f.ExpiresAfter = p.HasExpiration, unix(p.ExpiresBefore), unix(p.ExpiresAfter)
	f.ExpirationReturn = opt(p.ExpirationReturn)
}

// opt is an optional parameter's value (the zero value when not given).
func opt[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}

func unix(n *uint32) *int64 {
	if n == nil {
		return nil
	}
	v := int64(*n)
	return &v
}

// Page is the page a request asks for: its cursor (nil: the first page) and size.
func (p *TailParams) Page() (*store.Position, int) {
	switch {
	case p.Cursor != nil:
		return &p.Cursor.at, p.Cursor.pageSize
	case p.PageSize != nil:
		return nil, *p.PageSize
	}
	return nil, Tip26DefaultPageSize
}

// Newest is the order a request asks for (sort=newest: true), and refuses a cursor of
// the other order: a cursor is a position in one order only.
func (p *OrderParams) Newest(c *tip26Cursor) (bool, error) {
	newest := p != nil && p.Oldest != nil && !*p.Oldest
	if c != nil && c.newest != newest {
		return false, rest.BadParam("cursor", "a cursor of sort=%s on a request of sort=%s: a cursor resumes its own "+
			"order only", sortName(c.newest), sortName(newest))
	}
	return newest, nil
}

// includeSpent is whether a request lists spent outputs too (includeSpent=true).
func (p *OrderParams) includeSpent() bool {
	return p != nil && p.IncludeSpent != nil && *p.IncludeSpent
}

func sortName(newest bool) string {
	if newest {
		return "newest"
	}
	return "oldest"
}
