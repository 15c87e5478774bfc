package cql

// Columns of messages rows, in the order the statements below bind or return them.
var (
	messageMeta = []string{"message_id", "variant", "parents", "is_solid", "milestone_index", "inclusion_state",
		"should_promote", "should_reattach", "conflict_reason", "white_flag_index", "est_milestone_index", "seen_at"}
	messageOwn          = []string{"message_id", "version", "message", "variant", "parents"}
	unreferencedMessage = join(messageOwn, []string{"est_milestone_index", "seen_at"})
	referencedMessage   = join(messageOwn, []string{"milestone_index", "white_flag_index", "inclusion_state", "conflict_reason"})
	messagePending      = []string{"est_milestone_index", "seen_at"}
	messageFull         = join(messageMeta, []string{"version", "message", "proof"})
)

// Messages (seed: Messages).
var (
	InsertUnreferencedMessage = insert(Statement{Name: "messages.insert_unreferenced", Table: "messages", InUse: true,
		Pattern: "store a message seen but not yet referenced, with its estimated milestone"}, unreferencedMessage, "")
	InsertReferencedMessage = define(Statement{Name: "messages.insert_referenced", Table: "messages", Kind: Insert, InUse: true,
		Pattern: "store a message referenced by a milestone with its metadata (replaces the unreferenced row's fields)",
		Columns: referencedMessage,
		CQL: `INSERT INTO messages (` + list(referencedMessage) + `, is_solid, should_promote, should_reattach)
			VALUES (` + marks(referencedMessage) + `, true, false, false)`})
	MessageRaw = define(Statement{Name: "messages.raw_by_id", Table: "messages", Kind: Select, InUse: true,
		Pattern: "get a message's raw bytes by message ID (seed select 1)",
		CQL:     `SELECT message FROM messages WHERE message_id = ?`})
	MessageMetadata = query(Statement{Name: "messages.metadata_by_id", Table: "messages", InUse: true,
		Pattern: "get a message's metadata by message ID (seed select 2)"}, messageMeta, "message_id = ?")
	MessagePending = query(Statement{Name: "messages.pending_mark", Table: "messages", InUse: true,
		Pattern: "was this message written as unreferenced (estimated milestone, time seen)?"}, messagePending, "message_id = ?")
	MessageFull = query(Statement{Name: "messages.full_by_id", Table: "messages", InUse: true,
		Pattern: "get a message with bytes and metadata by message ID (seed select 3, SELECT * with named columns)"},
		messageFull, "message_id = ?")
)

// Messages by milestone (replaces the seed's secondary index messages_by_milestone).
var (
	InsertMessageByMilestone = define(Statement{Name: "messages_by_milestone.insert", Table: "messages_by_milestone", Kind: Insert, InUse: true,
		Pattern: "record that a milestone referenced a message, in white-flag order",
		CQL:     `INSERT INTO messages_by_milestone (milestone_index, white_flag_index, message_id) VALUES (?, ?, ?)`})
	MessagesByMilestone = define(Statement{Name: "messages_by_milestone.by_milestone", Table: "messages_by_milestone", Kind: Select, InUse: true,
		Pattern: "list the messages a milestone referenced, in white-flag order",
		CQL:     `SELECT white_flag_index, message_id FROM messages_by_milestone WHERE milestone_index = ?`})
)

// Milestones (seed: Milestones).
var (
	InsertMilestone = define(Statement{Name: "milestones.insert", Table: "milestones", Kind: Insert, InUse: true,
		Pattern: "store a confirmed milestone (its message ID follows with the next milestone)",
		CQL: `INSERT INTO milestones (milestone_index, milestone_id, timestamp, payload)
			VALUES (?, ?, ?, ?)`})
	SetMilestoneMessage = define(Statement{Name: "milestones.set_message", Table: "milestones", Kind: Update, InUse: true,
		Pattern: "record the message carrying a milestone, found in the next milestone's cone",
		CQL:     `UPDATE milestones SET message_id = ? WHERE milestone_index = ?`})
	MilestoneByIndex = define(Statement{Name: "milestones.by_index", Table: "milestones", Kind: Select, InUse: true,
		Pattern: "get a milestone's message ID and timestamp by index (seed select), with its ID and payload",
		CQL:     `SELECT message_id, milestone_id, timestamp, payload FROM milestones WHERE milestone_index = ?`})
	AllMilestones = define(Statement{Name: "milestones.all", Table: "milestones", Kind: Select, InUse: true,
		Pattern: "read every milestone's list columns once, to fill milestones_by_bucket in a keyspace indexed before it",
		CQL:     `SELECT milestone_index, message_id, milestone_id, timestamp FROM milestones`})
)

// Milestones by bucket of 1000 (migration 000010, docs/schema.md D24): the lists of
// milestones, newest first, without a read per milestone.
var (
	InsertMilestoneInBucket = define(Statement{Name: "milestones_by_bucket.insert", Table: "milestones_by_bucket",
		Kind: Insert, InUse: true, Pattern: "list a confirmed milestone in its bucket (its message ID follows with the next milestone)",
		CQL: `INSERT INTO milestones_by_bucket (bucket, milestone_index, milestone_id, timestamp) VALUES (?, ?, ?, ?)`})
	SetMilestoneMessageInBucket = define(Statement{Name: "milestones_by_bucket.set_message", Table: "milestones_by_bucket",
		Kind: Update, InUse: true, Pattern: "record the message carrying a listed milestone, found in the next milestone's cone",
		CQL: `UPDATE milestones_by_bucket SET message_id = ? WHERE bucket = ? AND milestone_index = ?`})
	MilestonesInBucket = define(Statement{Name: "milestones_by_bucket.range", Table: "milestones_by_bucket",
		Kind: Select, InUse: true, Pattern: "list the milestones of one bucket within [start, end], newest first",
		CQL: `SELECT milestone_index, message_id, milestone_id, timestamp FROM milestones_by_bucket
			WHERE bucket = ? AND milestone_index >= ? AND milestone_index <= ?`})
)
