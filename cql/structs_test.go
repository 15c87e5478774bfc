package cql_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// listed is a record of messages_by_milestone: its fields name their columns.
type listed struct {
	WhiteFlagIndex int32  `cql:"white_flag_index"`
	MessageID      string `cql:"message_id"`
	Unread         string // no column: left alone
}

// testRecords reads rows into records by their column names: all of them, a page at a
// time, the first one, none; a record without a field for a column the select returns
// is an error naming it.
func testRecords(t *testing.T, n node) {
	ctx := context.Background()
	const index = 140 // its own milestone (and 141 without rows): the subtests share the keyspace
	for _, wf := range []int{2, 0, 1} {
		n.write(t, cql.InsertMessageByMilestone, chainTS(index, wf), index, wf, "msg-rec-"+string(rune('a'+wf)))
	}
	n.use(cql.MessagesByMilestone)
	want := []listed{{0, "msg-rec-a", ""}, {1, "msg-rec-b", ""}, {2, "msg-rec-c", ""}}
	all, err := cql.Records[listed](ctx, n.s, cql.MessagesByMilestone, []any{index})
	if err != nil || !slices.Equal(all, want) {
		t.Errorf("Records: %v, %v; want %v", all, err, want)
	}
	first, state, err := cql.RecordPage[listed](ctx, n.s, cql.MessagesByMilestone, []any{index}, 2, nil)
	if err != nil || !slices.Equal(first, want[:2]) || len(state) == 0 {
		t.Fatalf("first page: %v, state %x, %v", first, state, err)
	}
	rest, state, err := cql.RecordPage[listed](ctx, n.s, cql.MessagesByMilestone, []any{index}, 2, state)
	if err != nil || !slices.Equal(rest, want[2:]) || len(state) != 0 {
		t.Errorf("second page: %v, state %x, %v", rest, state, err)
	}
	var one listed
	if err := cql.GetRecord(ctx, n.s, cql.MessagesByMilestone, []any{index}, &one); err != nil || one != want[0] {
		t.Errorf("GetRecord: %v, %v", one, err)
	}
	if err := cql.GetRecord(ctx, n.s, cql.MessagesByMilestone, []any{index + 1}, &one); !errors.Is(err, gocql.ErrNotFound) {
		t.Errorf("GetRecord of no row: %v, want gocql.ErrNotFound", err)
	}
	type lacking struct {
		WhiteFlagIndex int32 `cql:"white_flag_index"`
	}
	got, err := cql.Records[lacking](ctx, n.s, cql.MessagesByMilestone, []any{index})
	if err == nil || !strings.Contains(err.Error(), `missing destination name "message_id"`) {
		t.Errorf("a record without message_id: %v, %v; want an error naming the column", got, err)
	}
}
