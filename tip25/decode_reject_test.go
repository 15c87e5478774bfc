package tip25

import (
	"errors"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// mutation replaces old (which must occur) with new in a valid document.
type mutation struct {
	name, old, new string
	want           error // ErrUnknownType, ErrMalformed, or nil for "any error" (a chain rule)
}

func checkRejects(t *testing.T, valid string, decode func([]byte) error, muts []mutation) {
	t.Helper()
	if err := decode([]byte(valid)); err != nil {
		t.Fatalf("the valid document fails: %v", err)
	}
	for _, m := range muts {
		if !strings.Contains(valid, m.old) {
			t.Errorf("%s: %q not in the document", m.name, m.old)
			continue
		}
		err := decode([]byte(strings.Replace(valid, m.old, m.new, 1)))
		switch {
		case err == nil:
			t.Errorf("%s: accepted", m.name)
		case m.want != nil && !errors.Is(err, m.want):
			t.Errorf("%s: error %v, want %v", m.name, err, m.want)
		default:
			t.Logf("%s: %v", m.name, err)
		}
	}
}

func TestDecodeOutputRejects(t *testing.T) {
	valid := string(outputJSON(t, chain.EncodeOutput(fixtureOutputs()["basic everything"])))
	decode := func(b []byte) error { _, err := DecodeOutput(b); return err }
	checkRejects(t, valid, decode, []mutation{
		{"treasury output type", `{"type":3,"amount"`, `{"type":2,"amount"`, ErrUnknownType},
		{"unknown output type", `{"type":3,"amount"`, `{"type":9,"amount"`, ErrUnknownType},
		{"unknown condition", `{"type":2,"unixTime"`, `{"type":7,"unixTime"`, ErrUnknownType},
		{"alias condition on basic", `{"type":2,"unixTime":1700000000}`, `{"type":2,"unixTime":1700000000},{"type":4,"address":{"type":0,"pubKeyHash":"0x` + strings.Repeat("00", 32) + `"}}`, ErrUnknownType},
		{"unknown feature", `{"type":3,"tag"`, `{"type":4,"tag"`, ErrUnknownType},
		{"issuer in mutable features", `"features":[{"type":0,`, `"features":[{"type":1,`, ErrUnknownType},
		{"unknown address type", `"returnAddress":{"type":8,"aliasId"`, `"returnAddress":{"type":9,"aliasId"`, ErrUnknownType},
		{"address key of another kind", `"returnAddress":{"type":8,"aliasId"`, `"returnAddress":{"type":8,"nftId"`, ErrMalformed},
		{"yaml returnAmount", `,"amount":"50800"}`, `,"returnAmount":"50800"}`, ErrMalformed},
		{"unknown field", `{"type":3,"amount"`, `{"type":3,"extra":1,"amount"`, ErrMalformed},
		{"field of another kind", `{"type":3,"amount"`, `{"type":3,"nftId":"0x00","amount"`, ErrMalformed},
		{"amount as number", `"amount":"4611686018427387904"`, `"amount":4611686018427387904`, ErrMalformed},
		{"negative amount", `"amount":"4611686018427387904"`, `"amount":"-1"`, ErrMalformed},
		{"uint256 without 0x", `"amount":"0x2a"`, `"amount":"2a"`, ErrMalformed},
		{"uint256 as decimal string", `"amount":"0x2a"`, `"amount":"42"`, ErrMalformed},
		{"uint256 over 256 bits", `"amount":"0x2a"`, `"amount":"0x1` + strings.Repeat("0", 64) + `"`, ErrMalformed},
		{"uint256 negative", `"amount":"0x2a"`, `"amount":"0x-2a"`, ErrMalformed},
		{"short pubKeyHash", `"pubKeyHash":"0x02`, `"pubKeyHash":"0x`, ErrMalformed},
		{"hex without 0x", `"tag":"0x746167"`, `"tag":"746167"`, ErrMalformed},
		{"empty metadata feature", `"data":"0x6d65746164617461"`, `"data":"0x"`, ErrMalformed},
		{"conditions out of order", `{"type":2,"unixTime":1700000000}`, `{"type":0,"address":{"type":0,"pubKeyHash":"0x` + strings.Repeat("00", 32) + `"}}`, ErrMalformed},
		{"duplicate condition", `{"type":2,"unixTime":1700000000}`, `{"type":2,"unixTime":1700000000},{"type":2,"unixTime":1700000000}`, ErrMalformed},
		{"unix time as string", `"unixTime":1700000000`, `"unixTime":"1700000000"`, ErrMalformed},
		{"unix time over 32 bits", `"unixTime":1700000000`, `"unixTime":4294967296`, ErrMalformed},
		{"null unlock conditions", `"unlockConditions":[`, `"unlockConditions":null,"x":[`, ErrMalformed},
		{"zero amount (TIP-18)", `"amount":"4611686018427387904"`, `"amount":"0"`, nil},
		{"zero timelock (TIP-18)", `"unixTime":1700000000`, `"unixTime":0`, nil},
	})
}

func TestDecodeFoundryRejects(t *testing.T) {
	valid := string(outputJSON(t, chain.EncodeOutput(fixtureOutputs()["foundry minimal"])))
	decode := func(b []byte) error { _, err := DecodeOutput(b); return err }
	checkRejects(t, valid, decode, []mutation{
		{"yaml token scheme array", `"tokenScheme":{"type":0,"mintedTokens":"0x0","meltedTokens":"0x0","maximumSupply":"0x1"}`,
			`"tokenScheme":[{"type":0,"mintedTokens":"0x0","meltedTokens":"0x0","maxSupply":"0x1"}]`, ErrMalformed},
		{"yaml maxSupply", `"maximumSupply"`, `"maxSupply"`, ErrMalformed},
		{"unknown token scheme", `"tokenScheme":{"type":0`, `"tokenScheme":{"type":1`, ErrUnknownType},
		{"zero maximum supply (TIP-18)", `"maximumSupply":"0x1"`, `"maximumSupply":"0x0"`, nil},
		{"ed25519 immutable alias (TIP-18)", `{"type":6,"address":{"type":8,"aliasId"`, `{"type":6,"address":{"type":0,"pubKeyHash"`, nil},
	})
}

func TestDecodeBlockRejects(t *testing.T) {
	blocks, _ := fixtureBlocks(t)
	valid := string(blockJSON(t, blocks["transaction"].Encode()))
	decode := func(b []byte) error { _, err := DecodeBlock(b); return err }
	checkRejects(t, valid, decode, []mutation{
		{"treasury payload in a block", `"payload":{"type":6`, `"payload":{"type":4`, ErrUnknownType},
		{"unknown payload", `"payload":{"type":6`, `"payload":{"type":8`, ErrUnknownType},
		{"unknown essence", `"essence":{"type":1`, `"essence":{"type":2`, ErrUnknownType},
		{"treasury input", `"inputs":[{"type":0`, `"inputs":[{"type":1`, ErrUnknownType},
		{"transaction in an essence", `"payload":{"type":5,"tag":"0x66`, `"payload":{"type":6,"tag":"0x66`, ErrUnknownType},
		{"unknown unlock", `{"type":3,"reference":2}`, `{"type":4,"reference":2}`, ErrUnknownType},
		{"unknown signature", `"signature":{"type":0`, `"signature":{"type":1`, ErrUnknownType},
		{"unknown essence field", `"inputsCommitment"`, `"extra":0,"inputsCommitment"`, ErrMalformed},
		{"nonce as number", `"nonce":"5"`, `"nonce":5`, ErrMalformed},
		{"nine parents", `"parents":[`, `"parents":["0x01","0x02","0x03","0x04","0x05","0x06","0x07",`, ErrMalformed},
		{"unsorted parents (TIP-24)", `"parents":["0x0102`, `"parents":["0xff02`, nil},
		{"reference to itself (TIP-20)", `{"type":1,"reference":0}`, `{"type":1,"reference":1}`, nil},
	})
}

func TestDecodeMilestoneRejects(t *testing.T) {
	blocks, _ := fixtureBlocks(t)
	valid := string(blockJSON(t, blocks["milestone"].Encode()))
	decode := func(b []byte) error { _, err := DecodeBlock(b); return err }
	checkRejects(t, valid, decode, []mutation{
		{"yaml receipt type 3", `"options":[{"type":0`, `"options":[{"type":3`, ErrUnknownType},
		{"unknown option", `{"type":1,"targetMilestoneIndex"`, `{"type":2,"targetMilestoneIndex"`, ErrUnknownType},
		{"options out of order", `{"type":1,"targetMilestoneIndex"`, `{"type":0,"targetMilestoneIndex"`, ErrMalformed},
		{"deposit as number", `"deposit":"1000000"`, `"deposit":1000000`, ErrMalformed},
		{"final as number", `"final":true`, `"final":1`, ErrMalformed},
		{"unknown treasury input", `"input":{"type":1`, `"input":{"type":0`, ErrUnknownType},
		{"unknown treasury output", `"output":{"type":2`, `"output":{"type":3`, ErrUnknownType},
		{"short tail hash", `"tailTransactionHash":"0x01`, `"tailTransactionHash":"0x`, ErrMalformed},
		{"deposit below the minimum (TIP-34)", `"deposit":"1000000"`, `"deposit":"999999"`, nil},
	})
}

func TestLegacyOutputHasNoJSON(t *testing.T) {
	legacy := chain.Output{Kind: chain.OutputLegacy, Amount: 1_000_000, Address: ed(1)}
	if _, err := Output(legacy); !errors.Is(err, ErrLegacyOutput) {
		t.Errorf("Output(legacy): %v, want ErrLegacyOutput", err)
	}
	if _, err := OutputResponse(legacy, nil); !errors.Is(err, ErrLegacyOutput) {
		t.Errorf("OutputResponse(legacy): %v, want ErrLegacyOutput", err)
	}
	if _, err := Output(chain.Output{Kind: 2}); !errors.Is(err, ErrUnknownType) {
		t.Errorf("Output(kind 2): %v, want ErrUnknownType", err)
	}
}
