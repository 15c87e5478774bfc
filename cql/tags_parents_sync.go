package cql

import "github.com/scylladb/gocqlx/v2/qb"

// tagMessage are the columns of a tags row the reads return: all but its key.
var tagMessage = []string{"milestone_index", "ms_timestamp", "message_id", "inclusion_state"}

// Tags (seed: Tags).
var (
	InsertTag        = def(tags, "tags.insert", "index a referenced message by its tag", tags.InsertBuilder())
	InsertPendingTag = def(tags, "tags.insert_pending",
		"index an unreferenced message by its tag in the pending partition, expiring",
		insert(tags, PrimaryKey("tags")...).TTLNamed(ttlBind)) // no inclusion state before a milestone judged it
	DeletePendingTag = def(tags, "tags.delete_pending",
		"remove a message's pending tag row once its milestone arrived",
		tags.DeleteBuilder())
	TagMessages = def(tags, "tags.by_partition",
		"list messages with a tag in one ms_range_id partition, newest first (seed select 1)",
		tags.SelectBuilder(tagMessage...))
	TagMessagesTime = def(tags, "tags.by_partition_time",
		"list messages with a tag in one partition within [from, to) (seed select 2)",
		tags.SelectBuilder(tagMessage...).Where(qb.GtOrEq("ms_timestamp"), qb.Lt("ms_timestamp")))
)

// Parents (seed: Parents).
var (
	InsertUnreferencedChild = def(parents, "parents.insert_unreferenced",
		"link an unreferenced message to a parent (seed insert 1)",
		insert(parents, "parent_id", "message_id", "est_milestone_index", "ms_timestamp"))
	InsertChild = def(parents, "parents.insert", "link a referenced message to a parent (seed insert 2)",
		insert(parents, "parent_id", "message_id", "milestone_index", "ms_timestamp", "inclusion_state"))
	Children = def(parentsByMs, "parents_by_ms.by_parent", "list a message's children, newest first (seed select 1)",
		parentsByMs.SelectBuilder(columnsOf(parentsByMs)[1:]...))
	ChildrenTime = def(parentsByMs, "parents_by_ms.by_parent_time",
		"list a message's children within [from, to) (seed select 2)",
		parentsByMs.SelectBuilder(columnsOf(parentsByMs)[1:]...).Where(qb.GtOrEq("ms_timestamp"), qb.Lt("ms_timestamp")))
	DeleteChildren = provisional(parents, "parents.delete_by_parent",
		"drop every child link of a parent (seed delete; pruning)",
		qb.Delete(parents.Name()).Where(qb.Eq("parent_id")))
)

// Sync (seed: Sync).
var (
	InsertSync = serverTimestamp(def(syncRows, "sync.insert",
		"mark a milestone as fully written (written last; the coordinator's clock stamps it)", syncRows.InsertBuilder()))
	SyncAll = provisional(syncRows, "sync.all",
		"list every synced milestone (seed select 1: a full scan; readers page per range instead)",
		qb.Select(syncRows.Name()).Columns(columnsOf(syncRows)[1:]...))
	SyncRange = def(syncRows, "sync.by_range",
		"list synced milestones of one ms_range_id within [start, end) (seed select 2)",
		syncRows.SelectBuilder(columnsOf(syncRows)[1:]...).Where(qb.GtOrEq("milestone_index"), qb.Lt("milestone_index")))
)

// Sync partitions and their newest rows: how `indexer status` and GET /sync find the
// synced span without the seed's full-table scan of rows.
var (
	SyncPartitions = def(syncRows, "sync.partitions",
		"list the ms_range_id partitions that hold sync rows (one entry per partition)",
		qb.Select(syncRows.Name()).Distinct("ms_range_id"))
	SyncNewest = def(syncRows, "sync.newest_in_range", "newest synced milestone of one ms_range_id",
		syncRows.SelectBuilder("milestone_index").Limit(1))
	SyncOldest = def(syncRows, "sync.oldest_in_range", "oldest synced milestone of one ms_range_id",
		syncRows.SelectBuilder("milestone_index").OrderBy("milestone_index", qb.ASC).Limit(1))
)

// SyncWriteTime reads when a sync row was written: a re-sync deletes it with the
// timestamp just above, whatever the clock of the host that asks.
var SyncWriteTime = def(syncRows, "sync.write_time", "the write timestamp of one milestone's sync row (re-sync)",
	qb.Select(syncRows.Name()).Columns("WRITETIME(synced_by)").Where(syncRows.PrimaryKeyCmp()...))

// DeleteSync forgets that a milestone was written, so the next run rewrites it
// (operators re-syncing a range; tests making a gap).
var DeleteSync = def(syncRows, "sync.delete", "mark a milestone as not written (re-sync)", syncRows.DeleteBuilder())
