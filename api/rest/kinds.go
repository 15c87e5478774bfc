package rest

import (
	"fmt"
	"reflect"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Kind is the type of a path or query parameter: how it is parsed (to a canonical
// value, or a 400) and how OpenAPI describes it.
type Kind struct {
	Schema map[string]any
	Parse  func(name, value string) (any, error)
	typ    reflect.Type // of the values parse gives (typedKind); nil: not declared
	// textual: a string field may take the value's text, its String (IDs: lowercase
	// 0x-hex, the form the tables hold).
	textual bool
}

// TypedKind is a kind whose values are of type V: a parameter field of that type can
// take them (rest/params_typed.go).
func TypedKind[V any](schema map[string]any, parse func(name, value string) (V, error)) Kind {
	return Kind{Schema: schema, typ: reflect.TypeFor[V](),
		Parse: func(name, value string) (any, error) { return parse(name, value) }}
}

// hexIDKind is an ID's kind: its values are the chain type, parsed once; a string field
// takes the ID's text instead.
func hexIDKind[T fmt.Stringer](bytes int, parse func(string) (T, error)) Kind {
	k := TypedKind(map[string]any{"type": "string", "pattern": "^0x[0-9a-fA-F]{" + Itoa(2*bytes) + "}$"},
		func(name, v string) (T, error) { return parseID(name, v, parse) })
	k.textual = true
	return k
}

var (
	messageIDKind     = hexIDKind(32, chain.ParseMessageID)
	transactionIDKind = hexIDKind(32, chain.ParseTransactionID)
	outputIDKind      = hexIDKind(34, chain.ParseOutputID)
	aliasIDKind       = hexIDKind(32, chain.ParseAliasID)
	nftIDKind         = hexIDKind(32, chain.ParseNFTID)
	foundryIDKind     = hexIDKind(38, chain.ParseFoundryID)

	addressKind = TypedKind(map[string]any{"type": "string",
		"description": "bech32 (any HRP) or 0x-hex of the kind byte and 32 bytes"}, ParseAddress)
	tagKind  = TypedKind(map[string]any{"type": "string", "pattern": "^0x([0-9a-fA-F]{2}){1,64}$"}, ParseTag)
	boolKind = TypedKind(map[string]any{"type": "boolean"}, parseBool)
	TimeKind = TypedKind(map[string]any{"type": "string",
		"description": "RFC 3339 (2022-10-01T00:00:00Z) or unix seconds"}, parseTime)
	dateKind = TypedKind(map[string]any{"type": "string", "format": "date", "description": "a UTC day, YYYY-MM-DD"},
		parseDate)
	indexKind = TypedKind(map[string]any{"type": "integer", "format": "int64", "minimum": 0, "maximum": 4294967295},
		ParseUint32)
	pageSizeKind = TypedKind(map[string]any{"type": "integer", "minimum": 1, "maximum": MaxPageSize,
		"default": DefaultPageSize}, parsePageSize)
	// cursorKind is decoded once the query's hash is known (see parseInput).
	cursorKind = TypedKind(map[string]any{"type": "string", "description": "opaque, from the previous page"},
		func(_, v string) (string, error) { return v, nil })
)

// sortKind accepts newest or oldest; the value is true for oldest.
var sortKind = TypedKind(map[string]any{"type": "string", "enum": []string{"newest", "oldest"}, "default": "newest"},
	ParseOldest)

// ParseOldest reads a sort order: true for oldest, false for newest.
func ParseOldest(name, v string) (bool, error) {
	switch v {
	case "newest":
		return false, nil
	case "oldest":
		return true, nil
	}
	return false, BadParam(name, "want newest or oldest, got %s", Quote(v))
}

// milestoneIDKind is a milestone ID, 0x-hex.
var milestoneIDKind = hexIDKind(32, chain.ParseMilestoneID)
