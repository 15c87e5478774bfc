//go:build ignore

// Command gen writes the seed corpora of chain's fuzz targets (chain/fuzz_test.go):
// valid encodings taken from the simulated chain (source/sim, seed 1) and broken
// variants of them. Run it from anywhere in the module:
//
//	go generate ./chain/   (or: go run ./chain/testdata/fuzz/gen.go)
//
// Files are named after what they hold; rerunning rewrites the same files.
package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// seed is one corpus entry: a file name and the values of the fuzz function's arguments.
type seed struct {
	name   string
	values []any
}

func main() {
	_, self, _, _ := runtime.Caller(0)
	dir := filepath.Dir(self)
	s := sim.New(sim.Options{Seed: 1, MessagesPerMilestone: 16, Tip: 12, AddressPool: 40, TagPool: 8})
	var cms []*chain.ConfirmedMilestone
	for i := uint32(1); i <= 12; i++ {
		cm, err := s.Milestone(context.Background(), i)
		if err != nil {
			log.Fatal(err)
		}
		cms = append(cms, cm)
	}
	corpora := map[string][]seed{
		"FuzzDecodeMessage":     messageSeeds(cms),
		"FuzzDecodeOutput":      outputSeeds(cms),
		"FuzzDecodeInput":       inputSeeds(cms),
		"FuzzDecodeUnlock":      unlockSeeds(cms),
		"FuzzParseID":           idSeeds(cms),
		"FuzzParseAddress":      addressSeeds(cms),
		"FuzzValidateMilestone": milestoneSeeds(cms),
	}
	names := make([]string, 0, len(corpora))
	for name := range corpora {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		sub := filepath.Join(dir, name)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			log.Fatal(err)
		}
		for _, sd := range corpora[name] {
			if err := os.WriteFile(filepath.Join(sub, sd.name), encode(sd.values), 0o644); err != nil {
				log.Fatal(err)
			}
		}
		fmt.Printf("%s: %d seeds\n", name, len(corpora[name]))
	}
}

// encode renders values in the "go test fuzz v1" corpus format.
func encode(values []any) []byte {
	var b strings.Builder
	b.WriteString("go test fuzz v1\n")
	for _, v := range values {
		switch v := v.(type) {
		case []byte:
			fmt.Fprintf(&b, "[]byte(%q)\n", v)
		case string:
			fmt.Fprintf(&b, "string(%q)\n", v)
		case uint8:
			fmt.Fprintf(&b, "byte(%d)\n", v)
		case bool:
			fmt.Fprintf(&b, "bool(%t)\n", v)
		default:
			log.Fatalf("unsupported corpus value %T", v)
		}
	}
	return []byte(b.String())
}

// kindOf names what a message carries: its payload and, for a transaction, its output
// and unlock kinds, so one message of each shape is kept.
func kindOf(m *chain.Message) string {
	switch p := m.Payload.(type) {
	case nil:
		return "empty"
	case *chain.TaggedData:
		return "tagged"
	case *chain.MilestonePayload:
		return "milestone"
	case *chain.Transaction:
		kinds := map[string]bool{}
		for _, o := range p.Outputs {
			kinds[o.Kind.String()] = true
		}
		for _, u := range p.Unlocks {
			kinds[u.Kind.String()] = true
		}
		if p.Payload != nil {
			kinds["tagged"] = true
		}
		var names []string
		for k := range kinds {
			names = append(names, k)
		}
		sort.Strings(names)
		return "tx-" + strings.Join(names, "-")
	}
	return "other"
}

func decoded(rm chain.ReferencedMessage) *chain.Message {
	if rm.Message != nil {
		return rm.Message
	}
	m, err := chain.DecodeMessage(rm.Raw)
	if err != nil {
		log.Fatal(err)
	}
	return m
}

func messageSeeds(cms []*chain.ConfirmedMilestone) []seed {
	var seeds []seed
	seen := map[string]bool{}
	var tx []byte
	for _, cm := range cms {
		for _, rm := range cm.Messages {
			k := kindOf(decoded(rm))
			if seen[k] || len(rm.Raw) > 4096 {
				continue
			}
			seen[k] = true
			seeds = append(seeds, seed{"sim-" + k, []any{rm.Raw}})
			if tx == nil && strings.HasPrefix(k, "tx-") {
				tx = rm.Raw
			}
		}
	}
	// Broken variants of a sim transaction message; each is refused with a named field.
	mut := func(name string, f func(b []byte) []byte) {
		seeds = append(seeds, seed{"broken-" + name, []any{f(append([]byte(nil), tx...))}})
	}
	mut("truncated-half", func(b []byte) []byte { return b[:len(b)/2] })
	mut("truncated-nonce", func(b []byte) []byte { return b[:len(b)-1] })
	mut("trailing-byte", func(b []byte) []byte { return append(b, 0) })
	mut("version-3", func(b []byte) []byte { b[0] = 3; return b })
	mut("parents-0", func(b []byte) []byte { return append([]byte{b[0], 0}, b[2+32*int(b[1]):]...) })
	mut("parents-9", func(b []byte) []byte { b[1] = 9; return b })
	mut("parents-unsorted", func(b []byte) []byte {
		n := int(b[1])
		if n < 2 {
			second := make([]byte, 32)
			return append(append(append([]byte{b[0], 2}, b[2:34]...), second...), b[34:]...)
		}
		copy(b[2+32:2+64], b[2:2+32])
		return b
	})
	payloadAt := func(b []byte) int { return 2 + 32*int(b[1]) }
	mut("payload-length-huge", func(b []byte) []byte {
		binary.LittleEndian.PutUint32(b[payloadAt(b):], 0xffffffff)
		return b
	})
	mut("payload-type-unknown", func(b []byte) []byte {
		binary.LittleEndian.PutUint32(b[payloadAt(b)+4:], 99)
		return b
	})
	mut("network-id-only", func(b []byte) []byte {
		at := payloadAt(b)
		binary.LittleEndian.PutUint32(b[at:], 12)
		return b[:at+4+12]
	})
	mut("inputs-0", func(b []byte) []byte {
		at := payloadAt(b) + 4 + 4 + 8 // length, type, network id
		binary.LittleEndian.PutUint16(b[at:], 0)
		return b
	})
	mut("inputs-huge", func(b []byte) []byte {
		at := payloadAt(b) + 4 + 4 + 8
		binary.LittleEndian.PutUint16(b[at:], 0xffff)
		return b
	})
	// A flipped byte mid-message may land in a signature and still decode: not "broken".
	seeds = append(seeds, seed{"mutated-flipped-middle", []any{func(b []byte) []byte { b[len(b)/2] ^= 0xff; return b }(append([]byte(nil), tx...))}})
	seeds = append(seeds, seed{"broken-empty", []any{[]byte{}}}, seed{"broken-version-only", []any{[]byte{chain.ProtocolVersion}}})
	return seeds
}

func ledgerOutputs(cms []*chain.ConfirmedMilestone) []chain.LedgerOutput {
	var all []chain.LedgerOutput
	for _, cm := range cms {
		all = append(all, cm.Created...)
		for _, ls := range cm.Consumed {
			all = append(all, ls.LedgerOutput)
		}
	}
	return all
}

func outputSeeds(cms []*chain.ConfirmedMilestone) []seed {
	var seeds []seed
	seen := map[string]bool{}
	var basic []byte
	for _, lo := range ledgerOutputs(cms) {
		o := lo.Output
		k := o.Kind.String()
		if o.StorageDepositReturn != nil {
			k += "-sdr"
		}
		if o.Expiration != nil || o.Timelock != nil {
			k += "-time"
		}
		if len(o.NativeTokens) > 0 {
			k += "-tokens"
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		raw := chain.EncodeOutput(o)
		seeds = append(seeds, seed{"sim-" + k, []any{raw}})
		if o.Kind == chain.OutputBasic && basic == nil {
			basic = raw
		}
	}
	mut := func(name string, f func(b []byte) []byte) {
		seeds = append(seeds, seed{"broken-" + name, []any{f(append([]byte(nil), basic...))}})
	}
	mut("blob-version-2", func(b []byte) []byte { b[0] = 2; return b })
	mut("kind-unknown", func(b []byte) []byte { b[1] = 2; return b })
	mut("amount-zero", func(b []byte) []byte { clear(b[2:10]); return b })
	mut("native-tokens-65", func(b []byte) []byte { b[10] = 65; return b })
	mut("truncated", func(b []byte) []byte { return b[:len(b)-3] })
	mut("trailing", func(b []byte) []byte { return append(b, 1, 2) })
	return seeds
}

func transactions(cms []*chain.ConfirmedMilestone) []*chain.Transaction {
	var txs []*chain.Transaction
	for _, cm := range cms {
		for _, rm := range cm.Messages {
			if tx := decoded(rm).TransactionOf(); tx != nil {
				txs = append(txs, tx)
			}
		}
	}
	return txs
}

func inputSeeds(cms []*chain.ConfirmedMilestone) []seed {
	in := transactions(cms)[0].Inputs[0]
	raw := chain.EncodeInput(in)
	high := append([]byte(nil), raw...)
	binary.LittleEndian.PutUint16(high[len(high)-2:], chain.MaxOutputs)
	kind := append([]byte(nil), raw...)
	kind[1] = 1
	return []seed{
		{"sim-input", []any{raw}},
		{"broken-index-128", []any{high}},
		{"broken-input-type-1", []any{kind}},
		{"broken-truncated", []any{raw[:20]}},
	}
}

func unlockSeeds(cms []*chain.ConfirmedMilestone) []seed {
	var seeds []seed
	seen := map[chain.UnlockKind]bool{}
	var sig []byte
	for _, tx := range transactions(cms) {
		for _, u := range tx.Unlocks {
			if seen[u.Kind] {
				continue
			}
			seen[u.Kind] = true
			raw := chain.EncodeUnlock(u)
			seeds = append(seeds, seed{"sim-" + u.Kind.String(), []any{raw}})
			if u.Kind == chain.UnlockSignature {
				sig = raw
			}
		}
	}
	kind := append([]byte(nil), sig...)
	kind[1] = 4
	sigType := append([]byte(nil), sig...)
	sigType[2] = 1
	return append(seeds,
		seed{"broken-kind-4", []any{kind}},
		seed{"broken-signature-type-1", []any{sigType}},
		seed{"broken-truncated-signature", []any{sig[:len(sig)-10]}})
}

func idSeeds(cms []*chain.ConfirmedMilestone) []seed {
	cm := cms[len(cms)-1]
	var out []seed
	add := func(name, s string) { out = append(out, seed{name, []any{s}}) }
	msg := cm.Messages[0].ID.String()
	add("sim-message-id", msg)
	add("sim-milestone-id", cm.MilestoneID.String())
	add("sim-message-id-upper", "0x"+strings.ToUpper(msg[2:]))
	for _, lo := range ledgerOutputs(cms) {
		switch lo.Output.Kind {
		case chain.OutputBasic:
			if !hasSeed(out, "sim-output-id") {
				add("sim-output-id", lo.OutputID.String())
			}
		case chain.OutputFoundry:
			if !hasSeed(out, "sim-foundry-id") {
				add("sim-foundry-id", lo.Output.FoundryID.String())
			}
		case chain.OutputNFT:
			if !hasSeed(out, "sim-nft-id") {
				add("sim-nft-id", chain.NFTIDFromOutputID(lo.OutputID).String())
			}
		}
	}
	add("broken-no-prefix", msg[2:])
	add("broken-odd-length", msg[:len(msg)-1])
	add("broken-one-byte-long", msg+"00")
	add("broken-non-hex", msg[:len(msg)-1]+"g")
	add("broken-upper-prefix", "0X"+msg[2:])
	add("broken-huge", "0x"+strings.Repeat("f", 4096))
	add("broken-utf8", "0x\xff\xfe"+msg[6:])
	return out
}

func hasSeed(seeds []seed, name string) bool {
	for _, s := range seeds {
		if s.name == name {
			return true
		}
	}
	return false
}

func addressSeeds(cms []*chain.ConfirmedMilestone) []seed {
	var out []seed
	add := func(name, s string) { out = append(out, seed{name, []any{s}}) }
	seen := map[chain.AddressKind]bool{}
	var first string
	for _, lo := range ledgerOutputs(cms) {
		a := lo.Output.Address
		if a == nil || seen[a.Kind] {
			continue
		}
		seen[a.Kind] = true
		add("sim-"+a.Kind.String()+"-bech32", a.String())
		add("sim-"+a.Kind.String()+"-hex", a.Hex())
		if first == "" {
			first = a.String()
		}
	}
	add("sim-upper-bech32", strings.ToUpper(first))
	b := []byte(first)
	b[len(b)-1] ^= 1
	add("broken-checksum", string(b))
	add("broken-mixed-case", strings.ToUpper(first[:5])+first[5:])
	add("broken-too-long", first+strings.Repeat("q", 40))
	add("broken-no-separator", strings.ReplaceAll(first, "1", ""))
	add("broken-hex-short", "0x00"+strings.Repeat("ab", 31))
	add("broken-hex-kind-1", "0x01"+strings.Repeat("ab", 32))
	return out
}

func milestoneSeeds(cms []*chain.ConfirmedMilestone) []seed {
	var out []seed
	cm := cms[3]
	ms := cm.Messages[len(cm.Messages)-1].Raw
	for _, rm := range cm.Messages {
		k := kindOf(decoded(rm))
		name := fmt.Sprintf("sim-%s-%s", k, rm.InclusionState)
		if hasSeed(out, name) || k == "milestone" {
			continue
		}
		out = append(out, seed{name, []any{ms, rm.Raw, uint8(rm.InclusionState), uint8(rm.ConflictReason), true}})
	}
	out = append(out,
		seed{"broken-conflicting-without-reason", []any{ms, out[0].values[1], uint8(chain.Conflicting), uint8(chain.ConflictNone), false}},
		seed{"broken-unknown-state", []any{ms, out[0].values[1], uint8(7), uint8(0), false}},
		seed{"broken-milestone-truncated", []any{ms[:len(ms)-4], out[0].values[1], uint8(0), uint8(0), false}})
	return out
}
