package chain

func bit(t int) uint16 { return 1 << t }

// What each output type accepts (TIP-18); a strict decoder rejects anything else.
var (
	condAllowed = map[OutputKind]uint16{
		OutputBasic:   bit(CondAddress) | bit(CondStorageDepositReturn) | bit(CondTimelock) | bit(CondExpiration),
		OutputNFT:     bit(CondAddress) | bit(CondStorageDepositReturn) | bit(CondTimelock) | bit(CondExpiration),
		OutputAlias:   bit(CondStateController) | bit(CondGovernor),
		OutputFoundry: bit(CondImmutableAlias),
	}
	condRequired = map[OutputKind]uint16{
		OutputBasic:   bit(CondAddress),
		OutputNFT:     bit(CondAddress),
		OutputAlias:   bit(CondStateController) | bit(CondGovernor),
		OutputFoundry: bit(CondImmutableAlias),
	}
	featAllowed = map[OutputKind]uint16{
		OutputBasic:   bit(FeatSender) | bit(FeatMetadata) | bit(FeatTag),
		OutputNFT:     bit(FeatSender) | bit(FeatMetadata) | bit(FeatTag),
		OutputAlias:   bit(FeatSender) | bit(FeatMetadata),
		OutputFoundry: bit(FeatMetadata),
	}
	immutableAllowed = map[OutputKind]uint16{
		OutputNFT:     bit(FeatIssuer) | bit(FeatMetadata),
		OutputAlias:   bit(FeatIssuer) | bit(FeatMetadata),
		OutputFoundry: bit(FeatMetadata),
	}
)

// entries collects type-tagged bodies so the count can precede them.
type entries struct {
	types  []uint8
	bodies []*writer
}

func (e *entries) add(typ int) *writer {
	w := &writer{}
	e.types = append(e.types, uint8(typ))
	e.bodies = append(e.bodies, w)
	return w
}

// addAddress adds an address entry when a is set.
func (e *entries) addAddress(typ int, a *Address) {
	if a != nil {
		e.add(typ).address(*a)
	}
}

// addData adds a uint16-length data entry when data is not empty.
func (e *entries) addData(typ int, data []byte) {
	if len(data) > 0 {
		e.add(typ).bytes16(data)
	}
}

func (e *entries) writeTo(w *writer) {
	w.u8(uint8(len(e.types)))
	for i, t := range e.types {
		w.u8(t)
		w.bytes(e.bodies[i].buf)
	}
}

// writeConditions writes whatever is set, in ascending type order; the decoder, not the
// encoder, judges whether the combination is allowed.
func writeConditions(w *writer, o *Output) {
	var e entries
	if o.Kind != OutputAlias && o.Kind != OutputFoundry {
		e.addAddress(CondAddress, o.Address)
	}
	if sdr := o.StorageDepositReturn; sdr != nil {
		b := e.add(CondStorageDepositReturn)
		b.address(sdr.ReturnAddress)
		b.u64(sdr.Amount)
	}
	if o.Timelock != nil {
		e.add(CondTimelock).u32(*o.Timelock)
	}
	if exp := o.Expiration; exp != nil {
		b := e.add(CondExpiration)
		b.address(exp.ReturnAddress)
		b.u32(exp.UnixTime)
	}
	e.addAddress(CondStateController, o.StateController)
	e.addAddress(CondGovernor, o.Governor)
	if o.Kind == OutputFoundry {
		e.addAddress(CondImmutableAlias, o.Address)
	}
	e.writeTo(w)
}

func writeFeatures(w *writer, o *Output) {
	var e entries
	e.addAddress(FeatSender, o.Sender)
	e.addData(FeatMetadata, o.Metadata)
	if len(o.Tag) > 0 {
		e.add(FeatTag).bytes8(o.Tag)
	}
	e.writeTo(w)
}

func writeImmutableFeatures(w *writer, o *Output) {
	var e entries
	e.addAddress(FeatIssuer, o.Issuer)
	e.addData(FeatMetadata, o.ImmutableMetadata)
	e.writeTo(w)
}

// readTypedList walks a count-prefixed list of typed entries, which must come in
// strictly ascending type order, and hands each entry's path and type to read. It stops
// at the first failure.
func readTypedList(r *reader, path string, read func(field string, typ int)) {
	n := int(r.u8(path))
	last := -1
	for i := 0; i < n && r.err == nil; i++ {
		field := indexed(path, i)
		typ := int(r.u8(joinField(field, "type")))
		if r.err != nil {
			return
		}
		if typ <= last {
			r.fail(joinField(field, "type"), "not in ascending order or duplicate")
			return
		}
		last = typ
		read(field, typ)
	}
}

// readTyped reads a typed list of an output whose types must be in the allowed set, and
// returns the set seen (meaningful only without an error).
func readTyped(r *reader, path string, allowed uint16, what string, kind OutputKind,
	read func(field string, typ int)) uint16 {
	var seen uint16
	readTypedList(r, path, func(field string, typ int) {
		if typ >= 16 || allowed&bit(typ) == 0 {
			r.fail(joinField(field, "type"), "%s type %d not allowed in %s output", what, typ, kind)
			return
		}
		seen |= bit(typ)
		read(field, typ)
	})
	return seen
}

func readConditions(r *reader, path string, o *Output) {
	seen := readTyped(r, path, condAllowed[o.Kind], "unlock condition", o.Kind,
		func(field string, typ int) { readCondition(r, field, typ, o) })
	if r.err == nil && seen&condRequired[o.Kind] != condRequired[o.Kind] {
		r.fail(path, "%s output lacks a required unlock condition", o.Kind)
	}
}

func readCondition(r *reader, field string, typ int, o *Output) {
	addr := func(name string) *Address { return r.addressRef(joinField(field, name)) }
	switch typ {
	case CondAddress:
		o.Address = addr("address")
	case CondStorageDepositReturn:
		sdr := &StorageDepositReturn{ReturnAddress: *addr("returnAddress")}
		sdr.Amount = r.u64(joinField(field, "amount"))
		if r.err == nil && (sdr.Amount == 0 || sdr.Amount > o.Amount) {
			r.fail(joinField(field, "amount"), "return amount %d not in 1..%d", sdr.Amount, o.Amount)
		}
		o.StorageDepositReturn = sdr
	case CondTimelock:
		t := r.u32(joinField(field, "unixTime"))
		if r.err == nil && t == 0 {
			r.fail(joinField(field, "unixTime"), "must be positive")
		}
		o.Timelock = &t
	case CondExpiration:
		exp := &Expiration{ReturnAddress: *addr("returnAddress")}
		exp.UnixTime = r.u32(joinField(field, "unixTime"))
		if r.err == nil && exp.UnixTime == 0 {
			r.fail(joinField(field, "unixTime"), "must be positive")
		}
		o.Expiration = exp
	case CondStateController:
		o.StateController = addr("address")
	case CondGovernor:
		o.Governor = addr("address")
	case CondImmutableAlias:
		o.Address = addr("address")
		if r.err == nil && o.Address.Kind != AddressAlias {
			r.fail(joinField(field, "address"), "must be an alias address, got %s", o.Address.Kind)
		}
	}
}

// addressRef reads an address for an optional (pointer) field.
func (r *reader) addressRef(field string) *Address {
	a := r.address(field)
	return &a
}

// metadata reads the data of a metadata feature (mutable or immutable).
func (r *reader) metadata(field string) []byte {
	return r.bytes16(joinField(field, "data"), 1, MaxMetadataLength)
}

func readFeatures(r *reader, path string, o *Output) {
	readTyped(r, path, featAllowed[o.Kind], "feature", o.Kind, func(field string, typ int) {
		switch typ {
		case FeatSender:
			o.Sender = r.addressRef(joinField(field, "address"))
		case FeatMetadata:
			o.Metadata = r.metadata(field)
		case FeatTag:
			o.Tag = r.bytes8(joinField(field, "tag"), 1, MaxTagLength)
		}
	})
}

func readImmutableFeatures(r *reader, path string, o *Output) {
	readTyped(r, path, immutableAllowed[o.Kind], "immutable feature", o.Kind, func(field string, typ int) {
		switch typ {
		case FeatIssuer:
			o.Issuer = r.addressRef(joinField(field, "address"))
		case FeatMetadata:
			o.ImmutableMetadata = r.metadata(field)
		}
	})
}
