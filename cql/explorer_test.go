package cql_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// testExplorerReads: a milestone's messages come back in reverse white-flag order.
func testExplorerReads(t *testing.T, n node) {
	for i, wf := range []int{1, 0, 2} {
		n.write(t, cql.InsertMessageByMilestone, chainTS(130, i), 130, wf, "msg-desc-"+string(rune('a'+wf)))
	}
	n.expect(t, cql.MessagesByMilestoneDesc, []row{
		{"white_flag_index": 2, "message_id": "msg-desc-c"},
		{"white_flag_index": 1, "message_id": "msg-desc-b"},
		{"white_flag_index": 0, "message_id": "msg-desc-a"},
	}, 130)
}
