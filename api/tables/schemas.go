package tables

import "github.com/stardust-indexer/stardust-indexer/api/rest"

// Schemas are the component schemas of the answers of the schema's reads, at the level a
// client needs to read them (the JSON structs of this package are authoritative for
// every field).
func Schemas() rest.Object {
	str, integer, boolean, obj := rest.Object{"type": "string"}, rest.Object{"type": "integer"}, rest.Object{"type": "boolean"},
		rest.Object{"type": "object"}
	state := []any{"referenced", boolean, "milestoneIndex", integer, "estimatedMilestoneIndex", integer,
		"ledgerInclusionState", rest.Object{"type": "string", "enum": []string{"noTransaction", "conflicting", "included"}}}
	withState := func(kv ...any) rest.Object { return rest.Props(append(append([]any{}, state...), kv...)...) }
	rangeList := rest.ArrayOf(rest.Props("from", integer, "to", integer))
	return rest.Object{
		"Message": rest.Props("messageId", str, "protocolVersion", integer, "parents", rest.ArrayOf(str), "payload", obj,
			"nonce", str, "metadata", withState("variant", str, "conflictReason", integer, "whiteFlagIndex", integer)),
		"Transaction": rest.Props("transactionId", str, "messages", rest.ArrayOf(obj), "inputs", rest.ArrayOf(obj),
			"outputs", rest.ArrayOf(obj), "unlocks", rest.ArrayOf(obj)),
		"Milestone": rest.Props("index", integer, "milestoneId", str, "messageId", str, "timestamp", integer,
			"payload", rest.Props("type", integer, "index", integer, "timestamp", integer,
				"protocolVersion", integer, "previousMilestoneId", str, "parents", rest.ArrayOf(str),
				"inclusionMerkleRoot", str, "appliedMerkleRoot", str, "metadata", str, "options", rest.ArrayOf(obj),
				"signatures", rest.ArrayOf(rest.Props("type", integer, "publicKey", str, "signature", str)))),
		"Child":      withState("messageId", str, "timestamp", integer),
		"TagMessage": withState("messageId", str, "timestamp", integer),
		"OutputItem": withState("outputId", str, "aliasId", str, "nftId", str, "foundryId", str, "messageId", str,
			"timestamp", integer, "amount", str, "spent", boolean, "spentBy", str, "output", obj),
		"LegacyOutput": withState("outputId", str, "outputType", integer, "messageId", str, "timestamp", integer,
			"amount", str, "address", str, "spent", boolean, "output", obj),
		"Output": withState("outputId", str, "transactionId", str, "outputIndex", integer, "messageId", str,
			"output", obj, "spent", boolean, "transactionIdSpent", str, "milestoneIndexSpent", integer, "source", str),
		"MilestoneStat": rest.Props("milestoneIndex", integer, "messageCount", integer, "transactionCount", integer,
			"transferredTokens", str),
		"DailyStat": rest.Props("date", rest.Object{"type": "string", "format": "date"}, "totalAddresses", integer,
			"sendAddresses", integer, "recvAddresses", integer),
		"AddressStat":       rest.Props("milestoneIndex", integer, "sentTokens", str, "recvTokens", str),
		"MilestoneStatList": rest.ListOf("MilestoneStat"),
		"DailyStatList":     rest.ListOf("DailyStat"),
		"AddressStatList":   rest.ListOf("AddressStat"),
		"Sync":              rest.Props("chunkSize", integer, "oldest", integer, "newest", integer, "synced", rangeList, "gaps", rangeList, "truncated", boolean, "unavailable", rangeList),
		"ChildPage":         rest.PageOf("Child"),
		"TagMessagePage":    rest.PageOf("TagMessage"),
		"OutputPage":        rest.PageOf("OutputItem"),
		"LegacyOutputPage":  rest.PageOf("LegacyOutput"),
		"MilestonePage":     rest.PageOf("Milestone"),
	}
}
