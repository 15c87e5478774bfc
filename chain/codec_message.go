package chain

// EncodeMessage serializes a message deterministically:
//
//	protocolVersion u8 | parents u8 + 32 each | payload u32 length + bytes | nonce u64
//
// Encoding never fails; it writes what it is given (even over
// MaxMessageSize) and leaves judgement to DecodeMessage and ValidateMessage.
func EncodeMessage(m *Message) []byte {
	w := &writer{}
	w.u8(m.ProtocolVersion)
	writeParents(w, m.Parents)
	sub := &writer{}
	writePayload(sub, m.Payload)
	w.u32(uint32(len(sub.buf)))
	w.bytes(sub.buf)
	w.u64(m.Nonce)
	return w.buf
}

// DecodeMessage parses an encoded message strictly: every failure is a
// *ValidationError naming the field.
func DecodeMessage(b []byte) (*Message, error) {
	r := &reader{buf: b}
	m := &Message{ProtocolVersion: r.u8("protocolVersion")}
	if r.err == nil && m.ProtocolVersion != ProtocolVersion {
		r.fail("protocolVersion", "unsupported version %d (want %d)", m.ProtocolVersion, ProtocolVersion)
	}
	m.Parents = readParents(r, "parents")
	m.Payload = readPayload(r, "payload")
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
		if r.err == nil && i > 0 && string(p[:]) <= string(parents[i-1][:]) {
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

func readPayload(r *reader, path string) Payload {
	n := r.u32(path)
	if r.err != nil || n == 0 {
		return nil
	}
	sub := &reader{buf: r.take(path, int(n))}
	typ := sub.u32(joinField(path, "type"))
	var p Payload
	switch {
	case r.err != nil || sub.err != nil:
	case typ == payloadTaggedData:
		p = readTaggedData(sub, path)
	case typ == payloadTransaction:
		p = readTransaction(sub, path)
	case typ == payloadMilestone:
		p = readMilestone(sub, path)
	default:
		sub.fail(joinField(path, "type"), "unknown payload type %d", typ)
	}
	r.adopt(sub, path)
	return p
}

func writeTaggedData(w *writer, td *TaggedData) {
	w.u32(payloadTaggedData)
	w.shortBytes(td.Tag)
	w.u32(uint32(len(td.Data)))
	w.bytes(td.Data)
}

func readTaggedData(r *reader, path string) *TaggedData {
	td := &TaggedData{Tag: r.shortBytes(joinField(path, "tag"), 0, MaxTagLength)}
	n := r.u32(joinField(path, "data"))
	td.Data = r.copied(joinField(path, "data"), int(n))
	return td
}

// readNestedTaggedData reads the optional payload inside a transaction.
func readNestedTaggedData(r *reader, path string) *TaggedData {
	n := r.u32(path)
	if r.err != nil || n == 0 {
		return nil
	}
	sub := &reader{buf: r.take(path, int(n))}
	typ := sub.u32(joinField(path, "type"))
	var td *TaggedData
	switch {
	case r.err != nil || sub.err != nil:
	case typ == payloadTaggedData:
		td = readTaggedData(sub, path)
	default:
		sub.fail(joinField(path, "type"), "payload type %d not allowed in a transaction", typ)
	}
	r.adopt(sub, path)
	return td
}

func writeMilestone(w *writer, mp *MilestonePayload) {
	w.u32(payloadMilestone)
	w.u32(mp.Index)
	w.u32(mp.Timestamp)
	w.bytes(mp.PreviousMilestoneID[:])
	writeParents(w, mp.Parents)
}

func readMilestone(r *reader, path string) *MilestonePayload {
	mp := &MilestonePayload{Index: r.u32(joinField(path, "index"))}
	mp.Timestamp = r.u32(joinField(path, "timestamp"))
	r.fill(joinField(path, "previousMilestoneId"), mp.PreviousMilestoneID[:])
	mp.Parents = readParents(r, joinField(path, "parents"))
	return mp
}
