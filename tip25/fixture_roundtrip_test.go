package tip25

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func TestFixtureOutputsRoundTrip(t *testing.T) {
	for name, o := range fixtureOutputs() {
		raw := chain.EncodeOutput(o)
		if _, err := chain.DecodeOutput(raw); err != nil {
			t.Fatalf("fixture %q is not a valid output: %v", name, err)
		}
		js := outputJSON(t, raw)
		back, err := DecodeOutput(js)
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, js)
			continue
		}
		if !bytes.Equal(chain.EncodeOutput(back), raw) {
			t.Errorf("%s: JSON -> decode -> encode differs\n%s", name, js)
		}
	}
}

func TestFixtureBlocksRoundTrip(t *testing.T) {
	blocks, _ := fixtureBlocks(t)
	for name, m := range blocks {
		raw := m.Encode()
		js := blockJSON(t, raw)
		back, err := DecodeBlock(js)
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, js)
			continue
		}
		if !bytes.Equal(back.Encode(), raw) {
			t.Errorf("%s: JSON -> decode -> encode differs\n%s", name, js)
		}
	}
}

// TestFixtureJSONForms pins the spellings section 9 and iota.js require.
func TestFixtureJSONForms(t *testing.T) {
	outs := fixtureOutputs()
	ff := strings.Repeat("f", 64)
	cases := map[string][]string{
		"basic everything": {`"amount":"4611686018427387904"`, `"nativeTokens":[{"id":"0x08404142`, `"amount":"0x2a"}`,
			`"amount":"0x` + ff + `"}`, `{"type":1,"returnAddress":{"type":8,"aliasId":"0x030405`, `,"amount":"50800"}`,
			`{"type":2,"unixTime":1700000000}`, `{"type":3,"returnAddress":{"type":16,"nftId":"0x04050607`,
			`"features":[{"type":0,"address":{"type":16,`, `{"type":2,"data":"0x6d65746164617461"}`, `{"type":3,"tag":"0x746167"}`},
		"basic minimal":    {`{"type":3,"amount":"42600","unlockConditions":[{"type":0,"address":{"type":0,"pubKeyHash":"0x0102`},
		"alias new":        {`"aliasId":"0x` + strings.Repeat("0", 64) + `","stateIndex":0,"foundryCounter":0,"unlockConditions":[{"type":4,`},
		"alias everything": {`"stateIndex":9,"stateMetadata":"0x000102","foundryCounter":3`, `"immutableFeatures":[{"type":1,`},
		"foundry minimal": {`"serialNumber":1,"tokenScheme":{"type":0,"mintedTokens":"0x0","meltedTokens":"0x0","maximumSupply":"0x1"}`,
			`"unlockConditions":[{"type":6,"address":{"type":8,"aliasId":"0x40414243`},
		"foundry everything": {`"maximumSupply":"0x1` + strings.Repeat("0", 50) + `"`, `"mintedTokens":"0x3e8","meltedTokens":"0xa"`},
		"nft everything":     {`"nftId":"0x50515253`, `{"type":2,"unixTime":1}`, `"unixTime":4294967295}`},
	}
	for name, wants := range cases {
		js := string(outputJSON(t, chain.EncodeOutput(outs[name])))
		for _, w := range wants {
			if !strings.Contains(js, w) {
				t.Errorf("%s: JSON lacks %s\n%s", name, w, js)
			}
		}
	}
	for _, absent := range []string{`"nativeTokens"`, `"features"`, `"stateMetadata"`, `"immutableFeatures"`} {
		if js := string(outputJSON(t, chain.EncodeOutput(outs["alias new"]))); strings.Contains(js, absent) {
			t.Errorf("alias new: empty %s not omitted\n%s", absent, js)
		}
	}
}

func TestFixtureMilestoneJSONForms(t *testing.T) {
	blocks, _ := fixtureBlocks(t)
	js := string(blockJSON(t, blocks["milestone"].Encode()))
	for _, w := range []string{`"nonce":"0"`, `"metadata":"0x6d696c6573746f6e65206d65746164617461"`,
		`"options":[{"type":0,"migratedAt":99,"final":true,"funds":[{"tailTransactionHash":"0x01` + strings.Repeat("0", 96) + `"`,
		`"deposit":"1000000"}`, `"transaction":{"type":4,"input":{"type":1,"milestoneId":"0x9394`,
		`"output":{"type":2,"amount":"4600000000000000"}}}`, `{"type":1,"targetMilestoneIndex":110,"protocolVersion":2,"params":"0x02077368696d6d6572`,
		`"signatures":[{"type":0,"publicKey":"0xa0a1`} {
		if !strings.Contains(js, w) {
			t.Errorf("milestone JSON lacks %s\n%s", w, js)
		}
	}
	empty := string(blockJSON(t, blocks["tagged data, empty"].Encode()))
	if !strings.Contains(empty, `"payload":{"type":5}`) {
		t.Errorf("empty tagged data: want tag and data omitted, got %s", empty)
	}
	none := string(blockJSON(t, blocks["no payload"].Encode()))
	if strings.Contains(none, "payload") || !strings.Contains(none, `"nonce":"9223372036854775813"`) {
		t.Errorf("no payload: %s", none)
	}
}
