package chain

import "math/big"

// Limits the decoder enforces on outputs (TIP-18).
const (
	MaxNativeTokens   = 64
	MaxTagLength      = 64
	MaxMetadataLength = 8192
)

// EncodeOutput serializes an output as a standalone, versioned blob.
func EncodeOutput(o Output) []byte {
	w := &writer{buf: []byte{blobVersion}}
	writeOutput(w, &o)
	return w.buf
}

// DecodeOutput parses a blob made by EncodeOutput.
func DecodeOutput(b []byte) (Output, error) {
	r := &reader{buf: b}
	r.blobHeader()
	o := readOutput(r, "")
	if err := r.finish("output"); err != nil {
		return Output{}, err
	}
	return o, nil
}

func writeOutput(w *writer, o *Output) {
	w.u8(uint8(o.Kind))
	w.u64(o.Amount)
	writeNativeTokens(w, o.NativeTokens)
	switch o.Kind {
	case OutputAlias:
		w.bytes(o.AliasID[:])
		w.u32(o.StateIndex)
		w.u32(o.FoundryCounter)
	case OutputFoundry:
		w.u32(o.SerialNumber)
		w.u8(TokenSchemeSimple)
		w.uint256(o.TokenScheme.Minted)
		w.uint256(o.TokenScheme.Melted)
		w.uint256(o.TokenScheme.MaxSupply)
	case OutputNFT:
		w.bytes(o.NFTID[:])
	case OutputLegacy:
		w.u8(o.LegacyType)
	}
	writeConditions(w, o)
	writeFeatures(w, o)
}

func writeNativeTokens(w *writer, tokens []NativeToken) {
	w.u8(uint8(len(tokens)))
	for _, t := range tokens {
		w.bytes(t.ID[:])
		w.uint256(t.Amount)
	}
}

func readOutput(r *reader, path string) Output {
	o := Output{Kind: OutputKind(r.u8(joinField(path, "kind")))}
	o.Amount = r.u64(joinField(path, "amount"))
	if r.err == nil && o.Amount == 0 {
		r.fail(joinField(path, "amount"), "must be positive")
	}
	o.NativeTokens = readNativeTokens(r, joinField(path, "nativeTokens"))
	readKindFields(r, path, &o)
	readConditions(r, joinField(path, "unlockConditions"), &o)
	readFeatures(r, joinField(path, "features"), &o)
	deriveOutputFields(&o)
	return o
}

func readKindFields(r *reader, path string, o *Output) {
	switch o.Kind {
	case OutputBasic:
	case OutputAlias:
		r.fill(joinField(path, "aliasId"), o.AliasID[:])
		o.StateIndex = r.u32(joinField(path, "stateIndex"))
		o.FoundryCounter = r.u32(joinField(path, "foundryCounter"))
	case OutputFoundry:
		o.SerialNumber = r.u32(joinField(path, "serialNumber"))
		o.TokenScheme = readTokenScheme(r, joinField(path, "tokenScheme"))
	case OutputNFT:
		r.fill(joinField(path, "nftId"), o.NFTID[:])
	case OutputLegacy:
		o.LegacyType = r.u8(joinField(path, "legacyType"))
		if r.err == nil && o.LegacyType > LegacySigLockedDustAllowance {
			r.fail(joinField(path, "legacyType"), "unknown legacy output type %d", o.LegacyType)
		}
	default:
		r.fail(joinField(path, "kind"), "unknown output kind %d", uint8(o.Kind))
	}
}

func readNativeTokens(r *reader, path string) []NativeToken {
	n := int(r.u8(path))
	if n > MaxNativeTokens {
		r.fail(path, "%d native tokens exceed %d", n, MaxNativeTokens)
		return nil
	}
	var tokens []NativeToken
	for i := 0; i < n && r.err == nil; i++ {
		field := indexed(path, i)
		var t NativeToken
		r.fill(joinField(field, "id"), t.ID[:])
		t.Amount = r.uint256(joinField(field, "amount"))
		if r.err == nil && t.Amount.Sign() == 0 {
			r.fail(joinField(field, "amount"), "must be positive")
		}
		if r.err == nil && i > 0 && string(t.ID[:]) <= string(tokens[i-1].ID[:]) {
			r.fail(joinField(field, "id"), "not in ascending order or duplicate")
		}
		tokens = append(tokens, t)
	}
	return tokens
}

func readTokenScheme(r *reader, path string) TokenScheme {
	if kind := r.u8(joinField(path, "kind")); r.err == nil && kind != TokenSchemeSimple {
		r.fail(joinField(path, "kind"), "unknown token scheme %d", kind)
	}
	ts := TokenScheme{
		Minted:    r.uint256(joinField(path, "minted")),
		Melted:    r.uint256(joinField(path, "melted")),
		MaxSupply: r.uint256(joinField(path, "maxSupply")),
	}
	if r.err != nil {
		return ts
	}
	circulating := new(big.Int).Sub(ts.Minted, ts.Melted)
	switch {
	case ts.MaxSupply.Sign() == 0:
		r.fail(joinField(path, "maxSupply"), "must be positive")
	case circulating.Sign() < 0:
		r.fail(joinField(path, "melted"), "exceeds minted")
	case circulating.Cmp(ts.MaxSupply) > 0:
		r.fail(joinField(path, "minted"), "circulating supply exceeds max supply")
	}
	return ts
}

// deriveOutputFields fills the fields the format stores only once.
func deriveOutputFields(o *Output) {
	switch o.Kind {
	case OutputAlias:
		if o.StateController != nil {
			sc := *o.StateController
			o.Address = &sc
		}
	case OutputFoundry:
		if o.Address != nil {
			o.FoundryID = NewFoundryID(AliasID(o.Address.ID), o.SerialNumber, TokenSchemeSimple)
		}
	}
}
