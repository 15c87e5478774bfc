package chain

// EncodeMessage serializes a message (a block, TIP-24):
//
//	protocolVersion u8 | parents u8 + 32 each | payload u32 length + bytes | nonce u64
//
// Encoding never fails; it writes what it is given (even over MaxMessageSize) and
// leaves judgement to DecodeMessage and ValidateMessage.
func EncodeMessage(m *Message) []byte {
	w := &writer{}
	w.u8(m.ProtocolVersion)
	writeParents(w, m.Parents)
	w.framed(func(sub *writer) { writePayload(sub, m.Payload) })
	w.u64(m.Nonce)
	return w.buf
}

// DecodeMessage parses a serialized message strictly: every failure is a
// *ValidationError naming the field.
func DecodeMessage(b []byte) (*Message, error) {
	if len(b) > MaxMessageSize {
		return nil, invalid("message", "oversized: %d bytes > %d", len(b), MaxMessageSize)
	}
	r := &reader{buf: b}
	m := &Message{ProtocolVersion: r.u8("protocolVersion")}
	if r.err == nil && m.ProtocolVersion != ProtocolVersion {
		r.fail("protocolVersion", "unsupported version %d (want %d)", m.ProtocolVersion, ProtocolVersion)
	}
	m.Parents = readParents(r, "parents")
	r.framed("payload", func(sub *reader) { m.Payload = readBlockPayload(sub, "payload") })
	m.Nonce = r.u64("nonce")
	if err := r.finish("message"); err != nil {
		return nil, err
	}
	return m, nil
}

func writeParents(w *writer, parents []MessageID) {
	w.u8(uint8(len(parents)))
	for _, p := range parents {
		w.bytes(p[:])
	}
}

// readParents reads 1..8 parents, strictly ascending (so unique).
func readParents(r *reader, path string) []MessageID {
	n := int(r.u8(path))
	if r.err == nil && (n < MinParents || n > MaxParents) {
		r.fail(path, "count %d not in %d..%d", n, MinParents, MaxParents)
		return nil
	}
	parents := make([]MessageID, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		var p MessageID
		r.fill(indexed(path, i), p[:])
		if r.err == nil && i > 0 && !ascending(parents[i-1][:], p[:]) {
			r.fail(indexed(path, i), "not sorted ascending or duplicate")
		}
		parents = append(parents, p)
	}
	return parents
}

func writePayload(w *writer, p Payload) {
	switch p := p.(type) {
	case *TaggedData:
		writeTaggedData(w, p)
	case *Transaction:
		writeTransaction(w, p)
	case *MilestonePayload:
		writeMilestone(w, p)
	}
}

// readBlockPayload reads a payload a block may carry: tagged data, a transaction or a
// milestone.
func readBlockPayload(r *reader, path string) Payload {
	switch typ := r.u32(joinField(path, "type")); {
	case r.err != nil:
		return nil
	case typ == PayloadTaggedData:
		return readTaggedData(r, path)
	case typ == PayloadTransaction:
		return readTransaction(r, path)
	case typ == PayloadMilestone:
		return readMilestone(r, path)
	default:
		r.fail(joinField(path, "type"), "payload type %d not allowed in a block", typ)
		return nil
	}
}

func writeTaggedData(w *writer, td *TaggedData) {
	w.u32(PayloadTaggedData)
	w.bytes8(td.Tag)
	w.bytes32(td.Data)
}

// readTaggedData reads what follows the payload type code.
func readTaggedData(r *reader, path string) *TaggedData {
	td := &TaggedData{Tag: r.bytes8(joinField(path, "tag"), 0, MaxTagLength)}
	td.Data = r.bytes32(joinField(path, "data"), 0, MaxMessageSize)
	if len(td.Tag) == 0 {
		td.Tag = nil
	}
	if len(td.Data) == 0 {
		td.Data = nil
	}
	return td
}
