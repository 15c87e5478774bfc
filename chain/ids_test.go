package chain_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func TestIDStringParseRoundTrip(t *testing.T) {
	var msg chain.MessageID
	for i := range msg {
		msg[i] = byte(i)
	}
	got, err := chain.ParseMessageID(msg.String())
	if err != nil || got != msg {
		t.Fatalf("ParseMessageID(%s) = %v, %v", msg, got, err)
	}
	if !strings.HasPrefix(msg.String(), "0x000102") || len(msg.String()) != 66 {
		t.Fatalf("unexpected form %s", msg)
	}
	tx, _ := chain.ParseTransactionID(msg.String())
	ms, _ := chain.ParseMilestoneID(msg.String())
	alias, _ := chain.ParseAliasID(msg.String())
	nft, _ := chain.ParseNFTID(msg.String())
	for _, s := range []string{tx.String(), ms.String(), alias.String(), nft.String()} {
		if s != msg.String() {
			t.Fatalf("round trip changed %s to %s", msg, s)
		}
	}
}

func TestParseIDErrors(t *testing.T) {
	cases := map[string]string{
		"no prefix":  strings.Repeat("ab", 32),
		"too short":  "0xabcd",
		"too long":   "0x" + strings.Repeat("ab", 33),
		"bad digits": "0x" + strings.Repeat("zz", 32),
	}
	for name, s := range cases {
		_, err := chain.ParseMessageID(s)
		if !errors.Is(err, chain.ErrMalformedID) {
			t.Errorf("%s: err = %v, want ErrMalformedID", name, err)
		}
		if err != nil && !strings.Contains(err.Error(), "message id") {
			t.Errorf("%s: error %q does not name the field", name, err)
		}
	}
	if _, err := chain.ParseOutputID("0x" + strings.Repeat("00", 32)); !errors.Is(err, chain.ErrMalformedID) {
		t.Errorf("32-byte output id accepted: %v", err)
	}
}

func TestOutputIDLayout(t *testing.T) {
	var tx chain.TransactionID
	tx[0] = 0xaa
	id := chain.NewOutputID(tx, 1)
	if !strings.HasSuffix(id.String(), "0100") || len(id.String()) != 2+68 {
		t.Fatalf("output id %s: want 68 hex digits ending in 0100", id)
	}
	if id.TransactionID() != tx || id.Index() != 1 {
		t.Fatalf("parts: %s %d", id.TransactionID(), id.Index())
	}
	parsed, err := chain.ParseOutputID(id.String())
	if err != nil || parsed != id {
		t.Fatalf("ParseOutputID: %v %v", parsed, err)
	}
}

func TestFoundryIDLayout(t *testing.T) {
	var alias chain.AliasID
	alias[31] = 7
	id := chain.NewFoundryID(alias, 0x01020304, chain.TokenSchemeSimple)
	want := "0x08" + strings.Repeat("00", 31) + "07" + "04030201" + "00"
	if id.String() != want {
		t.Fatalf("foundry id %s, want %s", id, want)
	}
	if id.AliasID() != alias || id.SerialNumber() != 0x01020304 || id.TokenScheme() != 0 {
		t.Fatal("foundry id accessors disagree with constructor")
	}
	if _, err := chain.ParseFoundryID(want[:len(want)-2]); !errors.Is(err, chain.ErrMalformedID) {
		t.Fatalf("short foundry id accepted: %v", err)
	}
}

func TestIDsAsJSON(t *testing.T) {
	type doc struct {
		Message     chain.MessageID
		Transaction chain.TransactionID
		Milestone   chain.MilestoneID
		Alias       chain.AliasID
		NFT         chain.NFTID
		Output      chain.OutputID
		Foundry     chain.FoundryID
	}
	in := doc{Message: chain.MessageID{1}, Transaction: chain.TransactionID{4}, Milestone: chain.MilestoneID{5}, Alias: chain.AliasID{6},
		NFT: chain.NFTID{7}, Output: chain.NewOutputID(chain.TransactionID{2}, 3), Foundry: chain.FoundryID{8}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	var out doc
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Fatalf("json round trip: %+v, %v (%s)", out, err, b)
	}
	for _, field := range []string{"Message", "Transaction", "Milestone", "Alias", "NFT", "Output", "Foundry"} {
		if err := json.Unmarshal([]byte(`{"`+field+`":"0x12"}`), &out); !errors.Is(err, chain.ErrMalformedID) {
			t.Fatalf("bad json %s accepted: %v", field, err)
		}
	}
}
