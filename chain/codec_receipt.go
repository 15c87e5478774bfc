package chain

// Encode serializes the receipt as the receipt milestone option's body (TIP-34: the
// fields after the option type), which is what the receipts table stores.
func (rc *Receipt) Encode() []byte { return encoded(rc, writeReceipt) }

// DecodeReceipt parses what Receipt.Encode wrote, with the milestone codec's checks.
func DecodeReceipt(b []byte) (*Receipt, error) { return decodedWhole(b, "receipt", readReceipt) }
