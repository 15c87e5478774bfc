package cql_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// testLedgerAnalytics writes a ledger index's richest list and distribution, reads them
// back, and rewrites them: the delete (older timestamp) clears what the rewrite omits.
func testLedgerAnalytics(t *testing.T, n node) {
	const ledger = 4242
	rich := [][]any{{ledger, 1, "addr-a", int64(900)}, {ledger, 2, "addr-b", int64(50)}, {ledger, 3, "addr-c", int64(7)}}
	dist := [][]any{{ledger, 0, int64(1), int64(7)}, {ledger, 1, int64(1), int64(50)}, {ledger, 2, int64(1), int64(900)}}
	for i := range rich {
		n.write(t, cql.InsertRichest, chainTS(10, i), rich[i]...)
		n.write(t, cql.InsertDistribution, chainTS(10, i), dist[i]...)
	}
	rows := func(cols []string, rs ...[]any) []row {
		var out []row
		for _, r := range rs {
			out = append(out, zip(cols, r))
		}
		return out
	}
	richCols := cql.InsertRichest.Columns // the model's columns, as RichestTop reads them
	distCols := cql.InsertDistribution.Columns
	n.expect(t, cql.RichestTop, rows(richCols, rich[0], rich[1]), ledger, 2)
	n.expect(t, cql.RichestTop, rows(richCols, rich...), ledger, 1000)
	n.expect(t, cql.Distribution, rows(distCols, dist...), ledger)
	n.expect(t, cql.RichestTop, nil, ledger+1, 10)

	// Rewrite with one address fewer: the delete at an older timestamp removes rank 3.
	n.write(t, cql.DeleteRichest, chainTS(11, 0), ledger)
	n.write(t, cql.DeleteDistribution, chainTS(11, 0), ledger)
	for i := range 2 {
		n.write(t, cql.InsertRichest, chainTS(11, 1+i), rich[i]...)
		n.write(t, cql.InsertDistribution, chainTS(11, 1+i), dist[i]...)
	}
	n.expect(t, cql.RichestTop, rows(richCols, rich[0], rich[1]), ledger, 1000)
	n.expect(t, cql.Distribution, rows(distCols, dist[0], dist[1]), ledger)
}
