package chain_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Strict decoding of the block frame (TIP-24).

func encodeWithParents(parents ...chain.MessageID) []byte {
	return chain.EncodeMessage(&chain.Message{ProtocolVersion: chain.ProtocolVersion, Parents: parents})
}

func TestRejectParents(t *testing.T) {
	nine := make([]chain.MessageID, 9)
	for i := range nine {
		nine[i] = chain.MessageID{byte(i + 1)}
	}
	wantField(t, decodeErr(encodeWithParents()), "parents", "count 0 not in 1..8")
	wantField(t, decodeErr(encodeWithParents(nine...)), "parents", "count 9 not in 1..8")
	wantField(t, decodeErr(encodeWithParents(chain.MessageID{2}, chain.MessageID{1})), "parents[1]", "not sorted ascending")
	wantField(t, decodeErr(encodeWithParents(chain.MessageID{1}, chain.MessageID{3}, chain.MessageID{3})), "parents[2]", "or duplicate")
	if err := decodeErr(encodeWithParents(nine[:8]...)); err != nil {
		t.Fatalf("8 parents refused: %v", err)
	}
}

func TestRejectProtocolVersion(t *testing.T) {
	for _, v := range []byte{0, 1, 3} {
		raw := chain.EncodeMessage(fixtureMessages()[1])
		raw[0] = v
		wantField(t, decodeErr(raw), "protocolVersion", fmt.Sprintf("unsupported version %d (want 2)", v))
	}
}

// payloadAt is the offset of the payload length field of a message with n parents.
func payloadAt(n int) int { return 2 + 32*n }

func TestRejectBlockPayloadTypes(t *testing.T) {
	for _, typ := range []uint32{0, 1, 2, 3, 4, 8, 1 << 31} {
		raw := chain.EncodeMessage(fixtureMessages()[1])
		binary.LittleEndian.PutUint32(raw[payloadAt(1)+4:], typ)
		wantField(t, decodeErr(raw), "payload.type", fmt.Sprintf("payload type %d not allowed in a block", typ))
	}
}

func TestRejectTrailingBytes(t *testing.T) {
	for i, m := range fixtureMessages() {
		raw := chain.EncodeMessage(m)
		wantField(t, decodeErr(append(clone(raw), 0)), "message", "trailing bytes: 1 unexpected")
		if m.Payload == nil {
			continue
		}
		// One more byte inside the payload frame, before the nonce.
		at := payloadAt(len(m.Parents))
		n := binary.LittleEndian.Uint32(raw[at:])
		inner := bytesBuilder{}.raw(raw[:at]...).u32(n + 1).raw(raw[at+4 : len(raw)-8]...).u8(0).raw(raw[len(raw)-8:]...)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			wantField(t, decodeErr(inner), "payload", "trailing bytes: 1 unexpected")
		})
	}
}

func TestRejectPayloadLength(t *testing.T) {
	raw := chain.EncodeMessage(fixtureMessages()[1])
	binary.LittleEndian.PutUint32(raw[payloadAt(1):], 0xffffffff)
	wantField(t, decodeErr(raw), "payload", "truncated: length 4294967295")
	binary.LittleEndian.PutUint32(raw[payloadAt(1):], 0)
	wantField(t, decodeErr(raw), "message", "trailing bytes") // the payload is read as the nonce
	wantField(t, decodeErr(frameMessage([]byte{5, 0})), "payload.type", "truncated: need 4 bytes, 2 left")
}

func TestRejectOversizedMessage(t *testing.T) {
	fits := newMessage(&chain.TaggedData{Data: make([]byte, chain.MaxMessageSize-46-9)})
	raw := chain.EncodeMessage(fits)
	if len(raw) != chain.MaxMessageSize {
		t.Fatalf("built %d bytes", len(raw))
	}
	if err := decodeErr(raw); err != nil {
		t.Fatalf("message of exactly %d bytes refused: %v", chain.MaxMessageSize, err)
	}
	big := newMessage(&chain.TaggedData{Data: make([]byte, chain.MaxMessageSize-46-8)})
	wantField(t, decodeErr(chain.EncodeMessage(big)), "message", "oversized: 32769 bytes > 32768")
	wantField(t, chain.ValidateMessage(big, chain.EncodeMessage(big)), "message", "oversized")
}

func TestSmallestMessage(t *testing.T) {
	raw := encodeWithParents(chain.MessageID{1})
	if len(raw) != 46 {
		t.Fatalf("%d bytes", len(raw))
	}
	if m, err := chain.DecodeMessage(raw); err != nil || m.Payload != nil {
		t.Fatalf("%+v, %v", m, err)
	}
}

func TestRejectTaggedData(t *testing.T) {
	long := bytes.Repeat([]byte("t"), chain.MaxTagLength+1)
	wantField(t, decodeErr(chain.EncodeMessage(newMessage(&chain.TaggedData{Tag: long}))), "payload.tag", "too long: 65 bytes > 64")
	if err := decodeErr(chain.EncodeMessage(newMessage(&chain.TaggedData{Tag: long[:64]}))); err != nil {
		t.Fatalf("64-byte tag refused: %v", err)
	}
	if err := decodeErr(chain.EncodeMessage(newMessage(&chain.TaggedData{}))); err != nil {
		t.Fatalf("empty tagged data refused: %v", err)
	}
	// A data length beyond any message is refused before anything is read.
	payload := bytesBuilder{}.u32(5).u8(0).u32(chain.MaxMessageSize + 1)
	wantField(t, decodeErr(frameMessage(payload)), "payload.data", "too long: 32769 bytes > 32768")
}

// Every strict prefix of a valid encoding fails as truncated, naming a field.
func TestRejectTruncatedMessages(t *testing.T) {
	for i, m := range fixtureMessages() {
		raw := chain.EncodeMessage(m)
		for n := 0; n < len(raw); n++ {
			var ve *chain.ValidationError
			if err := decodeErr(raw[:n]); !errors.As(err, &ve) || ve.Field == "" || !strings.HasPrefix(ve.Reason, "truncated") {
				t.Fatalf("message %d cut at %d/%d: %v", i, n, len(raw), err)
			}
		}
	}
}

func TestValidateMessage(t *testing.T) {
	small := fixtureMessages()[1]
	if err := chain.ValidateMessage(small, chain.EncodeMessage(small)); err != nil {
		t.Fatal(err)
	}
	if err := chain.ValidateMessage(nil, chain.EncodeMessage(small)); err != nil {
		t.Fatal(err)
	}
	wantField(t, chain.ValidateMessage(fixtureMessages()[0], chain.EncodeMessage(small)), "message", "does not match its raw bytes")
	wantField(t, chain.ValidateMessage(nil, nil), "protocolVersion", "truncated")
}
