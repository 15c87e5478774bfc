package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Reads of the explorer routes (/api/explorer/v2) beyond the ledger-state statements.

// MessagesByMilestoneDesc lists a milestone's messages in reverse white-flag order (the
// explorer's sort=newest).
var MessagesByMilestoneDesc = def(messagesByMilestone, "messages_by_milestone.by_milestone_desc",
	"list the messages a milestone referenced, in reverse white-flag order",
	messagesByMilestone.SelectBuilder("white_flag_index", "message_id").OrderBy("white_flag_index", qb.DESC))
