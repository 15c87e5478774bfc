package api

import (
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// TIP-26 parameters: inx-indexer's (Stardust) names and forms. Page sizes: inx-indexer
// answers its maximum (1000) when none is given; out-of-range sizes are a 400 here
// where inx-indexer quietly used its maximum.
const (
	tip26MaxPageSize     = 1000
	tip26DefaultPageSize = tip26MaxPageSize
)

var (
	unixKind = kind{schema: map[string]any{"type": "integer", "minimum": 0, "maximum": 4294967295,
		"description": "unix seconds"}, parse: func(name, v string) (any, error) { return parseUint32(name, v) }}
	tokenCountKind = kind{schema: map[string]any{"type": "integer", "minimum": 0, "maximum": chain.MaxNativeTokens},
		parse: func(name, v string) (any, error) { return parseTokenCount(name, v) }}
	tip26PageSizeKind = kind{schema: map[string]any{"type": "integer", "minimum": 1, "maximum": tip26MaxPageSize,
		"default": tip26DefaultPageSize}, parse: func(name, v string) (any, error) { return parseTip26PageSize(name, v) }}
	tip26CursorKind = kind{schema: map[string]any{"type": "string", "pattern": "^[0-9a-fA-F]{76}\\.[0-9]+(\\.newest)?$",
		"description": "from the previous page: creation time (8 hex digits), output ID (68 hex digits), '.', " +
			"page size, and '.newest' on a newest-first page"},
		parse: func(name, v string) (any, error) { return parseTip26Cursor(name, v) }}
	tip26SortKind = kind{schema: map[string]any{"type": "string", "enum": []string{"oldest", "newest"},
		"default": "oldest"}, parse: sortKind.parse}
)

func parseTokenCount(name, v string) (int32, error) {
	n, err := strconv.ParseUint(v, 10, 8)
	if err != nil || n > chain.MaxNativeTokens {
		return 0, badParam(name, "want an integer in 0..%d, got %s", chain.MaxNativeTokens, quote(v))
	}
	return int32(n), nil
}

func parseTip26PageSize(name, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > tip26MaxPageSize {
		return 0, badParam(name, "want an integer in 1..%d, got %s", tip26MaxPageSize, quote(v))
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
		return tip26Cursor{}, badParam(name, "%v, got %s", err, quote(v))
	}
	if size > tip26MaxPageSize {
		return tip26Cursor{}, badParam(name, "page size %d, want 1..%d", size, tip26MaxPageSize)
	}
	return tip26Cursor{at, size, newest}, nil
}

func tip26Param(name string, k kind, doc string) param { return param{name: name, kind: k, doc: doc} }

var (
	tokenParams = []param{
		tip26Param("hasNativeTokens", boolKind, "only outputs with (true) or without (false) native tokens"),
		tip26Param("minNativeTokenCount", tokenCountKind, "only outputs with at least this many native tokens"),
		tip26Param("maxNativeTokenCount", tokenCountKind, "only outputs with at most this many native tokens"),
	}
	unlockableParam = tip26Param("unlockableByAddress", addressKind,
		"bech32 address in any unlock condition: a basic or NFT output's address, expiration return or storage "+
			"deposit return address; an alias's state controller or governor; a foundry's alias (an alias address only)")
	conditionParams = []param{
		tip26Param("address", addressKind, "bech32 address of the address unlock condition"),
		unlockableParam,
		tip26Param("hasStorageDepositReturn", boolKind, "storage deposit return unlock condition present"),
		tip26Param("storageDepositReturnAddress", addressKind, "its return address"),
		tip26Param("hasTimelock", boolKind, "timelock unlock condition present"),
		tip26Param("timelockedBefore", unixKind, "timelocked until before this unix time"),
		tip26Param("timelockedAfter", unixKind, "timelocked until after this unix time"),
		tip26Param("hasExpiration", boolKind, "expiration unlock condition present"),
		tip26Param("expiresBefore", unixKind, "expiring before this unix time"),
		tip26Param("expiresAfter", unixKind, "expiring after this unix time"),
		tip26Param("expirationReturnAddress", addressKind, "the expiration's return address"),
	}
	senderParam = tip26Param("sender", addressKind, "bech32 address of the sender feature")
	tagParam    = tip26Param("tag", tagKind, "the tag feature, 0x-hex")
	issuerParam = tip26Param("issuer", addressKind, "bech32 address of the issuer feature")
	aliasParams = []param{
		tip26Param("stateController", addressKind, "bech32 state controller address"),
		tip26Param("governor", addressKind, "bech32 governor address"),
	}
	aliasAddressParam = tip26Param("aliasAddress", addressKind, "bech32 address of the foundry's alias")
	tailParams        = []param{
		tip26Param("createdBefore", unixKind, "created before this unix time"),
		tip26Param("createdAfter", unixKind, "created after this unix time"),
		tip26Param("pageSize", tip26PageSizeKind, "items per page (1-1000, default 1000); a cursor's own wins"),
		tip26Param("cursor", tip26CursorKind, "where the page starts: the cursor of the previous page"),
	}
	// inx-chronicle's order and spent-output switches, on its routes (the kinds' lists).
	chronicleParams = []param{
		tip26Param("sort", tip26SortKind, "oldest (default): TIP-26 order; newest: its reverse. A cursor "+
			"belongs to one order: the other refuses it"),
		tip26Param("includeSpent", boolKind, "false (default): unspent outputs; true: spent ones too, every "+
			"output created up to the ledger index (docs/indexer-api.md)"),
	}
)

func joinParams(groups ...[]param) []param {
	var out []param
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// Parameters of each TIP-26 list route, as inx-indexer (Stardust) accepts them.
var (
	basicQuery = joinParams(tokenParams, conditionParams, []param{senderParam, tagParam}, tailParams, chronicleParams)
	nftQuery   = joinParams(tokenParams, conditionParams, []param{issuerParam, senderParam, tagParam}, tailParams,
		chronicleParams)
	aliasQuery = joinParams(tokenParams, []param{unlockableParam}, aliasParams, []param{issuerParam, senderParam},
		tailParams, chronicleParams)
	foundryQuery = joinParams(tokenParams, []param{aliasAddressParam}, tailParams, chronicleParams)
	anyQuery     = joinParams(tokenParams, []param{unlockableParam}, tailParams)
)

// tip26Filter is the filter a request's parameters spell.
func tip26Filter(in *input) *ledgerquery.Filter {
	f := &ledgerquery.Filter{
		HasNativeTokens: in.flag("hasNativeTokens"), MinNativeTokens: count(in, "minNativeTokenCount"),
		MaxNativeTokens: count(in, "maxNativeTokenCount"), Address: in.text("address"),
		Unlockable: in.text("unlockableByAddress"), AliasAddress: in.text("aliasAddress"),
		HasSDR: in.flag("hasStorageDepositReturn"), SDRAddress: in.text("storageDepositReturnAddress"),
		HasTimelock: in.flag("hasTimelock"), TimelockedBefore: unix(in, "timelockedBefore"),
		TimelockedAfter: unix(in, "timelockedAfter"), HasExpiration: in.flag("hasExpiration"),
		ExpiresBefore: unix(in, "expiresBefore"), ExpiresAfter: unix(in, "expiresAfter"),
		ExpirationReturn: in.text("expirationReturnAddress"), Sender: in.text("sender"), Tag: in.text("tag"),
		Issuer: in.text("issuer"), StateController: in.text("stateController"), Governor: in.text("governor"),
		CreatedBefore: unix(in, "createdBefore"), CreatedAfter: unix(in, "createdAfter"),
	}
	return f
}

func count(in *input, name string) *int32 {
	if n, ok := in.values[name].(int32); ok {
		return &n
	}
	return nil
}

func unix(in *input, name string) *int64 {
	if n, ok := in.values[name].(uint32); ok {
		v := int64(n)
		return &v
	}
	return nil
}

// tip26Page is the page a request asks for: its cursor (nil: the first page) and size.
func tip26Page(in *input) (*store.Position, int) {
	if c, ok := in.values["cursor"].(tip26Cursor); ok {
		return &c.at, c.pageSize
	}
	if n, ok := in.values["pageSize"].(int); ok {
		return nil, n
	}
	return nil, tip26DefaultPageSize
}

// tip26Newest is the order a request asks for (sort=newest: true), and refuses a cursor
// of the other order: a cursor is a position in one order only.
func tip26Newest(in *input) (bool, error) {
	oldest, given := in.values["sort"].(bool)
	newest := given && !oldest
	if c, ok := in.values["cursor"].(tip26Cursor); ok && c.newest != newest {
		return false, badParam("cursor", "a cursor of sort=%s on a request of sort=%s: a cursor resumes its own "+
			"order only", sortName(c.newest), sortName(newest))
	}
	return newest, nil
}

func sortName(newest bool) string {
	if newest {
		return "newest"
	}
	return "oldest"
}

// tip26IncludeSpent is whether a request lists spent outputs too (includeSpent=true).
func tip26IncludeSpent(in *input) bool {
	b := in.flag("includeSpent")
	return b != nil && *b
}
