package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Partition hints (seed: Partition Hints).
var (
	InsertTagHint = define(tagHints, Statement{Name: "tag_hints.insert", InUse: true,
		Pattern: "record that a tag has rows of a kind in an ms_range_id partition"}, tagHints.InsertBuilder())
	TagHints = define(tagHints, Statement{Name: "tag_hints.by_tag", InUse: false,
		Pattern: "list every partition holding a tag, any kind (seed select 1)"},
		tagHints.SelectBuilder("table_kind", "ms_range_id"))
	TagHintsByKind = define(tagHints, Statement{Name: "tag_hints.by_tag_kind", InUse: true,
		Pattern: "list the partitions holding a tag in one table, newest first (seed select 2)"},
		from(tagHints, "tag", "table_kind").Columns("ms_range_id"))
	InsertAddressHint = define(addressesHints, Statement{Name: "addresses_hints.insert", InUse: true,
		Pattern: "record that an address has outputs of a kind, in a role, in an ms_range_id partition"},
		addressesHints.InsertBuilder())
	AddressHintsIn = define(addressesHints, Statement{Name: "addresses_hints.by_address_kinds", InUse: false,
		Pattern: "list partitions for an address over several kinds and roles (seed select)"},
		addressesHints.SelectBuilder("output_kind", "variant", "ms_range_id").
			Where(qb.In("output_kind"), qb.In("variant")))
	AddressHints = define(addressesHints, Statement{Name: "addresses_hints.by_address_kind_variant", InUse: true,
		Pattern: "list the partitions holding an address in one kind and role, newest first"},
		from(addressesHints, "address", "output_kind", "variant").Columns("ms_range_id"))
)
