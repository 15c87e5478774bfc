package cql_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

func testIndexerMeta(t *testing.T, n node) {
	const concern = "chunk_size"
	if ok, _ := n.cas(t, cql.InitMeta, concern, "60480", int64(10), "node-a"); !ok {
		t.Fatal("init of a new concern did not apply")
	}
	// A second init does not apply and returns the row.
	ok, cur := n.cas(t, cql.InitMeta, concern, "999", int64(1), "node-b")
	if ok || cur["concern"] != concern || cur["value"] != "60480" || cur["watermark"] != int64(10) ||
		cur["updated_by"] != "node-a" || cur["updated_at"] == nil {
		t.Errorf("second init: applied=%t, row %v, want refused with the first row", ok, cur)
	}

	// advance: SET watermark = ?, value = ?, updated_by = ? WHERE concern = ? IF watermark < ?
	advance := func(to int64, value, by string) (bool, row) {
		t.Helper()
		return n.cas(t, cql.AdvanceMeta, to, value, by, concern, to)
	}
	if ok, _ := advance(20, "60480", "node-b"); !ok {
		t.Error("advance 10 -> 20 refused")
	}
	for _, older := range []int64{15, 20} {
		if ok, cur := advance(older, "stale", "node-c"); ok || cur["watermark"] != int64(20) {
			t.Errorf("advance to %d over 20: applied=%t row %v, want refused with watermark 20", older, ok, cur)
		}
	}
	n.expect(t, cql.Meta, []row{{"value": "60480", "watermark": int64(20), "updated_by": "node-b"}}, concern)

	// swap: SET watermark = ?, value = ?, updated_by = ? WHERE concern = ? IF watermark = ?
	// (the sync summary's compare-and-set on a version): only the writer that read the
	// current version replaces the value.
	if ok, cur := n.cas(t, cql.SwapMeta, int64(16), "stale", "node-c", concern, int64(15)); ok || cur["watermark"] != int64(20) {
		t.Errorf("swap from version 15 over 20: applied=%t row %v, want refused", ok, cur)
	}
	if ok, _ := n.cas(t, cql.SwapMeta, int64(21), "swapped", "node-d", concern, int64(20)); !ok {
		t.Error("swap from the current version 20 refused")
	}
	n.expect(t, cql.Meta, []row{{"value": "swapped", "watermark": int64(21), "updated_by": "node-d"}}, concern)

	// lower: SET watermark = ?, value = ?, updated_by = ? WHERE concern = ? IF watermark > ?
	// (the pending floor): a higher watermark never replaces a lower one.
	if ok, cur := n.cas(t, cql.LowerMeta, int64(30), "30", "node-e", concern, int64(30)); ok || cur["watermark"] != int64(21) {
		t.Errorf("lower 21 -> 30: applied=%t row %v, want refused", ok, cur)
	}
	if ok, _ := n.cas(t, cql.LowerMeta, int64(5), "5", "node-e", concern, int64(5)); !ok {
		t.Error("lower 21 -> 5 refused")
	}
	n.expect(t, cql.Meta, []row{{"value": "5", "watermark": int64(5), "updated_by": "node-e"}}, concern)
}

// leaseTTL is a test-only select of a lease's remaining TTL.
const leaseTTL = "SELECT TTL(owner) FROM leases WHERE name = ?"

func testLeases(t *testing.T, n node) {
	const name, ttl = "lease-roundtrip", 30
	until := time.Now().Add(ttl * time.Second).UTC().Truncate(time.Millisecond)
	if ok, _ := n.cas(t, cql.AcquireLease, name, "owner-a", until, ttl); !ok {
		t.Fatal("acquire of a free lease did not apply")
	}
	if got := n.ttl(t, leaseTTL, name); got <= 0 || got > ttl {
		t.Errorf("lease TTL %d, want in (0, %d]", got, ttl)
	}
	refused := func(what string, ok bool, cur row) {
		t.Helper()
		if ok || cur["owner"] != "owner-a" {
			t.Errorf("%s: applied=%t, row %v, want refused, held by owner-a", what, ok, cur)
		}
	}
	ok, cur := n.cas(t, cql.AcquireLease, name, "owner-b", until, ttl)
	refused("acquire by a second owner", ok, cur)

	// renew: USING TTL ? SET owner = ?, expires_at = ? WHERE name = ? IF owner = ?
	later := until.Add(time.Minute)
	ok, cur = n.cas(t, cql.RenewLease, ttl, "owner-b", later, name, "owner-b")
	refused("renew by a non-owner", ok, cur)
	if ok, _ := n.cas(t, cql.RenewLease, 2*ttl, "owner-a", later, name, "owner-a"); !ok {
		t.Error("renew by the owner refused")
	}
	if got := n.ttl(t, leaseTTL, name); got <= ttl || got > 2*ttl {
		t.Errorf("renewed lease TTL %d, want in (%d, %d]", got, ttl, 2*ttl)
	}
	n.expect(t, cql.Lease, []row{{"owner": "owner-a", "expires_at": later}}, name)

	ok, cur = n.cas(t, cql.ReleaseLease, name, "owner-b")
	refused("release by a non-owner", ok, cur)
	if ok, _ := n.cas(t, cql.ReleaseLease, name, "owner-a"); !ok {
		t.Error("release by the owner refused")
	}
	var o string
	var e time.Time
	mustNotFound(t, n.scan(cql.Lease, []any{name}, &o, &e))
}

func testPing(t *testing.T, n node) {
	rows := n.rows(t, cql.Ping)
	if len(rows) != 1 || !strings.HasPrefix(fmt.Sprint(rows[0]["release_version"]), "5.") {
		t.Errorf("ping: %v, want one row with a Cassandra 5 release_version", rows)
	}
}
