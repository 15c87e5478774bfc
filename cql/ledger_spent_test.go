package cql_test

import (
	"math"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// testSpentTwin: the spent twin's rows read back in TIP-26 order and its reverse, by kind
// and by address, and a milestone's record reads back by its index alone.
func testSpentTwin(t *testing.T, n node) {
	const kind, rng, addr = "alias", 5, "smr1-spent"
	a := append(unspentRow(kind, rng, 500, "0xaa", "owner-1", 10), 901)
	b := append(unspentRow(kind, rng, 501, "0x01", "owner-1", 20), 902)
	for i, r := range [][]any{b, a} {
		n.write(t, cql.InsertSpent, chainTS(902, i), r...)
	}
	oldest := []row{asRow(cql.InsertSpent, a), asRow(cql.InsertSpent, b)}
	n.expect(t, cql.SpentPages.ByKind, oldest, kind, rng, int64(0), "", int64(math.MaxInt64), "")
	n.expect(t, cql.SpentPages.ByKind, oldest[1:], kind, rng, int64(500), "0xab", int64(math.MaxInt64), "")
	n.expect(t, cql.SpentPages.ByKindNewest, []row{asRow(cql.InsertSpent, b), asRow(cql.InsertSpent, a)},
		kind, rng, int64(0), "", int64(math.MaxInt64), "")

	owned := append([]any{addr, rng, kind, "state_controller"}, a[2:]...)
	owned = append(owned, []byte{4, 0}, "0xb2", "0x7a")
	n.write(t, cql.InsertSpentByAddress, chainTS(901, 1), owned...)
	n.expect(t, cql.SpentPages.ByAddress, []row{filterRow(asRow(cql.InsertSpentByAddress, owned))},
		addr, rng, kind, "state_controller", int64(0), "", int64(math.MaxInt64), "")
	n.expect(t, cql.SpentPages.ByAddressOutputs, []row{asRow(cql.InsertSpentByAddress, owned)},
		addr, rng, kind, "state_controller", int64(0), "", int64(math.MaxInt64), "")
	n.expect(t, cql.SpentPages.ByAddressNewest, nil, addr, rng, kind, "governor", int64(0), "", int64(math.MaxInt64), "")

	n.write(t, cql.InsertSpentMilestone, chainTS(901, 0), rng, 901)
	n.expect(t, cql.SpentMilestone, []row{{"milestone_index": 901}}, rng, 901)
	n.expect(t, cql.SpentMilestone, nil, rng, 902)
}
