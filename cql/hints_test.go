package cql_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

func testTagHints(t *testing.T, n node) {
	const tag = "hint-tag"
	for i, h := range []struct {
		kind string
		rng  int
	}{{"basic_outputs", 1}, {"basic_outputs", 3}, {"nft_outputs", 2}, {"basic_outputs", 2}, {"tags", 7}} {
		n.write(t, cql.InsertTagHint, chainTS(300, i), tag, h.kind, h.rng)
	}
	n.write(t, cql.InsertTagHint, chainTS(300, 9), "other-tag", "basic_outputs", 9)

	n.expect(t, cql.TagHints, []row{
		{"table_kind": "basic_outputs", "ms_range_id": 3},
		{"table_kind": "basic_outputs", "ms_range_id": 2},
		{"table_kind": "basic_outputs", "ms_range_id": 1},
		{"table_kind": "nft_outputs", "ms_range_id": 2},
		{"table_kind": "tags", "ms_range_id": 7},
	}, tag)
	n.expect(t, cql.TagHintsByKind, []row{{"ms_range_id": 3}, {"ms_range_id": 2}, {"ms_range_id": 1}}, tag, "basic_outputs")
	n.expect(t, cql.TagHintsByKind, nil, tag, "alias_outputs")
}

func testAddressHints(t *testing.T, n node) {
	const addr = "hint-address"
	type hint struct {
		kind, variant string
		rng           int
	}
	hints := []hint{
		{"basic", "address", 1}, {"basic", "address", 4}, {"basic", "sender", 2},
		{"nft", "address", 3}, {"nft", "issuer", 5}, {"alias", "address", 6},
	}
	for i, h := range hints {
		n.write(t, cql.InsertAddressHint, chainTS(310, i), addr, h.kind, h.variant, h.rng)
	}
	n.write(t, cql.InsertAddressHint, chainTS(310, 9), "other-address", "basic", "address", 9)

	n.expect(t, cql.AddressHints, []row{{"ms_range_id": 4}, {"ms_range_id": 1}}, addr, "basic", "address")
	n.expect(t, cql.AddressHints, nil, addr, "foundry", "address")

	// IN over kinds and roles, bound as slices: alias and issuer are left out.
	n.expect(t, cql.AddressHintsIn, []row{
		{"output_kind": "basic", "variant": "address", "ms_range_id": 4},
		{"output_kind": "basic", "variant": "address", "ms_range_id": 1},
		{"output_kind": "basic", "variant": "sender", "ms_range_id": 2},
		{"output_kind": "nft", "variant": "address", "ms_range_id": 3},
	}, addr, []string{"basic", "nft"}, []string{"address", "sender"})
}
