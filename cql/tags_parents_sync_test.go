package cql_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

func testTags(t *testing.T, n node) {
	const tag, rng = "tag-roundtrip", 4
	tagged := func(ms int) row {
		return row{"milestone_index": ms, "ms_timestamp": msTime(ms), "message_id": fmt.Sprint("msg-tag-", ms), "inclusion_state": 1}
	}
	for _, ms := range []int{402, 401, 403} {
		r := tagged(ms)
		n.write(t, cql.InsertTag, chainTS(ms, 1), tag, rng, r["ms_timestamp"], ms, r["message_id"], int8(1))
	}
	n.expect(t, cql.TagMessages, []row{tagged(403), tagged(402), tagged(401)}, tag, rng)
	n.expect(t, cql.TagMessagesTime, []row{tagged(402), tagged(401)}, tag, rng, msTime(401), msTime(403))
	n.expect(t, cql.TagMessagesTime, nil, tag, rng, msTime(404), msTime(405))

	// An unreferenced message's tag: pending partition until its milestone arrives.
	seen := msTime(403).Add(4 * time.Second)
	n.write(t, cql.InsertPendingTag, chainTS(403, 4), tag, cql.PendingRange, seen, 404, "msg-tag-pending", pendingTTL)
	n.expect(t, cql.TagMessages, []row{{"milestone_index": 404, "ms_timestamp": seen, "message_id": "msg-tag-pending",
		"inclusion_state": 0}}, tag, cql.PendingRange)
	n.write(t, cql.DeletePendingTag, chainTS(404, 1), tag, cql.PendingRange, seen, 404, "msg-tag-pending")
	n.expect(t, cql.TagMessages, nil, tag, cql.PendingRange)
}

func testParents(t *testing.T, n node) {
	const parent = "parent-roundtrip"
	seen := msTime(600).Add(2 * time.Second)
	child := func(id string, ms, est int, at time.Time, state int) row {
		return row{"message_id": id, "milestone_index": ms, "est_milestone_index": est, "ms_timestamp": at, "inclusion_state": state}
	}

	// Seen unreferenced: the view row is keyed by the time it was seen.
	n.write(t, cql.InsertUnreferencedChild, chainTS(600, 2), parent, "child-a", 601, seen)
	n.eventually(t, cql.Children, []row{child("child-a", 0, 601, seen, 0)}, parent)

	// Referenced by milestone 601: ms_timestamp moves to the milestone's time, which
	// must leave exactly one row in parents_by_ms (the old view row is removed).
	n.write(t, cql.InsertChild, chainTS(601, 1), parent, "child-a", 601, msTime(601), int8(1))
	n.write(t, cql.InsertChild, chainTS(602, 1), parent, "child-b", 602, msTime(602), int8(1))
	a, b := child("child-a", 601, 601, msTime(601), 1), child("child-b", 602, 0, msTime(602), 1)
	n.eventually(t, cql.Children, []row{b, a}, parent)
	n.eventually(t, cql.ChildrenTime, []row{a}, parent, msTime(601), msTime(602))
	n.eventually(t, cql.ChildrenTime, nil, parent, seen, msTime(601))

	n.write(t, cql.DeleteChildren, chainTS(700, 1), parent)
	n.eventually(t, cql.Children, nil, parent)
}

func testSync(t *testing.T, n node) {
	var want []int
	for _, ms := range []int{100, 104, 101, 103, 102, 1000} {
		n.write(t, cql.InsertSync, chainTS(ms, 99), ms/1000, ms, int8(1), int8(2))
		want = append(want, ms)
	}
	synced := func(ms int) row { return row{"milestone_index": ms, "synced_by": 1, "logged_by": 2} }
	n.expect(t, cql.SyncRange, []row{synced(103), synced(102), synced(101)}, 0, 101, 104)
	n.expect(t, cql.SyncRange, []row{synced(1000)}, 1, 0, 2000)

	n.expect(t, cql.SyncNewest, []row{{"milestone_index": 104}}, 0)
	n.expect(t, cql.SyncOldest, []row{{"milestone_index": 100}}, 0)
	n.expect(t, cql.SyncNewest, nil, 2)

	// sync.all and sync.partitions scan every partition, in token order: compare as sets.
	var got, parts []int
	for _, r := range n.rows(t, cql.SyncAll) {
		ms := int(r["milestone_index"].(int64))
		if !sameRows([]row{r}, []row{synced(ms)}) {
			t.Errorf("sync.all row %v", r)
		}
		got = append(got, ms)
	}
	for _, r := range n.rows(t, cql.SyncPartitions) {
		parts = append(parts, int(r["ms_range_id"].(int64)))
	}
	sameInts(t, "sync.all milestones", got, want)
	sameInts(t, "sync.partitions", parts, []int{0, 1})

	// sync.write_time gives the row's timestamp; sync.delete (re-sync) just above it
	// removes one milestone and leaves its neighbours.
	n.expect(t, cql.SyncWriteTime, []row{{"writetime(synced_by)": chainTS(102, 99)}}, 0, 102)
	n.write(t, cql.DeleteSync, chainTS(102, 99)+1, 0, 102)
	n.expect(t, cql.SyncRange, []row{synced(103), synced(101)}, 0, 101, 104)
}

func sameInts(t *testing.T, what string, got, want []int) {
	t.Helper()
	sort.Ints(got)
	sort.Ints(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: %v, want %v", what, got, want)
	}
}
