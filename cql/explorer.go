package cql

// Reads of the explorer routes (/api/explorer/v2) beyond the ledger-state statements.

// MessagesByMilestoneDesc lists a milestone's messages in reverse white-flag order (the
// explorer's sort=newest).
var MessagesByMilestoneDesc = define(Statement{Name: "messages_by_milestone.by_milestone_desc",
	Table: "messages_by_milestone", Kind: Select, InUse: true,
	Pattern: "list the messages a milestone referenced, in reverse white-flag order",
	CQL: `SELECT white_flag_index, message_id FROM messages_by_milestone WHERE milestone_index = ?
			ORDER BY white_flag_index DESC`})
