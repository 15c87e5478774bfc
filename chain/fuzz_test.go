package chain

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Fuzz targets for everything that turns source bytes or text into chain values.
// The seed corpora in testdata/fuzz/<FuzzName>/ hold valid encodings taken from the
// simulated chain (source/sim) and broken variants of them; they run with plain
// `go test ./chain/`. Regenerate them with:
//
//go:generate go run ./testdata/fuzz/gen.go
//
// Fuzz one target with `go test -run '^$' -fuzz '^FuzzDecodeMessage$' -fuzztime 60s ./chain/`.
//
// The properties: nothing panics; whatever decodes re-encodes to exactly the same
// bytes (one encoding per value, so one ID per message); every rejection is a clear
// error (see clearDecodeError and clearParseError).

// maxErrorLen bounds an error message: a huge bogus input must not make a huge log line.
const maxErrorLen = 512

// clearDecodeError fails unless err is a *ValidationError naming a field and a reason,
// in a message of bounded length.
func clearDecodeError(t *testing.T, err error) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error is %T (%v), want *ValidationError", err, err)
	}
	msg := err.Error()
	switch {
	case ve.Field == "" || ve.Reason == "":
		t.Fatalf("error without field or reason: %q", msg)
	case !strings.HasPrefix(msg, "chain: invalid "):
		t.Fatalf("error %q: want the prefix \"chain: invalid \"", msg)
	case len(msg) > maxErrorLen:
		t.Fatalf("error of %d bytes: %.200q...", len(msg), msg)
	}
}

// clearParseError fails unless err wraps sentinel and is short and printable whatever
// the input was.
func clearParseError(t *testing.T, err, sentinel error, what string) {
	t.Helper()
	msg := err.Error()
	switch {
	case !errors.Is(err, sentinel):
		t.Fatalf("error %q does not wrap %v", msg, sentinel)
	case !strings.Contains(msg, what):
		t.Fatalf("error %q does not say %q", msg, what)
	case len(msg) > maxErrorLen:
		t.Fatalf("error of %d bytes: %.200q...", len(msg), msg)
	case !utf8.ValidString(msg):
		t.Fatalf("error is not valid UTF-8: %q", msg)
	}
}

// FuzzDecodeMessage checks that decoding never panics, that the codec is canonical
// (whatever decodes re-encodes to exactly the same bytes, so a message ID cannot have
// two encodings), that ValidateMessage agrees with the decoder, and that every
// rejection names the field.
func FuzzDecodeMessage(f *testing.F) {
	for _, m := range fixtureMessages() {
		f.Add(EncodeMessage(m))
	}
	f.Add([]byte{})
	f.Add([]byte{ProtocolVersion, 1})
	f.Fuzz(func(t *testing.T, raw []byte) {
		m, err := DecodeMessage(raw)
		verr := ValidateMessage(nil, raw)
		if err != nil {
			clearDecodeError(t, err)
			if verr == nil {
				t.Fatalf("ValidateMessage accepts what DecodeMessage refuses (%v)", err)
			}
			clearDecodeError(t, verr)
			return
		}
		if again := EncodeMessage(m); !bytes.Equal(again, raw) {
			t.Fatalf("not canonical:\n in  %x\n out %x", raw, again)
		}
		if m.ID() != MessageIDOf(raw) {
			t.Fatal("ID of the decoded message differs from the hash of its bytes")
		}
		if verr != nil {
			clearDecodeError(t, verr)
			if len(raw) <= MaxMessageSize {
				t.Fatalf("ValidateMessage refuses a decodable message of %d bytes: %v", len(raw), verr)
			}
		} else if err := ValidateMessage(m, raw); err != nil {
			t.Fatalf("ValidateMessage(decoded, raw): %v", err)
		}
		if tx := m.TransactionOf(); tx != nil {
			_ = tx.ID()
			for _, o := range tx.Outputs {
				back, err := DecodeOutput(EncodeOutput(o))
				if err != nil {
					t.Fatalf("an output of a decoded transaction does not decode alone: %v", err)
				}
				if !bytes.Equal(EncodeOutput(back), EncodeOutput(o)) {
					t.Fatal("an output of a decoded transaction does not round-trip alone")
				}
			}
		}
	})
}

// FuzzDecodeOutput applies the same properties to output blobs (the outputs tables'
// `data` column).
func FuzzDecodeOutput(f *testing.F) {
	for _, o := range fixtureOutputs() {
		f.Add(EncodeOutput(o))
	}
	f.Add([]byte{blobVersion})
	f.Fuzz(func(t *testing.T, raw []byte) {
		o, err := DecodeOutput(raw)
		if err != nil {
			clearDecodeError(t, err)
			return
		}
		if !bytes.Equal(EncodeOutput(o), raw) {
			t.Fatalf("not canonical: %x", raw)
		}
	})
}

// FuzzDecodeInput and FuzzDecodeUnlock cover the transactions table's blobs.
func FuzzDecodeInput(f *testing.F) {
	for _, in := range fixtureTransaction().Inputs {
		f.Add(EncodeInput(in))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		in, err := DecodeInput(raw)
		if err != nil {
			clearDecodeError(t, err)
			return
		}
		if !bytes.Equal(EncodeInput(in), raw) {
			t.Fatalf("not canonical: %x", raw)
		}
	})
}

func FuzzDecodeUnlock(f *testing.F) {
	for _, u := range fixtureTransaction().Unlocks {
		f.Add(EncodeUnlock(u))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		u, err := DecodeUnlock(raw)
		if err != nil {
			clearDecodeError(t, err)
			return
		}
		if !bytes.Equal(EncodeUnlock(u), raw) {
			t.Fatalf("not canonical: %x", raw)
		}
	})
}

// idParser parses one kind of 0x-hex ID and renders it back.
type idParser struct {
	what  string
	parse func(string) (string, error)
}

func idParsers() []idParser {
	wrap := func(what string, parse func(string) (string, error)) idParser { return idParser{what, parse} }
	return []idParser{
		wrap("message id", func(s string) (string, error) { id, err := ParseMessageID(s); return id.String(), err }),
		wrap("transaction id", func(s string) (string, error) { id, err := ParseTransactionID(s); return id.String(), err }),
		wrap("milestone id", func(s string) (string, error) { id, err := ParseMilestoneID(s); return id.String(), err }),
		wrap("alias id", func(s string) (string, error) { id, err := ParseAliasID(s); return id.String(), err }),
		wrap("nft id", func(s string) (string, error) { id, err := ParseNFTID(s); return id.String(), err }),
		wrap("output id", func(s string) (string, error) { id, err := ParseOutputID(s); return id.String(), err }),
		wrap("foundry id", func(s string) (string, error) { id, err := ParseFoundryID(s); return id.String(), err }),
	}
}

// FuzzParseID feeds one string to every ID parser: an accepted string is the
// canonical form up to the case of its hex digits and parses back to the same ID; a
// refused one gets an ErrMalformedID naming the ID kind.
func FuzzParseID(f *testing.F) {
	f.Add("0x" + strings.Repeat("ab", 32))
	f.Add("0x" + strings.Repeat("AB", 34))
	f.Add(NewFoundryID(AliasID{1}, 7, 0).String())
	f.Add("0x")
	f.Add("")
	f.Add(strings.Repeat("0", 66))
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range idParsers() {
			text, err := p.parse(s)
			if err != nil {
				clearParseError(t, err, ErrMalformedID, p.what)
				continue
			}
			if text != strings.ToLower(s) {
				t.Fatalf("%s %q renders as %q", p.what, s, text)
			}
			if again, err := p.parse(text); err != nil || again != text {
				t.Fatalf("%s %q: rendered form %q parses to %q, %v", p.what, s, text, again, err)
			}
		}
	})
}

// FuzzParseAddress: an accepted address round-trips through both textual forms; a
// refused one gets an ErrMalformedAddress.
func FuzzParseAddress(f *testing.F) {
	for _, a := range []Address{fixtureAddr(1), AliasAddress(AliasID{2}), NFTAddress(NFTID{3})} {
		f.Add(a.String())
		f.Add(a.Bech32("iota"))
		f.Add(strings.ToUpper(a.Bech32("rms")))
		f.Add(a.Hex())
	}
	f.Add("smr1")
	f.Add("0x")
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAddress(s)
		if err != nil {
			clearParseError(t, err, ErrMalformedAddress, "")
			return
		}
		for _, text := range []string{a.String(), a.Hex(), a.Bech32("iota")} {
			back, err := ParseAddress(text)
			if err != nil || back != a {
				t.Fatalf("%q parses to %v, whose form %q parses to %v, %v", s, a, text, back, err)
			}
		}
	})
}

// FuzzValidateMilestone wraps fuzzed message bytes in a confirmed milestone and runs
// the checks the ingest runs before writing (chain.Validate): they never panic, and a
// refusal names the field. When the bytes carry a milestone payload the header is made
// to agree with it, so the fuzzer gets past the header checks into the ledger ones.
func FuzzValidateMilestone(f *testing.F) {
	cm := fixtureMilestone()
	f.Add(cm.Messages[2].Raw, cm.Messages[1].Raw, uint8(Included), uint8(ConflictNone), true)
	f.Add(cm.Messages[2].Raw, cm.Messages[0].Raw, uint8(NoTransaction), uint8(ConflictNone), false)
	f.Add(cm.Messages[2].Raw, cm.Messages[1].Raw, uint8(Conflicting), uint8(ConflictInputNotFound), false)
	f.Fuzz(func(t *testing.T, milestone, other []byte, state, reason uint8, ledger bool) {
		cm := &ConfirmedMilestone{Index: 1, Timestamp: time.Unix(1, 0).UTC(), MilestoneID: MilestoneID{1},
			MessageID: MessageIDOf(milestone)}
		if m, err := DecodeMessage(milestone); err == nil {
			if mp, ok := m.Payload.(*MilestonePayload); ok {
				cm.Index, cm.Timestamp = mp.Index, time.Unix(int64(mp.Timestamp), 0).UTC()
				cm.MilestoneID, cm.PreviousMilestoneID = mp.ID(), mp.PreviousMilestoneID
			}
		}
		cm.Messages = []ReferencedMessage{
			{ID: MessageIDOf(other), Raw: other, InclusionState: InclusionState(state), ConflictReason: ConflictReason(reason)},
			{ID: cm.MessageID, Raw: milestone, WhiteFlagIndex: 1},
		}
		if ledger {
			// Claim the ledger changes a fully valid transaction would make.
			if m, err := DecodeMessage(other); err == nil {
				if tx := m.TransactionOf(); tx != nil {
					for i, o := range tx.Outputs {
						cm.Created = append(cm.Created, LedgerOutput{OutputID: NewOutputID(tx.ID(), uint16(i)),
							MessageID: cm.Messages[0].ID, Output: o, MilestoneIndex: cm.Index, Timestamp: cm.Timestamp})
					}
					for _, in := range tx.Inputs {
						cm.Consumed = append(cm.Consumed, LedgerSpent{
							LedgerOutput: LedgerOutput{OutputID: in.OutputID(), Output: Output{Kind: OutputBasic, Amount: 1}},
							SpentBy:      tx.ID(), SpentMilestoneIndex: cm.Index, SpentTimestamp: cm.Timestamp})
					}
				}
			}
		}
		if err := Validate(cm); err != nil {
			clearDecodeError(t, err)
		}
	})
}

// TestFuzzSeedsSayWhatTheyAre checks the committed corpora: a seed named sim-* is
// accepted and one named broken-* refused (others may go either way), so a seed cannot silently stop covering
// what its name promises.
func TestFuzzSeedsSayWhatTheyAre(t *testing.T) {
	bytesTargets := map[string]func([]byte) error{
		"FuzzDecodeMessage": func(b []byte) error { return ValidateMessage(nil, b) },
		"FuzzDecodeOutput":  func(b []byte) error { _, err := DecodeOutput(b); return err },
		"FuzzDecodeInput":   func(b []byte) error { _, err := DecodeInput(b); return err },
		"FuzzDecodeUnlock":  func(b []byte) error { _, err := DecodeUnlock(b); return err },
		"FuzzParseAddress":  func(b []byte) error { _, err := ParseAddress(string(b)); return err },
		"FuzzParseID": func(b []byte) error {
			for _, p := range idParsers() {
				if _, err := p.parse(string(b)); err == nil {
					return nil
				}
			}
			return errors.New("no parser accepts it")
		},
	}
	for target, check := range bytesTargets {
		dir := filepath.Join("testdata", "fuzz", target)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) == 0 {
			t.Fatalf("%s: no seeds", dir)
		}
		for _, e := range entries {
			values := readCorpusFile(t, filepath.Join(dir, e.Name()))
			err := check(values[0])
			switch {
			case strings.HasPrefix(e.Name(), "sim-") && err != nil:
				t.Errorf("%s/%s: refused: %v", target, e.Name(), err)
			case strings.HasPrefix(e.Name(), "broken-") && err == nil:
				t.Errorf("%s/%s: accepted", target, e.Name())
			}
		}
	}
}

// readCorpusFile reads the []byte and string values of a "go test fuzz v1" file.
func readCorpusFile(t *testing.T, path string) [][]byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if lines[0] != "go test fuzz v1" {
		t.Fatalf("%s: header %q", path, lines[0])
	}
	var values [][]byte
	for _, line := range lines[1:] {
		for _, prefix := range []string{"[]byte(", "string("} {
			if lit, ok := strings.CutPrefix(line, prefix); ok {
				s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
				if err != nil {
					t.Fatalf("%s: %v", path, err)
				}
				values = append(values, []byte(s))
			}
		}
	}
	if len(values) == 0 {
		t.Fatalf("%s: no []byte or string value", path)
	}
	return values
}
