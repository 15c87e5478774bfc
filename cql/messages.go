package cql

import "github.com/scylladb/gocqlx/v2/qb"

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
	InsertUnreferencedMessage = insert(messages, Statement{Name: "messages.insert_unreferenced", InUse: true,
		Pattern: "store a message seen but not yet referenced, with its estimated milestone"}, unreferencedMessage)
	InsertReferencedMessage = define(messages, Statement{Name: "messages.insert_referenced", InUse: true,
		Pattern: "store a message referenced by a milestone with its metadata (replaces the unreferenced row's fields)",
		Columns: referencedMessage},
		qb.Insert(messages.Name()).Columns(referencedMessage...).
			LitColumn("is_solid", "true").LitColumn("should_promote", "false").LitColumn("should_reattach", "false"))
	MessageRaw = define(messages, Statement{Name: "messages.raw_by_id", InUse: true,
		Pattern: "get a message's raw bytes by message ID (seed select 1)"}, messages.SelectBuilder("message"))
	MessageMetadata = query(messages, Statement{Name: "messages.metadata_by_id", InUse: true,
		Pattern: "get a message's metadata by message ID (seed select 2)"}, messageMeta, messages.SelectBuilder())
	MessagePending = query(messages, Statement{Name: "messages.pending_mark", InUse: true,
		Pattern: "was this message written as unreferenced (estimated milestone, time seen)?"}, messagePending,
		messages.SelectBuilder())
	MessageFull = query(messages, Statement{Name: "messages.full_by_id", InUse: true,
		Pattern: "get a message with bytes and metadata by message ID (seed select 3, SELECT * with named columns)"},
		messageFull, messages.SelectBuilder())
)

// Messages by milestone (replaces the seed's secondary index messages_by_milestone).
var (
	InsertMessageByMilestone = define(messagesByMilestone, Statement{Name: "messages_by_milestone.insert", InUse: true,
		Pattern: "record that a milestone referenced a message, in white-flag order"},
		messagesByMilestone.InsertBuilder())
	MessagesByMilestone = define(messagesByMilestone, Statement{Name: "messages_by_milestone.by_milestone", InUse: true,
		Pattern: "list the messages a milestone referenced, in white-flag order"},
		messagesByMilestone.SelectBuilder("white_flag_index", "message_id"))
)

// Milestones (seed: Milestones).
var (
	InsertMilestone = define(milestones, Statement{Name: "milestones.insert", InUse: true,
		Pattern: "store a confirmed milestone (its message ID follows with the next milestone)"},
		qb.Insert(milestones.Name()).Columns("milestone_index", "milestone_id", "timestamp", "payload"))
	SetMilestoneMessage = define(milestones, Statement{Name: "milestones.set_message", InUse: true,
		Pattern: "record the message carrying a milestone, found in the next milestone's cone"},
		milestones.UpdateBuilder("message_id"))
	MilestoneByIndex = define(milestones, Statement{Name: "milestones.by_index", InUse: true,
		Pattern: "get a milestone's message ID and timestamp by index (seed select), with its ID and payload"},
		milestones.SelectBuilder("message_id", "milestone_id", "timestamp", "payload"))
	AllMilestones = define(milestones, Statement{Name: "milestones.all", InUse: true,
		Pattern: "read every milestone's list columns once, to fill milestones_by_bucket in a keyspace indexed before it"},
		qb.Select(milestones.Name()).Columns("milestone_index", "message_id", "milestone_id", "timestamp"))
)

// Milestones by bucket of 1000 (migration 000010, docs/schema.md D24): the lists of
// milestones, newest first, without a read per milestone.
var (
	InsertMilestoneInBucket = define(milestonesByBucket, Statement{Name: "milestones_by_bucket.insert", InUse: true,
		Pattern: "list a confirmed milestone in its bucket (its message ID follows with the next milestone)"},
		qb.Insert(milestonesByBucket.Name()).Columns("bucket", "milestone_index", "milestone_id", "timestamp"))
	SetMilestoneMessageInBucket = define(milestonesByBucket, Statement{Name: "milestones_by_bucket.set_message",
		InUse: true, Pattern: "record the message carrying a listed milestone, found in the next milestone's cone"},
		milestonesByBucket.UpdateBuilder("message_id"))
	MilestonesInBucket = define(milestonesByBucket, Statement{Name: "milestones_by_bucket.range", InUse: true,
		Pattern: "list the milestones of one bucket within [start, end], newest first"},
		milestonesByBucket.SelectBuilder("milestone_index", "message_id", "milestone_id", "timestamp").
			Where(qb.GtOrEq("milestone_index"), qb.LtOrEq("milestone_index")))
)
