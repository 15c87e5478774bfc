package chain

// EncodeProtocolParameters serializes parameters as a protocol-parameters milestone
// option carries them (iota.go's layout: version, network name, HRP, min PoW score,
// below max depth, rent structure, token supply).
func EncodeProtocolParameters(p ProtocolParameters) []byte {
	w := &writer{}
	w.u8(p.Version)
	w.bytes8([]byte(p.NetworkName))
	w.bytes8([]byte(p.Bech32HRP))
	w.u32(p.MinPoWScore)
	w.u8(p.BelowMaxDepth)
	w.u32(p.RentStructure.VByteCost)
	w.u8(p.RentStructure.VByteFactorData)
	w.u8(p.RentStructure.VByteFactorKey)
	w.u64(p.TokenSupply)
	return w.buf
}

// DecodeProtocolParameters parses what EncodeProtocolParameters wrote.
func DecodeProtocolParameters(b []byte) (ProtocolParameters, error) {
	r := &reader{buf: b}
	p := ProtocolParameters{Version: r.u8("params.version")}
	p.NetworkName = string(r.bytes8("params.networkName", 1, 255))
	p.Bech32HRP = string(r.bytes8("params.bech32Hrp", 1, 255))
	p.MinPoWScore = r.u32("params.minPowScore")
	p.BelowMaxDepth = r.u8("params.belowMaxDepth")
	p.RentStructure.VByteCost = r.u32("params.rentStructure.vByteCost")
	p.RentStructure.VByteFactorData = r.u8("params.rentStructure.vByteFactorData")
	p.RentStructure.VByteFactorKey = r.u8("params.rentStructure.vByteFactorKey")
	p.TokenSupply = r.u64("params.tokenSupply")
	return p, r.finish("params")
}
