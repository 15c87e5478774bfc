package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Columns of tags rows, in the order the statements below bind or return them.
var (
	tagRow        = []string{"tag", "ms_range_id", "milestone_index", "ms_timestamp", "message_id", "inclusion_state"}
	pendingTagRow = tagRow[:5:5] // no inclusion state before a milestone judged it
	pendingTagKey = []string{"tag", "ms_range_id", "ms_timestamp", "milestone_index", "message_id"}
	tagMessages   = join(tagRow[2:])
)

// Tags (seed: Tags).
var (
	InsertTag = insert(tags, Statement{Name: "tags.insert", InUse: true,
		Pattern: "index a referenced message by its tag"}, tagRow)
	InsertPendingTag = insertTTL(tags, Statement{Name: "tags.insert_pending", InUse: true,
		Pattern: "index an unreferenced message by its tag in the pending partition, expiring"}, pendingTagRow)
	DeletePendingTag = remove(tags, Statement{Name: "tags.delete_pending", InUse: true,
		Pattern: "remove a message's pending tag row once its milestone arrived"}, pendingTagKey)
	TagMessages = query(tags, Statement{Name: "tags.by_partition", InUse: true,
		Pattern: "list messages with a tag in one ms_range_id partition, newest first (seed select 1)"},
		tagMessages, tags.SelectBuilder())
	TagMessagesTime = query(tags, Statement{Name: "tags.by_partition_time", InUse: true,
		Pattern: "list messages with a tag in one partition within [from, to) (seed select 2)"},
		tagMessages, tags.SelectBuilder().Where(qb.GtOrEq("ms_timestamp"), qb.Lt("ms_timestamp")))
)

// Columns of parents rows (and of the parents_by_ms view), in the order the statements
// below bind or return them.
var (
	unreferencedChild = []string{"parent_id", "message_id", "est_milestone_index", "ms_timestamp"}
	referencedChild   = []string{"parent_id", "message_id", "milestone_index", "ms_timestamp", "inclusion_state"}
	children          = []string{"milestone_index", "est_milestone_index", "ms_timestamp", "message_id", "inclusion_state"}
)

// Parents (seed: Parents).
var (
	InsertUnreferencedChild = insert(parents, Statement{Name: "parents.insert_unreferenced", InUse: true,
		Pattern: "link an unreferenced message to a parent (seed insert 1)"}, unreferencedChild)
	InsertChild = insert(parents, Statement{Name: "parents.insert", InUse: true,
		Pattern: "link a referenced message to a parent (seed insert 2)"}, referencedChild)
	Children = query(parentsByMs, Statement{Name: "parents_by_ms.by_parent", InUse: true,
		Pattern: "list a message's children, newest first (seed select 1)"}, children, parentsByMs.SelectBuilder())
	ChildrenTime = query(parentsByMs, Statement{Name: "parents_by_ms.by_parent_time", InUse: true,
		Pattern: "list a message's children within [from, to) (seed select 2)"},
		children, parentsByMs.SelectBuilder().Where(qb.GtOrEq("ms_timestamp"), qb.Lt("ms_timestamp")))
	DeleteChildren = define(parents, Statement{Name: "parents.delete_by_parent", InUse: false,
		Pattern: "drop every child link of a parent (seed delete; pruning)"},
		qb.Delete(parents.Name()).Where(qb.Eq("parent_id")))
)

// syncColumns are the columns the sync reads return, in scan order.
var syncColumns = []string{"milestone_index", "synced_by", "logged_by"}

// Sync (seed: Sync).
var (
	InsertSync = define(syncRows, Statement{Name: "sync.insert", InUse: true, ServerTimestamp: true,
		Pattern: "mark a milestone as fully written (written last; the coordinator's clock stamps it)"},
		syncRows.InsertBuilder())
	SyncAll = define(syncRows, Statement{Name: "sync.all", InUse: false,
		Pattern: "list every synced milestone (seed select 1: a full scan; readers page per range instead)"},
		qb.Select(syncRows.Name()).Columns(syncColumns...))
	SyncRange = define(syncRows, Statement{Name: "sync.by_range", InUse: true,
		Pattern: "list synced milestones of one ms_range_id within [start, end) (seed select 2)"},
		syncRows.SelectBuilder(syncColumns...).Where(qb.GtOrEq("milestone_index"), qb.Lt("milestone_index")))
)

// Sync partitions and their newest rows: how `indexer status` and GET /sync find the
// synced span without the seed's full-table scan of rows.
var (
	SyncPartitions = define(syncRows, Statement{Name: "sync.partitions", InUse: true,
		Pattern: "list the ms_range_id partitions that hold sync rows (one entry per partition)"},
		qb.Select(syncRows.Name()).Distinct("ms_range_id"))
	SyncNewest = define(syncRows, Statement{Name: "sync.newest_in_range", InUse: true,
		Pattern: "newest synced milestone of one ms_range_id"},
		syncRows.SelectBuilder("milestone_index").Limit(1))
	SyncOldest = define(syncRows, Statement{Name: "sync.oldest_in_range", InUse: true,
		Pattern: "oldest synced milestone of one ms_range_id"},
		syncRows.SelectBuilder("milestone_index").OrderBy("milestone_index", qb.ASC).Limit(1))
)

// SyncWriteTime reads when a sync row was written: a re-sync deletes it with the
// timestamp just above, whatever the clock of the host that asks.
var SyncWriteTime = define(syncRows, Statement{Name: "sync.write_time", InUse: true,
	Pattern: "the write timestamp of one milestone's sync row (re-sync)"},
	qb.Select(syncRows.Name()).Columns("WRITETIME(synced_by)").Where(syncRows.PrimaryKeyCmp()...))

// DeleteSync forgets that a milestone was written, so the next run rewrites it
// (operators re-syncing a range; tests making a gap).
var DeleteSync = define(syncRows, Statement{Name: "sync.delete", InUse: true,
	Pattern: "mark a milestone as not written (re-sync)"}, syncRows.DeleteBuilder())
