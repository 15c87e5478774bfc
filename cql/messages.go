package cql

import "github.com/scylladb/gocqlx/v2/qb"

// messageOwn are the columns of a message's own: what both of its writes bind first.
var messageOwn = []string{"message_id", "version", "message", "variant", "parents"}

// Messages (seed: Messages).
var (
	InsertUnreferencedMessage = def(messages, "messages.insert_unreferenced",
		"store a message seen but not yet referenced, with its estimated milestone",
		insert(messages, join(messageOwn, keys("est_milestone_index", "seen_at"))...))
	InsertReferencedMessage = def(messages, "messages.insert_referenced",
		"store a message referenced by a milestone with its metadata (replaces the unreferenced row's fields)",
		insert(messages, join(messageOwn, keys("milestone_index", "white_flag_index", "inclusion_state",
			"conflict_reason"))...).
			LitColumn("is_solid", "true").LitColumn("should_promote", "false").LitColumn("should_reattach", "false"))
	MessageRaw = def(messages, "messages.raw_by_id", "get a message's raw bytes by message ID (seed select 1)",
		messages.SelectBuilder("message"))
	MessageMetadata = def(messages, "messages.metadata_by_id",
		"get a message's metadata by message ID (seed select 2)",
		messages.SelectBuilder(without(columnsOf(messages), keys("version", "message", "proof"))...))
	MessagePending = def(messages, "messages.pending_mark",
		"was this message written as unreferenced (estimated milestone, time seen)?",
		messages.SelectBuilder("est_milestone_index", "seen_at"))
	MessageFull = def(messages, "messages.full_by_id",
		"get a message with bytes and metadata by message ID (seed select 3, SELECT * with named columns)",
		messages.SelectBuilder(columnsOf(messages)...))
)

// Messages by milestone (replaces the seed's secondary index messages_by_milestone).
var (
	InsertMessageByMilestone = def(messagesByMilestone, "messages_by_milestone.insert",
		"record that a milestone referenced a message, in white-flag order", messagesByMilestone.InsertBuilder())
	MessagesByMilestone = def(messagesByMilestone, "messages_by_milestone.by_milestone",
		"list the messages a milestone referenced, in white-flag order",
		messagesByMilestone.SelectBuilder("white_flag_index", "message_id"))
)

// Milestones (seed: Milestones).
var (
	InsertMilestone = def(milestones, "milestones.insert",
		"store a confirmed milestone (its message ID follows with the next milestone)",
		qb.Insert(milestones.Name()).Columns("milestone_index", "milestone_id", "timestamp", "payload"))
	SetMilestoneMessage = def(milestones, "milestones.set_message",
		"record the message carrying a milestone, found in the next milestone's cone",
		milestones.UpdateBuilder("message_id"))
	MilestoneByIndex = def(milestones, "milestones.by_index",
		"get a milestone's message ID and timestamp by index (seed select), with its ID and payload",
		milestones.SelectBuilder("message_id", "milestone_id", "timestamp", "payload"))
	AllMilestones = def(milestones, "milestones.all",
		"read every milestone's list columns once, to fill milestones_by_bucket in a keyspace indexed before it",
		qb.Select(milestones.Name()).Columns("milestone_index", "message_id", "milestone_id", "timestamp"))
)

// Milestones by bucket of 1000 (migration 000010, docs/schema.md D24): the lists of
// milestones, newest first, without a read per milestone.
var (
	InsertMilestoneInBucket = def(milestonesByBucket, "milestones_by_bucket.insert",
		"list a confirmed milestone in its bucket (its message ID follows with the next milestone)",
		qb.Insert(milestonesByBucket.Name()).Columns("bucket", "milestone_index", "milestone_id", "timestamp"))
	SetMilestoneMessageInBucket = def(milestonesByBucket, "milestones_by_bucket.set_message",
		"record the message carrying a listed milestone, found in the next milestone's cone",
		milestonesByBucket.UpdateBuilder("message_id"))
	MilestonesInBucket = def(milestonesByBucket, "milestones_by_bucket.range",
		"list the milestones of one bucket within [start, end], newest first",
		milestonesByBucket.SelectBuilder("milestone_index", "message_id", "milestone_id", "timestamp").
			Where(qb.GtOrEq("milestone_index"), qb.LtOrEq("milestone_index")))
)
