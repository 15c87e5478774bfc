package realdata

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// Made-up outputs for the kinds and fields the real data lacks (foundry, treasury, timelock,
// sender, issuer, NFT and alias addresses), with expected bytes written out by hand from TIP-18.

// ej writes bytes as MongoDB extended JSON.
func ej(b []byte) string {
	return fmt.Sprintf(`{"$binary":{"base64":%q,"subType":"00"}}`, base64.StdEncoding.EncodeToString(b))
}

func rep(b byte, n int) []byte { return bytes.Repeat([]byte{b}, n) }

// h joins hex fragments (spaces allowed) into bytes.
func h(t *testing.T, parts ...string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(strings.Join(parts, ""), " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSerializeMadeUp(t *testing.T) {
	alias, ed, nft := rep(0x11, 32), rep(0x22, 32), rep(0x33, 32)
	foundryID := append(append([]byte{8}, alias...), 1, 0, 0, 0, 0)
	be := func(v byte) []byte { return append(rep(0, 31), v) }
	cases := []struct {
		name, js string
		want     []byte
	}{
		{"treasury", `{"kind":"treasury","amount":"5"}`, h(t, "02 0500000000000000")},
		{"foundry", `{"kind":"foundry","amount":"1000","native_tokens":[],"foundry_id":` + ej(foundryID) +
			`,"serial_number":"1","token_scheme":{"kind":"simple","minted_tokens":` + ej(be(5)) + `,"melted_tokens":` + ej(be(0)) +
			`,"maximum_supply":` + ej(append(rep(0, 30), 1, 0)) + `},"immutable_alias_address_unlock_condition":{"address":{"alias":` + ej(alias) +
			`}},"features":[{"kind":"metadata","data":` + ej([]byte("hi")) + `}],"immutable_features":[]}`,
			h(t, "05 e803000000000000 00 01000000 00", "05"+strings.Repeat("00", 31), strings.Repeat("00", 32), "0001"+strings.Repeat("00", 30),
				"01 06 08"+strings.Repeat("11", 32), "01 02 0200 6869", "00")},
		{"basic", `{"kind":"basic","amount":"258","native_tokens":[{"token_id":` + ej(rep(1, 38)) + `,"amount":` + ej(be(7)) + `}],` +
			`"address_unlock_condition":{"address":{"nft":` + ej(nft) + `}},` +
			`"storage_deposit_return_unlock_condition":{"return_address":{"ed25519":` + ej(ed) + `},"amount":"9"},` +
			`"timelock_unlock_condition":{"timestamp":16},"expiration_unlock_condition":{"return_address":{"alias":` + ej(alias) + `},"timestamp":17},` +
			`"features":[{"kind":"sender","address":{"ed25519":` + ej(ed) + `}},{"kind":"tag","data":` + ej([]byte{0xab}) + `}]}`,
			h(t, "03 0201000000000000 01", strings.Repeat("01", 38), "07"+strings.Repeat("00", 31), "04",
				"00 10"+strings.Repeat("33", 32), "01 00"+strings.Repeat("22", 32)+"0900000000000000", "02 10000000",
				"03 08"+strings.Repeat("11", 32)+"11000000", "02 00 00"+strings.Repeat("22", 32), "03 01 ab")},
		{"alias", `{"kind":"alias","amount":"1","native_tokens":[],"alias_id":` + ej(alias) + `,"state_index":3,"state_metadata":` + ej([]byte{0xcd}) +
			`,"foundry_counter":2,"state_controller_address_unlock_condition":{"address":{"ed25519":` + ej(ed) + `}},` +
			`"governor_address_unlock_condition":{"address":{"alias":` + ej(alias) + `}},"features":[],` +
			`"immutable_features":[{"kind":"issuer","address":{"nft":` + ej(nft) + `}}]}`,
			h(t, "04 0100000000000000 00", strings.Repeat("11", 32), "03000000 0100 cd 02000000", "02",
				"04 00"+strings.Repeat("22", 32), "05 08"+strings.Repeat("11", 32), "00", "01 01 10"+strings.Repeat("33", 32))},
	}
	for _, c := range cases {
		got, err := SerializeOutput([]byte(c.js))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !bytes.Equal(got, c.want) {
			t.Errorf("%s:\n got %x\nwant %x", c.name, got, c.want)
		}
	}
}

func TestSerializeRejects(t *testing.T) {
	ed := `{"ed25519":` + ej(rep(0x22, 32)) + `}`
	basic := func(extra string) string {
		return `{"kind":"basic","amount":"1","native_tokens":[],"address_unlock_condition":{"address":` + ed + `},"features":[]` + extra + `}`
	}
	cases := map[string]string{
		"unknown kind":        `{"kind":"delegation","amount":"1"}`,
		"field of other kind": basic(`,"alias_id":` + ej(rep(0, 32))),
		"unknown field":       basic(`,"colour":"red"`),
		"null field":          basic(`,"timelock_unlock_condition":null`),
		"missing field":       `{"kind":"basic","amount":"1","native_tokens":[],"features":[]}`,
		"feature kind":        strings.Replace(basic(""), `"features":[]`, `"features":[{"kind":"colour","data":`+ej([]byte{1})+`}]`, 1),
		"feature order":       strings.Replace(basic(""), `"features":[]`, `"features":[{"kind":"tag","data":`+ej([]byte{1})+`},{"kind":"metadata","data":`+ej([]byte{1})+`}]`, 1),
		"feature fields":      strings.Replace(basic(""), `"features":[]`, `"features":[{"kind":"tag","address":`+ed+`}]`, 1),
		"address kind":        strings.Replace(basic(""), `"ed25519"`, `"account"`, 1),
		"address size":        basic(`,"expiration_unlock_condition":{"return_address":{"nft":` + ej(rep(1, 31)) + `},"timestamp":1}`),
		"expiration fields":   basic(`,"expiration_unlock_condition":{"return_address":` + ed + `,"amount":"1"}`),
		"timestamp range":     basic(`,"timelock_unlock_condition":{"timestamp":4294967296}`),
		"token amount size":   strings.Replace(basic(""), `"native_tokens":[]`, `"native_tokens":[{"token_id":`+ej(rep(1, 38))+`,"amount":`+ej(rep(1, 31))+`}]`, 1),
		"treasury extras":     `{"kind":"treasury","amount":"1","native_tokens":[]}`,
		"amount not a number": `{"kind":"treasury","amount":"1e3"}`,
		"not extended JSON":   strings.Replace(basic(""), ed, `{"ed25519":"0x22"}`, 1),
	}
	for name, js := range cases {
		b, err := SerializeOutput([]byte(js))
		t.Logf("%s: %v", name, err)
		if err == nil {
			t.Errorf("%s: accepted, gave %x", name, b)
		}
	}
}

func TestSerializeRejectsFoundryMismatch(t *testing.T) {
	alias := rep(0x11, 32)
	id := append(append([]byte{8}, alias...), 2, 0, 0, 0, 0) // serial 2, but the output says 1
	zero := ej(rep(0, 32))
	js := `{"kind":"foundry","amount":"1","native_tokens":[],"foundry_id":` + ej(id) + `,"serial_number":"1",` +
		`"token_scheme":{"kind":"simple","minted_tokens":` + zero + `,"melted_tokens":` + zero + `,"maximum_supply":` + zero + `},` +
		`"immutable_alias_address_unlock_condition":{"address":{"alias":` + ej(alias) + `}},"features":[],"immutable_features":[]}`
	if _, err := SerializeOutput([]byte(js)); err == nil || !strings.Contains(err.Error(), "foundry ID") {
		t.Errorf("foundry ID mismatch: %v", err)
	}
	ed := strings.Replace(strings.Replace(js, `"alias":`, `"ed25519":`, 1), ej(id), ej(append(append([]byte{8}, alias...), 1, 0, 0, 0, 0)), 1)
	if _, err := SerializeOutput([]byte(ed)); err == nil {
		t.Error("immutable alias unlock condition with an Ed25519 address accepted")
	}
}
