package realdata

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
)

// outputSpec lists, per Chronicle output kind, the wire type byte and the JSON fields it must and
// may carry. Any other field is an error: this serializer checks another decoder, so it must
// never drop data it does not understand.
type outputSpec struct {
	typ                uint8
	required, optional []string
}

var (
	common      = []string{"kind", "amount", "native_tokens"}
	basicConds  = []string{"storage_deposit_return_unlock_condition", "timelock_unlock_condition", "expiration_unlock_condition"}
	outputSpecs = map[string]outputSpec{
		"treasury": {typ: 2, required: []string{"kind", "amount"}},
		"basic":    {typ: 3, required: with(common, "address_unlock_condition", "features"), optional: basicConds},
		"alias": {typ: 4, required: with(common, "alias_id", "state_index", "state_metadata", "foundry_counter",
			"state_controller_address_unlock_condition", "governor_address_unlock_condition", "features", "immutable_features")},
		"foundry": {typ: 5, required: with(common, "foundry_id", "serial_number", "token_scheme",
			"immutable_alias_address_unlock_condition", "features", "immutable_features")},
		"nft": {typ: 6, required: with(common, "nft_id", "address_unlock_condition", "features", "immutable_features"),
			optional: basicConds},
	}
)

func with(base []string, more ...string) []string { return append(slices.Clone(base), more...) }

// chrOutput is the union of Chronicle's output fields; outputSpecs says which a kind may use.
type chrOutput struct {
	Kind              string           `json:"kind"`
	Amount            flexUint         `json:"amount"`
	NativeTokens      []chrNativeToken `json:"native_tokens"`
	AliasID           bin              `json:"alias_id"`
	StateIndex        flexUint         `json:"state_index"`
	StateMetadata     bin              `json:"state_metadata"`
	FoundryCounter    flexUint         `json:"foundry_counter"`
	FoundryID         bin              `json:"foundry_id"`
	SerialNumber      flexUint         `json:"serial_number"`
	TokenScheme       *chrTokenScheme  `json:"token_scheme"`
	NftID             bin              `json:"nft_id"`
	Features          []chrFeature     `json:"features"`
	ImmutableFeatures []chrFeature     `json:"immutable_features"`
	// Unlock conditions are declared only so that strict decoding accepts them; conditions.go
	// reads them from the field map, in type order.
	AddressUC         json.RawMessage `json:"address_unlock_condition"`
	ReturnUC          json.RawMessage `json:"storage_deposit_return_unlock_condition"`
	TimelockUC        json.RawMessage `json:"timelock_unlock_condition"`
	ExpirationUC      json.RawMessage `json:"expiration_unlock_condition"`
	StateControllerUC json.RawMessage `json:"state_controller_address_unlock_condition"`
	GovernorUC        json.RawMessage `json:"governor_address_unlock_condition"`
	ImmutableAliasUC  json.RawMessage `json:"immutable_alias_address_unlock_condition"`
}

// SerializeOutput turns one output in Chronicle's JSON model into its Stardust wire bytes
// (TIP-18). It fails on any kind, field or value it does not know.
func SerializeOutput(js []byte) ([]byte, error) {
	fields, spec, err := checkOutputFields(js)
	if err != nil {
		return nil, err
	}
	var o chrOutput
	if err := strictUnmarshal(js, &o); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	w := &writer{}
	w.u8(spec.typ)
	w.u64(uint64(o.Amount))
	if spec.typ != 2 { // a treasury output is only type + amount
		w.nativeTokens(o.NativeTokens)
		w.chainFields(&o, fields)
		w.unlockConditions(fields)
		w.features(o.Features, "features")
		if spec.typ != 3 { // basic outputs have no immutable features field
			w.features(o.ImmutableFeatures, "immutable features")
		}
	}
	if w.err != nil {
		return nil, fmt.Errorf("%s output: %w", o.Kind, w.err)
	}
	return w.buf, nil
}

// checkOutputFields decodes the top-level fields and checks them against the kind's spec.
func checkOutputFields(js []byte) (map[string]json.RawMessage, outputSpec, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(js, &fields); err != nil {
		return nil, outputSpec{}, fmt.Errorf("output: %w", err)
	}
	var kind string
	if err := json.Unmarshal(fields["kind"], &kind); err != nil {
		return nil, outputSpec{}, fmt.Errorf("output: kind: %w", err)
	}
	spec, ok := outputSpecs[kind]
	if !ok {
		return nil, spec, fmt.Errorf("output: unknown kind %q", kind)
	}
	for name, v := range fields {
		if !slices.Contains(spec.required, name) && !slices.Contains(spec.optional, name) {
			return nil, spec, fmt.Errorf("%s output: unknown field %q", kind, name)
		}
		if string(bytes.TrimSpace(v)) == "null" {
			return nil, spec, fmt.Errorf("%s output: field %q is null", kind, name)
		}
	}
	for _, name := range spec.required {
		if _, ok := fields[name]; !ok {
			return nil, spec, fmt.Errorf("%s output: missing field %q", kind, name)
		}
	}
	return fields, spec, nil
}

// chainFields writes what alias, foundry and NFT outputs carry between native tokens and
// unlock conditions.
func (w *writer) chainFields(o *chrOutput, fields map[string]json.RawMessage) {
	switch o.Kind {
	case "alias":
		w.fixedBytes(o.AliasID, 32, "alias ID")
		w.u32(w.narrow(o.StateIndex, "state index"))
		w.bytes16(o.StateMetadata, "state metadata")
		w.u32(w.narrow(o.FoundryCounter, "foundry counter"))
	case "foundry":
		serial := w.narrow(o.SerialNumber, "serial number")
		w.u32(serial)
		w.tokenScheme(o.TokenScheme)
		w.checkFoundryID(o.FoundryID, fields, serial)
	case "nft":
		w.fixedBytes(o.NftID, 32, "NFT ID")
	}
}

func (w *writer) narrow(v flexUint, what string) uint32 {
	n, err := v.u32(what)
	w.setErr(err)
	return n
}

type chrTokenScheme struct {
	Kind          string `json:"kind"`
	MintedTokens  bin    `json:"minted_tokens"`
	MeltedTokens  bin    `json:"melted_tokens"`
	MaximumSupply bin    `json:"maximum_supply"`
}

// tokenScheme writes the simple token scheme (type 0), the only one Stardust defines.
func (w *writer) tokenScheme(ts *chrTokenScheme) {
	if ts.Kind != "simple" {
		w.fail("token scheme: unknown kind %q", ts.Kind)
		return
	}
	w.u8(0)
	w.uint256BE(ts.MintedTokens, "minted tokens")
	w.uint256BE(ts.MeltedTokens, "melted tokens")
	w.uint256BE(ts.MaximumSupply, "maximum supply")
}

// checkFoundryID compares Chronicle's stored foundry ID with the one the wire fields imply
// (08 ‖ alias ID ‖ serial LE ‖ scheme 00): the ID is not on the wire, so a mismatch would mean
// the serialized bytes describe a different foundry than the record.
func (w *writer) checkFoundryID(id bin, fields map[string]json.RawMessage, serial uint32) {
	var uc chrAddressUC
	var addr map[string]bin
	raw := fields["immutable_alias_address_unlock_condition"]
	if json.Unmarshal(raw, &uc) != nil || json.Unmarshal(uc.Address, &addr) != nil {
		return // the unlock condition writer reports the malformed JSON
	}
	want := append([]byte{8}, addr["alias"]...)
	want = binary.LittleEndian.AppendUint32(want, serial)
	want = append(want, 0)
	if !bytes.Equal(want, id) {
		w.fail("foundry ID %x does not match alias address, serial number and scheme (%x)", []byte(id), want)
	}
}
