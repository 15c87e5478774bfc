package tip25

import "github.com/stardust-indexer/stardust-indexer/chain"

// UnlockConditionJSON is one unlock condition: 0/4/5/6 {type, address}; 1 {type,
// returnAddress, amount}; 2 {type, unixTime}; 3 {type, returnAddress, unixTime}. The storage
// deposit return's key is "amount" (iota.go, iota.js), not the yaml's "returnAmount".
type UnlockConditionJSON struct {
	Type          uint8        `json:"type"`
	Address       *AddressJSON `json:"address,omitempty"`
	ReturnAddress *AddressJSON `json:"returnAddress,omitempty"`
	Amount        string       `json:"amount,omitempty"`
	UnixTime      *uint32      `json:"unixTime,omitempty"`
}

// FeatureJSON is one feature: 0/1 {type, address}; 2 {type, data}; 3 {type, tag}.
type FeatureJSON struct {
	Type    uint8        `json:"type"`
	Address *AddressJSON `json:"address,omitempty"`
	Data    string       `json:"data,omitempty"`
	Tag     string       `json:"tag,omitempty"`
}

// conditions lists what the output sets, in ascending type order: the same choices as the
// chain codec's writer, so JSON and bytes always describe the same output.
func conditions(c *addrs, o *chain.Output) []UnlockConditionJSON {
	out := []UnlockConditionJSON{} // never null: iota.js iterates it unguarded
	add := func(u UnlockConditionJSON) { out = append(out, u) }
	if o.Address != nil && o.Kind != chain.OutputAlias && o.Kind != chain.OutputFoundry {
		add(UnlockConditionJSON{Type: chain.CondAddress, Address: c.of(o.Address)})
	}
	if r := o.StorageDepositReturn; r != nil {
		add(UnlockConditionJSON{Type: chain.CondStorageDepositReturn, ReturnAddress: c.of(&r.ReturnAddress), Amount: u64(r.Amount)})
	}
	if o.Timelock != nil {
		add(UnlockConditionJSON{Type: chain.CondTimelock, UnixTime: ptr(*o.Timelock)})
	}
	if e := o.Expiration; e != nil {
		add(UnlockConditionJSON{Type: chain.CondExpiration, ReturnAddress: c.of(&e.ReturnAddress), UnixTime: ptr(e.UnixTime)})
	}
	if o.StateController != nil {
		add(UnlockConditionJSON{Type: chain.CondStateController, Address: c.of(o.StateController)})
	}
	if o.Governor != nil {
		add(UnlockConditionJSON{Type: chain.CondGovernor, Address: c.of(o.Governor)})
	}
	if o.Address != nil && o.Kind == chain.OutputFoundry {
		add(UnlockConditionJSON{Type: chain.CondImmutableAlias, Address: c.of(o.Address)})
	}
	return out
}

func features(c *addrs, o *chain.Output) []FeatureJSON {
	return featureList(c, chain.FeatSender, o.Sender, o.Metadata, o.Tag)
}

func immutableFeatures(c *addrs, o *chain.Output) []FeatureJSON {
	return featureList(c, chain.FeatIssuer, o.Issuer, o.ImmutableMetadata, nil)
}

// featureList lists the features set, in ascending type order: the address feature
// (sender or issuer, addrType), metadata, tag.
func featureList(c *addrs, addrType uint8, addr *chain.Address, metadata, tag []byte) []FeatureJSON {
	var out []FeatureJSON
	if addr != nil {
		out = append(out, FeatureJSON{Type: addrType, Address: c.of(addr)})
	}
	if len(metadata) > 0 {
		out = append(out, FeatureJSON{Type: chain.FeatMetadata, Data: hexOf(metadata)})
	}
	if len(tag) > 0 {
		out = append(out, FeatureJSON{Type: chain.FeatTag, Tag: hexOf(tag)})
	}
	return out
}
