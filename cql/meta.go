package cql

import "github.com/scylladb/gocqlx/v2/qb"

// Per-concern metadata rows and leases (seed 004's pattern: one row per concern, updates
// that only move a watermark forward, conditional writes). These are lightweight
// transactions: never retried blindly, never given a client timestamp.
var (
	InitMeta = lwt(indexerMeta, "indexer_meta.init",
		"create a concern's row once (e.g. chunk_size); returns the existing row otherwise",
		qb.Insert(indexerMeta.Name()).Columns("concern", "value", "watermark", "updated_by").
			LitColumn("updated_at", now).Unique())
	Meta = def(indexerMeta, "indexer_meta.by_concern", "read one concern's value and watermark",
		indexerMeta.SelectBuilder("value", "watermark", "updated_by"))
	AdvanceMeta = lwt(indexerMeta, "indexer_meta.advance",
		"move a concern's watermark forward only (a newer value never loses to an older write)",
		setMeta().If(qb.LtNamed("watermark", "below")))
	AcquireLease = lwt(leases, "leases.acquire", "take a lease if nobody holds it; it expires with its TTL",
		leases.InsertBuilder().Unique().TTLNamed(ttlBind))
	RenewLease = lwt(leases, "leases.renew", "extend a lease this owner holds",
		qb.Update(leases.Name()).TTLNamed(ttlBind).Set("owner", "expires_at").Where(qb.Eq("name")).
			If(qb.EqNamed("owner", "holder")))
	ReleaseLease = lwt(leases, "leases.release", "give a lease back", leases.DeleteBuilder().If(qb.Eq("owner")))
	Lease        = def(leases, "leases.by_name", "see who holds a lease", leases.SelectBuilder("owner", "expires_at"))
)

// now is the coordinator's clock as a timestamp.
const now = "toTimestamp(now())"

// setMeta sets a concern's watermark, value and writer, stamped with the coordinator's
// clock.
func setMeta() *qb.UpdateBuilder {
	return qb.Update(indexerMeta.Name()).Set("watermark", "value", "updated_by").SetLit("updated_at", now).
		Where(qb.Eq("concern"))
}

// Ping is the readiness probe: one cheap read from the coordinator.
var Ping = def(systemLocal, "system.ping", "is the cluster reachable? (readiness)",
	qb.Select(systemLocal.Name()).Columns("release_version"))

// The sync summary (store/sync_summary.go): one indexer_meta row whose value is the synced
// ranges and whose watermark is a version, replaced only by a writer that read the
// version it replaces (compare-and-set), so the flushes of several nodes and of a resync
// never overwrite one another.
var SwapMeta = lwt(indexerMeta, "indexer_meta.swap",
	"replace a concern's value if its version is still the one read (compare-and-set)",
	setMeta().If(qb.EqNamed("watermark", "read")))

// The pending floor (store/pending.go): the lowest estimated milestone any unreferenced
// message was written for, moved down only.
var LowerMeta = lwt(indexerMeta, "indexer_meta.lower",
	"move a concern's watermark back only (an older value never loses to a newer write)",
	setMeta().If(qb.GtNamed("watermark", "above")))
