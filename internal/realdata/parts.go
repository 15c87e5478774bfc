package realdata

import (
	"bytes"
	"encoding/json"
)

// Address type bytes (TIP-18) keyed by Chronicle's externally tagged address names.
var addressTypes = map[string]uint8{"ed25519": 0, "alias": 8, "nft": 16}

// address writes a Chronicle address ({"ed25519": bytes} / {"alias": ...} / {"nft": ...}) as the
// 33-byte type + ID form, and returns the type byte.
func (w *writer) address(js json.RawMessage, what string) uint8 {
	var m map[string]bin
	if err := strictUnmarshal(js, &m); err != nil {
		w.fail("%s: %v", what, err)
		return 0
	}
	if len(m) != 1 {
		w.fail("%s: want exactly one address kind, got %d", what, len(m))
		return 0
	}
	for kind, id := range m {
		typ, ok := addressTypes[kind]
		if !ok {
			w.fail("%s: unknown address kind %q", what, kind)
			return 0
		}
		w.u8(typ)
		w.fixedBytes(id, 32, what)
		return typ
	}
	return 0
}

type chrNativeToken struct {
	TokenID bin `json:"token_id"`
	Amount  bin `json:"amount"`
}

// nativeTokens writes the uint8 count and each token ID + amount, converting Chronicle's
// big-endian uint256 to the wire's little-endian.
func (w *writer) nativeTokens(tokens []chrNativeToken) {
	w.count8(len(tokens), "native tokens")
	var prev []byte
	for _, t := range tokens {
		// The wire requires ascending unique token IDs; an unsorted record cannot come from a node.
		if prev != nil && bytes.Compare(prev, t.TokenID) >= 0 {
			w.fail("native tokens: token IDs not strictly ascending")
		}
		prev = t.TokenID
		w.fixedBytes(t.TokenID, 38, "native token ID")
		w.uint256BE(t.Amount, "native token amount")
	}
}

type chrFeature struct {
	Kind    string          `json:"kind"`
	Address json.RawMessage `json:"address"`
	Data    *bin            `json:"data"`
}

// Feature type bytes (TIP-18) keyed by Chronicle's snake_case names.
var featureTypes = map[string]uint8{"sender": 0, "issuer": 1, "metadata": 2, "tag": 3}

// features writes a feature list (also used for immutable features).
func (w *writer) features(fs []chrFeature, what string) {
	w.count8(len(fs), what)
	last := -1
	for _, f := range fs {
		typ, ok := featureTypes[f.Kind]
		if !ok {
			w.fail("%s: unknown feature kind %q", what, f.Kind)
			return
		}
		if int(typ) <= last {
			w.fail("%s: feature types not strictly ascending", what)
		}
		last = int(typ)
		w.u8(typ)
		w.featureBody(f, typ, what)
	}
}

// featureBody writes what follows the type byte; each kind must carry exactly its own field.
func (w *writer) featureBody(f chrFeature, typ uint8, what string) {
	isAddr := typ <= 1
	if isAddr != (f.Address != nil) || isAddr == (f.Data != nil) {
		w.fail("%s: %s feature has the wrong fields", what, f.Kind)
		return
	}
	switch typ {
	case 0, 1:
		w.address(f.Address, what+" "+f.Kind)
	case 2:
		w.bytes16(*f.Data, what+" metadata")
	case 3:
		w.bytes8(*f.Data, what+" tag")
	}
}
