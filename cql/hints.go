package cql

// Partition hints (seed: Partition Hints).
var (
	InsertTagHint = define(Statement{Name: "tag_hints.insert", Table: "tag_hints", Kind: Insert, InUse: true,
		Pattern: "record that a tag has rows of a kind in an ms_range_id partition",
		CQL:     `INSERT INTO tag_hints (tag, table_kind, ms_range_id) VALUES (?, ?, ?)`})
	TagHints = define(Statement{Name: "tag_hints.by_tag", Table: "tag_hints", Kind: Select, InUse: false,
		Pattern: "list every partition holding a tag, any kind (seed select 1)",
		CQL:     `SELECT table_kind, ms_range_id FROM tag_hints WHERE tag = ?`})
	TagHintsByKind = define(Statement{Name: "tag_hints.by_tag_kind", Table: "tag_hints", Kind: Select, InUse: true,
		Pattern: "list the partitions holding a tag in one table, newest first (seed select 2)",
		CQL:     `SELECT ms_range_id FROM tag_hints WHERE tag = ? AND table_kind = ?`})
	InsertAddressHint = define(Statement{Name: "addresses_hints.insert", Table: "addresses_hints", Kind: Insert, InUse: true,
		Pattern: "record that an address has outputs of a kind, in a role, in an ms_range_id partition",
		CQL:     `INSERT INTO addresses_hints (address, output_kind, variant, ms_range_id) VALUES (?, ?, ?, ?)`})
	AddressHintsIn = define(Statement{Name: "addresses_hints.by_address_kinds", Table: "addresses_hints", Kind: Select, InUse: false,
		Pattern: "list partitions for an address over several kinds and roles (seed select)",
		CQL: `SELECT output_kind, variant, ms_range_id FROM addresses_hints
			WHERE address = ? AND output_kind IN ? AND variant IN ?`})
	AddressHints = define(Statement{Name: "addresses_hints.by_address_kind_variant", Table: "addresses_hints", Kind: Select, InUse: true,
		Pattern: "list the partitions holding an address in one kind and role, newest first",
		CQL:     `SELECT ms_range_id FROM addresses_hints WHERE address = ? AND output_kind = ? AND variant = ?`})
)
