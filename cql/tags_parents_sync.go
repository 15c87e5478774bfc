package cql

// Columns of tags rows, in the order the statements below bind or return them.
var (
	tagRow        = []string{"tag", "ms_range_id", "milestone_index", "ms_timestamp", "message_id", "inclusion_state"}
	pendingTagRow = tagRow[:5:5] // no inclusion state before a milestone judged it
	pendingTagKey = []string{"tag", "ms_range_id", "ms_timestamp", "milestone_index", "message_id"}
	tagMessages   = join(tagRow[2:])
)

// Tags (seed: Tags).
var (
	InsertTag = insert(Statement{Name: "tags.insert", Table: "tags", InUse: true,
		Pattern: "index a referenced message by its tag"}, tagRow, "")
	InsertPendingTag = insert(Statement{Name: "tags.insert_pending", Table: "tags", InUse: true,
		Pattern: "index an unreferenced message by its tag in the pending partition, expiring"}, pendingTagRow, " USING TTL ?")
	DeletePendingTag = remove(Statement{Name: "tags.delete_pending", Table: "tags", InUse: true,
		Pattern: "remove a message's pending tag row once its milestone arrived"}, pendingTagKey)
	TagMessages = query(Statement{Name: "tags.by_partition", Table: "tags", InUse: true,
		Pattern: "list messages with a tag in one ms_range_id partition, newest first (seed select 1)"},
		tagMessages, "tag = ? AND ms_range_id = ?")
	TagMessagesTime = query(Statement{Name: "tags.by_partition_time", Table: "tags", InUse: true,
		Pattern: "list messages with a tag in one partition within [from, to) (seed select 2)"},
		tagMessages, "tag = ? AND ms_range_id = ? AND ms_timestamp >= ? AND ms_timestamp < ?")
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
	InsertUnreferencedChild = insert(Statement{Name: "parents.insert_unreferenced", Table: "parents", InUse: true,
		Pattern: "link an unreferenced message to a parent (seed insert 1)"}, unreferencedChild, "")
	InsertChild = insert(Statement{Name: "parents.insert", Table: "parents", InUse: true,
		Pattern: "link a referenced message to a parent (seed insert 2)"}, referencedChild, "")
	Children = query(Statement{Name: "parents_by_ms.by_parent", Table: "parents_by_ms", InUse: true,
		Pattern: "list a message's children, newest first (seed select 1)"}, children, "parent_id = ?")
	ChildrenTime = query(Statement{Name: "parents_by_ms.by_parent_time", Table: "parents_by_ms", InUse: true,
		Pattern: "list a message's children within [from, to) (seed select 2)"},
		children, "parent_id = ? AND ms_timestamp >= ? AND ms_timestamp < ?")
	DeleteChildren = define(Statement{Name: "parents.delete_by_parent", Table: "parents", Kind: Delete, InUse: false,
		Pattern: "drop every child link of a parent (seed delete; pruning)",
		CQL:     `DELETE FROM parents WHERE parent_id = ?`})
)

// Sync (seed: Sync).
var (
	InsertSync = define(Statement{Name: "sync.insert", Table: "sync", Kind: Insert, InUse: true, ServerTimestamp: true,
		Pattern: "mark a milestone as fully written (written last; the coordinator's clock stamps it)",
		CQL:     `INSERT INTO sync (ms_range_id, milestone_index, synced_by, logged_by) VALUES (?, ?, ?, ?)`})
	SyncAll = define(Statement{Name: "sync.all", Table: "sync", Kind: Select, InUse: false,
		Pattern: "list every synced milestone (seed select 1: a full scan; readers page per range instead)",
		CQL:     `SELECT milestone_index, synced_by, logged_by FROM sync`})
	SyncRange = define(Statement{Name: "sync.by_range", Table: "sync", Kind: Select, InUse: true,
		Pattern: "list synced milestones of one ms_range_id within [start, end) (seed select 2)",
		CQL: `SELECT milestone_index, synced_by, logged_by FROM sync
			WHERE ms_range_id = ? AND milestone_index >= ? AND milestone_index < ?`})
)

// Sync partitions and their newest rows: how `indexer status` and GET /sync find the
// synced span without the seed's full-table scan of rows.
var (
	SyncPartitions = define(Statement{Name: "sync.partitions", Table: "sync", Kind: Select, InUse: true,
		Pattern: "list the ms_range_id partitions that hold sync rows (one entry per partition)",
		CQL:     `SELECT DISTINCT ms_range_id FROM sync`})
	SyncNewest = define(Statement{Name: "sync.newest_in_range", Table: "sync", Kind: Select, InUse: true,
		Pattern: "newest synced milestone of one ms_range_id",
		CQL:     `SELECT milestone_index FROM sync WHERE ms_range_id = ? LIMIT 1`})
	SyncOldest = define(Statement{Name: "sync.oldest_in_range", Table: "sync", Kind: Select, InUse: true,
		Pattern: "oldest synced milestone of one ms_range_id",
		CQL:     `SELECT milestone_index FROM sync WHERE ms_range_id = ? ORDER BY milestone_index ASC LIMIT 1`})
)

// SyncWriteTime reads when a sync row was written: a re-sync deletes it with the
// timestamp just above, whatever the clock of the host that asks.
var SyncWriteTime = define(Statement{Name: "sync.write_time", Table: "sync", Kind: Select, InUse: true,
	Pattern: "the write timestamp of one milestone's sync row (re-sync)",
	CQL:     `SELECT WRITETIME(synced_by) FROM sync WHERE ms_range_id = ? AND milestone_index = ?`})

// DeleteSync forgets that a milestone was written, so the next run rewrites it
// (operators re-syncing a range; tests making a gap).
var DeleteSync = define(Statement{Name: "sync.delete", Table: "sync", Kind: Delete, InUse: true,
	Pattern: "mark a milestone as not written (re-sync)",
	CQL:     `DELETE FROM sync WHERE ms_range_id = ? AND milestone_index = ?`})
