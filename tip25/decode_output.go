package tip25

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// DecodeOutput reads an output's TIP-25 JSON strictly (unknown types and fields refused)
// and returns it as the chain codec decodes its bytes, so every TIP-18 rule applies.
func DecodeOutput(data []byte) (chain.Output, error) {
	d := &decoder{}
	o := d.output(d.object("output", data))
	if d.err != nil {
		return chain.Output{}, d.err
	}
	out, err := chain.DecodeOutput(chain.EncodeOutput(o))
	if err != nil {
		return chain.Output{}, fmt.Errorf("tip25: output breaks TIP-18: %w", err)
	}
	return out, nil
}

var outputKinds = []uint8{uint8(chain.OutputBasic), uint8(chain.OutputAlias), uint8(chain.OutputFoundry), uint8(chain.OutputNFT)}

// What each output kind accepts (TIP-18). They are checked here, not left to the chain
// decoder, because the chain encoder writes what is set in a fixed order: an address
// condition on an alias, a duplicate or an out-of-order entry would vanish or move silently.
var (
	condsAllowed = map[chain.OutputKind][]uint8{
		chain.OutputBasic: {chain.CondAddress, chain.CondStorageDepositReturn, chain.CondTimelock, chain.CondExpiration},
		chain.OutputNFT:   {chain.CondAddress, chain.CondStorageDepositReturn, chain.CondTimelock, chain.CondExpiration},
		chain.OutputAlias: {chain.CondStateController, chain.CondGovernor}, chain.OutputFoundry: {chain.CondImmutableAlias},
	}
	featsAllowed = map[chain.OutputKind][]uint8{
		chain.OutputBasic: {chain.FeatSender, chain.FeatMetadata, chain.FeatTag}, chain.OutputNFT: {chain.FeatSender, chain.FeatMetadata, chain.FeatTag},
		chain.OutputAlias: {chain.FeatSender, chain.FeatMetadata}, chain.OutputFoundry: {chain.FeatMetadata},
	}
	immutableAllowed = map[chain.OutputKind][]uint8{
		chain.OutputNFT: {chain.FeatIssuer, chain.FeatMetadata}, chain.OutputAlias: {chain.FeatIssuer, chain.FeatMetadata},
		chain.OutputFoundry: {chain.FeatMetadata},
	}
)

func (d *decoder) output(j *obj) chain.Output {
	o := chain.Output{Kind: chain.OutputKind(j.typ("output", outputKinds...))}
	o.Amount = j.u64("amount")
	for i, raw := range j.list("nativeTokens", false, chain.MaxNativeTokens) {
		t := d.object(indexed(j.at("nativeTokens"), i), raw)
		var nt chain.NativeToken
		t.fixed("id", nt.ID[:])
		nt.Amount = t.u256("amount")
		t.done()
		o.NativeTokens = append(o.NativeTokens, nt)
	}
	d.kindFields(j, &o)
	what := fmt.Sprintf("unlock condition of a %s output", o.Kind)
	d.typed(j, "unlockConditions", true, what, condsAllowed[o.Kind], func(c *obj, t uint8) { d.condition(c, t, &o) })
	what = fmt.Sprintf("feature of a %s output", o.Kind)
	d.typed(j, "features", false, what, featsAllowed[o.Kind], func(f *obj, t uint8) { d.feature(f, t, &o, false) })
	if o.Kind != chain.OutputBasic {
		what = fmt.Sprintf("immutable feature of a %s output", o.Kind)
		d.typed(j, "immutableFeatures", false, what, immutableAllowed[o.Kind], func(f *obj, t uint8) { d.feature(f, t, &o, true) })
	}
	j.done()
	return o
}

// typed reads a list of typed objects that must be allowed, unique and ascending by type.
func (d *decoder) typed(j *obj, key string, required bool, what string, allowed []uint8, read func(*obj, uint8)) {
	last := -1
	for i, raw := range j.list(key, required, 255) {
		item := d.object(indexed(j.at(key), i), raw)
		t := item.typ(what, allowed...)
		if d.err == nil && int(t) <= last {
			d.fail(item.at("type"), ErrMalformed, "%s type %d not in ascending order or duplicate", what, t)
		}
		last = int(t)
		read(item, t)
		item.done()
	}
}

// kindFields reads the fields of one output kind; done() refuses those of the others.
func (d *decoder) kindFields(j *obj, o *chain.Output) {
	switch o.Kind {
	case chain.OutputAlias:
		j.fixed("aliasId", o.AliasID[:])
		o.StateIndex = uint32(j.uint("stateIndex", 32))
		o.StateMetadata = j.bytes("stateMetadata", false)
		o.FoundryCounter = uint32(j.uint("foundryCounter", 32))
	case chain.OutputFoundry:
		o.SerialNumber = uint32(j.uint("serialNumber", 32))
		ts := j.child("tokenScheme")
		ts.typ("token scheme", chain.TokenSchemeSimple)
		o.TokenScheme = chain.TokenScheme{Minted: ts.u256("mintedTokens"), Melted: ts.u256("meltedTokens"),
			MaxSupply: ts.u256("maximumSupply")}
		ts.done()
	case chain.OutputNFT:
		j.fixed("nftId", o.NFTID[:])
	}
}

func (d *decoder) condition(c *obj, t uint8, o *chain.Output) {
	switch t {
	case chain.CondAddress, chain.CondImmutableAlias:
		o.Address = d.address(c, "address")
	case chain.CondStorageDepositReturn:
		o.StorageDepositReturn = &chain.StorageDepositReturn{ReturnAddress: *d.address(c, "returnAddress"), Amount: c.u64("amount")}
	case chain.CondTimelock:
		o.Timelock = ptr(uint32(c.uint("unixTime", 32)))
	case chain.CondExpiration:
		o.Expiration = &chain.Expiration{ReturnAddress: *d.address(c, "returnAddress"), UnixTime: uint32(c.uint("unixTime", 32))}
	case chain.CondStateController:
		o.StateController = d.address(c, "address")
	case chain.CondGovernor:
		o.Governor = d.address(c, "address")
	}
}

// feature reads one feature into the mutable or immutable set. Data and tag must not be
// empty: the chain encoder would drop an empty one without a word.
func (d *decoder) feature(f *obj, t uint8, o *chain.Output, immutable bool) {
	switch t {
	case chain.FeatSender:
		o.Sender = d.address(f, "address")
	case chain.FeatIssuer:
		o.Issuer = d.address(f, "address")
	case chain.FeatMetadata:
		data := f.nonEmpty("data")
		if immutable {
			o.ImmutableMetadata = data
		} else {
			o.Metadata = data
		}
	case chain.FeatTag:
		o.Tag = f.nonEmpty("tag")
	}
}

// address reads the address object under key.
func (d *decoder) address(parent *obj, key string) *chain.Address {
	return d.addressObj(parent.child(key))
}

func (d *decoder) addressObj(j *obj) *chain.Address {
	a := &chain.Address{Kind: chain.AddressKind(j.typ("address", 0, 8, 16))}
	if name, ok := addressKey[a.Kind]; ok {
		j.fixed(name, a.ID[:])
	}
	j.done()
	return a
}
