package chain

import "math/big"

// Limits the decoder enforces on outputs (TIP-18).
const (
	MaxNativeTokens   = 64
	MaxTagLength      = 64
	MaxMetadataLength = 8192
)

// EncodeOutput serializes an output as a transaction carries it (TIP-18); a legacy
// output in the Chrysalis layout (type, address, amount).
func EncodeOutput(o Output) []byte { return encoded(&o, writeOutput) }

// DecodeOutput parses one serialized output: a Stardust output, or a legacy one in
// the Chrysalis layout.
func DecodeOutput(b []byte) (Output, error) {
	r := &reader{buf: b}
	var o Output
	if len(b) > 0 && b[0] <= LegacySigLockedDustAllowance {
		o = readLegacyOutput(r, "output")
	} else {
		o = readStardustOutput(r, "output")
	}
	if err := r.finish("output"); err != nil {
		return Output{}, err
	}
	return o, nil
}

func writeOutput(w *writer, o *Output) {
	if o.Kind == OutputLegacy {
		writeLegacyOutput(w, o)
		return
	}
	w.u8(uint8(o.Kind))
	w.u64(o.Amount)
	writeNativeTokens(w, o.NativeTokens)
	switch o.Kind {
	case OutputAlias:
		w.bytes(o.AliasID[:])
		w.u32(o.StateIndex)
		w.bytes16(o.StateMetadata)
		w.u32(o.FoundryCounter)
	case OutputFoundry:
		w.u32(o.SerialNumber)
		w.u8(TokenSchemeSimple)
		w.uint256(o.TokenScheme.Minted)
		w.uint256(o.TokenScheme.Melted)
		w.uint256(o.TokenScheme.MaxSupply)
	case OutputNFT:
		w.bytes(o.NFTID[:])
	}
	writeConditions(w, o)
	writeFeatures(w, o)
	if o.Kind != OutputBasic {
		writeImmutableFeatures(w, o)
	}
}

func writeLegacyOutput(w *writer, o *Output) {
	w.u8(o.LegacyType)
	var a Address
	if o.Address != nil {
		a = *o.Address
	}
	w.address(a)
	w.u64(o.Amount)
}

func readLegacyOutput(r *reader, path string) Output {
	o := Output{Kind: OutputLegacy, LegacyType: r.u8(joinField(path, "type"))}
	a := r.address(joinField(path, "address"))
	if r.err == nil && a.Kind != AddressEd25519 {
		r.fail(joinField(path, "address"), "legacy outputs hold Ed25519 addresses, got %s", a.Kind)
	}
	o.Address = &a
	o.Amount = r.u64(joinField(path, "amount"))
	if r.err == nil && o.Amount == 0 {
		r.fail(joinField(path, "amount"), "must be positive")
	}
	return o
}

func writeNativeTokens(w *writer, tokens []NativeToken) {
	w.u8(uint8(len(tokens)))
	for _, t := range tokens {
		w.bytes(t.ID[:])
		w.uint256(t.Amount)
	}
}

// readStardustOutput reads an output of a type a transaction may create (3-6).
func readStardustOutput(r *reader, path string) Output {
	o := Output{Kind: OutputKind(r.u8(joinField(path, "type")))}
	switch {
	case r.err != nil:
		return o
	case o.Kind < OutputBasic || o.Kind > OutputNFT:
		r.fail(joinField(path, "type"), "output type %d not allowed in a transaction", uint8(o.Kind))
		return o
	}
	o.Amount = r.u64(joinField(path, "amount"))
	if r.err == nil && o.Amount == 0 {
		r.fail(joinField(path, "amount"), "must be positive")
	}
	o.NativeTokens = readNativeTokens(r, joinField(path, "nativeTokens"))
	readKindFields(r, path, &o)
	readConditions(r, joinField(path, "unlockConditions"), &o)
	readFeatures(r, joinField(path, "features"), &o)
	if o.Kind != OutputBasic {
		readImmutableFeatures(r, joinField(path, "immutableFeatures"), &o)
	}
	deriveOutputFields(&o)
	checkChainRules(r, path, &o)
	return o
}

func readKindFields(r *reader, path string, o *Output) {
	switch o.Kind {
	case OutputAlias:
		r.fill(joinField(path, "aliasId"), o.AliasID[:])
		o.StateIndex = r.u32(joinField(path, "stateIndex"))
		o.StateMetadata = r.bytes16(joinField(path, "stateMetadata"), 0, MaxMetadataLength)
		if len(o.StateMetadata) == 0 {
			o.StateMetadata = nil
		}
		o.FoundryCounter = r.u32(joinField(path, "foundryCounter"))
	case OutputFoundry:
		o.SerialNumber = r.u32(joinField(path, "serialNumber"))
		o.TokenScheme = readTokenScheme(r, joinField(path, "tokenScheme"))
	case OutputNFT:
		r.fill(joinField(path, "nftId"), o.NFTID[:])
	}
}

func readNativeTokens(r *reader, path string) []NativeToken {
	n := int(r.u8(path))
	if r.err == nil && n > MaxNativeTokens {
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
		if r.err == nil && i > 0 && !ascending(tokens[i-1].ID[:], t.ID[:]) {
			r.fail(joinField(field, "id"), "not in ascending order or duplicate")
		}
		tokens = append(tokens, t)
	}
	return tokens
}

func readTokenScheme(r *reader, path string) TokenScheme {
	if kind := r.u8(joinField(path, "type")); r.err == nil && kind != TokenSchemeSimple {
		r.fail(joinField(path, "type"), "unknown token scheme %d", kind)
	}
	ts := TokenScheme{
		Minted:    r.uint256(joinField(path, "mintedTokens")),
		Melted:    r.uint256(joinField(path, "meltedTokens")),
		MaxSupply: r.uint256(joinField(path, "maximumSupply")),
	}
	if r.err != nil {
		return ts
	}
	circulating := new(big.Int).Sub(ts.Minted, ts.Melted)
	switch {
	case ts.MaxSupply.Sign() == 0:
		r.fail(joinField(path, "maximumSupply"), "must be positive")
	case circulating.Sign() < 0:
		r.fail(joinField(path, "meltedTokens"), "exceeds minted")
	case circulating.Cmp(ts.MaxSupply) > 0:
		r.fail(joinField(path, "mintedTokens"), "circulating supply exceeds maximum supply")
	}
	return ts
}

// deriveOutputFields fills the fields the format holds only once.
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

// checkChainRules enforces TIP-18's rules on alias and NFT chains: a new alias starts at
// state 0 with no foundries, and no chain is controlled by its own address.
func checkChainRules(r *reader, path string, o *Output) {
	if r.err != nil {
		return
	}
	switch o.Kind {
	case OutputAlias:
		if o.AliasID.IsZero() {
			if o.StateIndex != 0 || o.FoundryCounter != 0 {
				r.fail(joinField(path, "stateIndex"), "a new alias must start with state index and foundry counter 0")
			}
			return
		}
		own := AliasAddress(o.AliasID)
		if *o.StateController == own || *o.Governor == own {
			r.fail(joinField(path, "unlockConditions"), "alias %s is controlled by its own address", o.AliasID)
		}
	case OutputNFT:
		if !o.NFTID.IsZero() && *o.Address == NFTAddress(o.NFTID) {
			r.fail(joinField(path, "unlockConditions"), "nft %s is owned by its own address", o.NFTID)
		}
	}
}
