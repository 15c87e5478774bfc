package api

import (
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// kind is the type of a path or query parameter: how it is parsed (to a canonical
// value, or a 400) and how OpenAPI describes it.
type kind struct {
	schema map[string]any
	parse  func(name, value string) (any, error)
}

func text(f func(name, value string) (string, error)) func(string, string) (any, error) {
	return func(name, value string) (any, error) { return f(name, value) }
}

func hexIDKind[T interface{ String() string }](bytes int, parse func(string) (T, error)) kind {
	return kind{
		schema: map[string]any{"type": "string", "pattern": "^0x[0-9a-fA-F]{" + itoa(2*bytes) + "}$"},
		parse:  text(func(name, v string) (string, error) { return parseID(name, v, parse) }),
	}
}

var (
	messageIDKind     = hexIDKind(32, chain.ParseMessageID)
	transactionIDKind = hexIDKind(32, chain.ParseTransactionID)
	outputIDKind      = hexIDKind(34, chain.ParseOutputID)
	aliasIDKind       = hexIDKind(32, chain.ParseAliasID)
	nftIDKind         = hexIDKind(32, chain.ParseNFTID)
	foundryIDKind     = hexIDKind(38, chain.ParseFoundryID)

	addressKind = kind{schema: map[string]any{"type": "string",
		"description": "bech32 (any HRP) or 0x-hex of the kind byte and 32 bytes"},
		parse: func(name, v string) (any, error) { return parseAddress(name, v) }}
	tagKind = kind{schema: map[string]any{"type": "string", "pattern": "^0x([0-9a-fA-F]{2}){1,64}$"},
		parse: text(parseTag)}
	boolKind = kind{schema: map[string]any{"type": "boolean"},
		parse: func(name, v string) (any, error) { return parseBool(name, v) }}
	timeKind = kind{schema: map[string]any{"type": "string",
		"description": "RFC 3339 (2022-10-01T00:00:00Z) or unix seconds"},
		parse: func(name, v string) (any, error) { return parseTime(name, v) }}
	dateKind = kind{schema: map[string]any{"type": "string", "format": "date", "description": "a UTC day, YYYY-MM-DD"},
		parse: func(name, v string) (any, error) { return parseDate(name, v) }}
	indexKind = kind{schema: map[string]any{"type": "integer", "format": "int64", "minimum": 0, "maximum": 4294967295},
		parse: func(name, v string) (any, error) { return parseUint32(name, v) }}
	pageSizeKind = kind{schema: map[string]any{"type": "integer", "minimum": 1, "maximum": maxPageSize,
		"default": defaultPageSize}, parse: func(name, v string) (any, error) { return parsePageSize(name, v) }}
	// cursorKind is decoded once the query's hash is known (see parseInput).
	cursorKind = kind{schema: map[string]any{"type": "string", "description": "opaque, from the previous page"},
		parse: func(_, v string) (any, error) { return v, nil }}
)

// sortKind accepts newest or oldest; the value is true for oldest.
var sortKind = kind{schema: map[string]any{"type": "string", "enum": []string{"newest", "oldest"}, "default": "newest"},
	parse: func(name, v string) (any, error) {
		switch v {
		case "newest":
			return false, nil
		case "oldest":
			return true, nil
		}
		return nil, badParam(name, "want newest or oldest, got %s", quote(v))
	}}

// milestoneIDKind is a milestone ID, 0x-hex.
var milestoneIDKind = hexIDKind(32, chain.ParseMilestoneID)
