package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Partition hints (seed: Partition Hints).
var (
	InsertTagHint = def(tagHints, "tag_hints.insert",
		"record that a tag has rows of a kind in an ms_range_id partition", tagHints.InsertBuilder())
	TagHints = provisional(tagHints, "tag_hints.by_tag",
		"list every partition holding a tag, any kind (seed select 1)",
		tagHints.SelectBuilder("table_kind", "ms_range_id"))
	TagHintsByKind = def(tagHints, "tag_hints.by_tag_kind",
		"list the partitions holding a tag in one table, newest first (seed select 2)",
		from(tagHints, "tag", "table_kind").Columns("ms_range_id"))
	InsertAddressHint = def(addressesHints, "addresses_hints.insert",
		"record that an address has outputs of a kind, in a role, in an ms_range_id partition",
		addressesHints.InsertBuilder())
	AddressHintsIn = def(addressesHints, "addresses_hints.by_address_kinds",
		"list partitions for an address over several kinds and roles (seed select)",
		addressesHints.SelectBuilder("output_kind", "variant", "ms_range_id").
			Where(qb.In("output_kind"), qb.In("variant")))
	AddressHints = def(addressesHints, "addresses_hints.by_address_kind_variant",
		"list the partitions holding an address in one kind and role, newest first",
		from(addressesHints, "address", "output_kind", "variant").Columns("ms_range_id"))
)
