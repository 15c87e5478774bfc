package cql

// Per-concern metadata rows and leases (seed 004's pattern: one row per concern, updates
// that only move a watermark forward, conditional writes). These are lightweight
// transactions: never retried blindly, never given a client timestamp.
var (
	InitMeta = lwt(Statement{Name: "indexer_meta.init", Table: "indexer_meta", Kind: Insert, InUse: true,
		Pattern: "create a concern's row once (e.g. chunk_size); returns the existing row otherwise",
		CQL: `INSERT INTO indexer_meta (concern, value, watermark, updated_by, updated_at)
			VALUES (?, ?, ?, ?, toTimestamp(now())) IF NOT EXISTS`})
	Meta = define(Statement{Name: "indexer_meta.by_concern", Table: "indexer_meta", Kind: Select, InUse: true,
		Pattern: "read one concern's value and watermark",
		CQL:     `SELECT value, watermark, updated_by FROM indexer_meta WHERE concern = ?`})
	AdvanceMeta = lwt(Statement{Name: "indexer_meta.advance", Table: "indexer_meta", Kind: Update, InUse: true,
		Pattern: "move a concern's watermark forward only (a newer value never loses to an older write)",
		CQL: `UPDATE indexer_meta SET watermark = ?, value = ?, updated_by = ?, updated_at = toTimestamp(now())
			WHERE concern = ? IF watermark < ?`})
	AcquireLease = lwt(Statement{Name: "leases.acquire", Table: "leases", Kind: Insert, InUse: true,
		Pattern: "take a lease if nobody holds it; it expires with its TTL",
		CQL:     `INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?) IF NOT EXISTS USING TTL ?`})
	RenewLease = lwt(Statement{Name: "leases.renew", Table: "leases", Kind: Update, InUse: true,
		Pattern: "extend a lease this owner holds",
		CQL:     `UPDATE leases USING TTL ? SET owner = ?, expires_at = ? WHERE name = ? IF owner = ?`})
	ReleaseLease = lwt(Statement{Name: "leases.release", Table: "leases", Kind: Delete, InUse: true,
		Pattern: "give a lease back",
		CQL:     `DELETE FROM leases WHERE name = ? IF owner = ?`})
	Lease = define(Statement{Name: "leases.by_name", Table: "leases", Kind: Select, InUse: true,
		Pattern: "see who holds a lease",
		CQL:     `SELECT owner, expires_at FROM leases WHERE name = ?`})
)

// Ping is the readiness probe: one cheap read from the coordinator.
var Ping = define(Statement{Name: "system.ping", Table: "system.local", Kind: Select, InUse: true,
	Pattern: "is the cluster reachable? (readiness)",
	CQL:     `SELECT release_version FROM system.local`})

// The sync summary (store/sync_summary.go): one indexer_meta row whose value is the synced
// ranges and whose watermark is a version, replaced only by a writer that read the
// version it replaces (compare-and-set), so the flushes of several nodes and of a resync
// never overwrite one another.
var SwapMeta = lwt(Statement{Name: "indexer_meta.swap", Table: "indexer_meta", Kind: Update, InUse: true,
	Pattern: "replace a concern's value if its version is still the one read (compare-and-set)",
	CQL: `UPDATE indexer_meta SET watermark = ?, value = ?, updated_by = ?, updated_at = toTimestamp(now())
			WHERE concern = ? IF watermark = ?`})

// The pending floor (store/pending.go): the lowest estimated milestone any unreferenced
// message was written for, moved down only.
var LowerMeta = lwt(Statement{Name: "indexer_meta.lower", Table: "indexer_meta", Kind: Update, InUse: true,
	Pattern: "move a concern's watermark back only (an older value never loses to a newer write)",
	CQL: `UPDATE indexer_meta SET watermark = ?, value = ?, updated_by = ?, updated_at = toTimestamp(now())
			WHERE concern = ? IF watermark > ?`})
