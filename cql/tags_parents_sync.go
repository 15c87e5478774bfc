package cql

// Tags (seed: Tags).
var (
	InsertTag = define(Statement{Name: "tags.insert", Table: "tags", Kind: Insert, InUse: true,
		Pattern: "index a referenced message by its tag",
		CQL: `INSERT INTO tags (tag, ms_range_id, milestone_index, ms_timestamp, message_id, inclusion_state)
			VALUES (?, ?, ?, ?, ?, ?)`})
	InsertPendingTag = define(Statement{Name: "tags.insert_pending", Table: "tags", Kind: Insert, InUse: true,
		Pattern: "index an unreferenced message by its tag in the pending partition, expiring",
		CQL: `INSERT INTO tags (tag, ms_range_id, milestone_index, ms_timestamp, message_id)
			VALUES (?, ?, ?, ?, ?) USING TTL ?`})
	DeletePendingTag = define(Statement{Name: "tags.delete_pending", Table: "tags", Kind: Delete, InUse: true,
		Pattern: "remove a message's pending tag row once its milestone arrived",
		CQL: `DELETE FROM tags WHERE tag = ? AND ms_range_id = ? AND ms_timestamp = ? AND milestone_index = ?
			AND message_id = ?`})
	TagMessages = define(Statement{Name: "tags.by_partition", Table: "tags", Kind: Select, InUse: true,
		Pattern: "list messages with a tag in one ms_range_id partition, newest first (seed select 1)",
		CQL: `SELECT milestone_index, ms_timestamp, message_id, inclusion_state FROM tags
			WHERE tag = ? AND ms_range_id = ?`})
	TagMessagesTime = define(Statement{Name: "tags.by_partition_time", Table: "tags", Kind: Select, InUse: true,
		Pattern: "list messages with a tag in one partition within [from, to) (seed select 2)",
		CQL: `SELECT milestone_index, ms_timestamp, message_id, inclusion_state FROM tags
			WHERE tag = ? AND ms_range_id = ? AND ms_timestamp >= ? AND ms_timestamp < ?`})
)

// Parents (seed: Parents).
var (
	InsertUnreferencedChild = define(Statement{Name: "parents.insert_unreferenced", Table: "parents", Kind: Insert, InUse: true,
		Pattern: "link an unreferenced message to a parent (seed insert 1)",
		CQL: `INSERT INTO parents (parent_id, message_id, est_milestone_index, ms_timestamp)
			VALUES (?, ?, ?, ?)`})
	InsertChild = define(Statement{Name: "parents.insert", Table: "parents", Kind: Insert, InUse: true,
		Pattern: "link a referenced message to a parent (seed insert 2)",
		CQL: `INSERT INTO parents (parent_id, message_id, milestone_index, ms_timestamp, inclusion_state)
			VALUES (?, ?, ?, ?, ?)`})
	Children = define(Statement{Name: "parents_by_ms.by_parent", Table: "parents_by_ms", Kind: Select, InUse: true,
		Pattern: "list a message's children, newest first (seed select 1)",
		CQL: `SELECT milestone_index, est_milestone_index, ms_timestamp, message_id, inclusion_state FROM parents_by_ms
			WHERE parent_id = ?`})
	ChildrenTime = define(Statement{Name: "parents_by_ms.by_parent_time", Table: "parents_by_ms", Kind: Select, InUse: true,
		Pattern: "list a message's children within [from, to) (seed select 2)",
		CQL: `SELECT milestone_index, est_milestone_index, ms_timestamp, message_id, inclusion_state FROM parents_by_ms
			WHERE parent_id = ? AND ms_timestamp >= ? AND ms_timestamp < ?`})
	DeleteChildren = define(Statement{Name: "parents.delete_by_parent", Table: "parents", Kind: Delete, InUse: false,
		Pattern: "drop every child link of a parent (seed delete; pruning)",
		CQL:     `DELETE FROM parents WHERE parent_id = ?`})
)

// Sync (seed: Sync).
var (
	InsertSync = define(Statement{Name: "sync.insert", Table: "sync", Kind: Insert, InUse: true,
		Pattern: "mark a milestone as fully written (written last)",
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

// DeleteSync forgets that a milestone was written, so the next run rewrites it
// (operators re-syncing a range; tests making a gap).
var DeleteSync = define(Statement{Name: "sync.delete", Table: "sync", Kind: Delete, InUse: true,
	Pattern: "mark a milestone as not written (re-sync)",
	CQL:     `DELETE FROM sync WHERE ms_range_id = ? AND milestone_index = ?`})
