package authtls_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// staleSummary is one way the sync summary stops describing the sync table, as it does
// in life; the API must then build its view from the sync rows, reading only.
type staleSummary struct {
	name string
	make func(e *secureEnv, t *testing.T)
}

var staleSummaries = []staleSummary{
	// A keyspace indexed before the summary existed has no summary row.
	{"summary missing", (*secureEnv).deleteSummary},
	// An indexer that crashed before flushing leaves a summary behind the sync rows.
	{"summary behind the sync rows", (*secureEnv).rewindSummary},
	// A summary stored in a form this version does not read.
	{"summary unreadable", (*secureEnv).garbleSummary},
}

// apiFlags run the API with its ops routes on its own address (so the document lists
// them), without rate limits (the test asks every route in a row), and healthy with the
// sim chain's milestones of 2022.
var apiFlags = []string{"-ops-addr", "", "-rate", "0", "-health-max-age", "876000h"}

// viewsExpire is longer than the API keeps a view of the sync table or the ledger tip in
// memory (rebuiltViewTTL, the health probe's refresh).
const viewsExpire = 1500 * time.Millisecond

// serveEveryRoute runs the API as the read-only role and, for each stale summary, asks
// every GET route of its OpenAPI document with real keys of the indexed chain: the
// expected status (never a 500 or 503), the ledger at tip, and indexer_meta as the test
// left it.
func (e *secureEnv) serveEveryRoute(t *testing.T, out *transcript, ca string) {
	// The ledger analytics answer once computed: the indexer computes them.
	e.mustRun(t, out, e.clientEnv(e.indexer, e.indexer.password, ca), e.indexerBin, "analytics", "-ledger")
	samples := newRouteSamples(t)
	base := e.startAPI(t, out, ca, apiFlags...)
	routes := documentedGets(t, base)
	t.Logf("%d GET routes documented", len(routes))
	for _, stale := range staleSummaries {
		t.Run(stale.name, func(t *testing.T) {
			stale.make(e, t)
			before := e.metaRows(t)
			t.Logf("sync summary row: %q", before[store.SyncSummaryConcern])
			time.Sleep(viewsExpire)
			askEveryRoute(t, out, base, routes, samples)
			if after := e.metaRows(t); !maps.Equal(before, after) {
				t.Errorf("indexer_meta changed while the API served:\nbefore %v\nafter  %v", before, after)
			}
		})
	}
	t.Run("the summary write of a rebuild is refused to the role", func(t *testing.T) { e.refuseSummaryWrite(t, out, ca) })
}

// deleteSummary removes the summary row, as the superuser.
func (e *secureEnv) deleteSummary(t *testing.T) {
	e.cql(t, fmt.Sprintf("DELETE FROM %s.indexer_meta WHERE concern = '%s'", keyspace, store.SyncSummaryConcern))
}

// rewindSummary stores, as the superuser, a summary whose high mark is two milestones
// below the sync rows.
func (e *secureEnv) rewindSummary(t *testing.T) {
	behind := tip - 2
	e.storeSummary(t, fmt.Sprintf(`{"oldest":1,"newest":%d,"ranges":[{"from":1,"to":%d}]}`, behind, behind))
}

// garbleSummary stores, as the superuser, a summary value that is not JSON.
func (e *secureEnv) garbleSummary(t *testing.T) { e.storeSummary(t, "ranges 1-6") }

func (e *secureEnv) storeSummary(t *testing.T, value string) {
	e.cql(t, fmt.Sprintf("INSERT INTO %s.indexer_meta (concern, value, watermark, updated_by, updated_at) "+
		"VALUES ('%s', '%s', 1000, 'crashed-indexer', toTimestamp(now()))", keyspace, store.SyncSummaryConcern, value))
}

// metaRows are the indexer_meta rows (the sync summary among them), as text by concern.
func (e *secureEnv) metaRows(t *testing.T) map[string]string {
	rows := map[string]string{}
	it := e.super.Query(fmt.Sprintf("SELECT concern, value, watermark, updated_by, updated_at FROM %s.indexer_meta",
		keyspace)).Iter()
	var concern, value, by string
	var watermark int64
	var at time.Time
	for it.Scan(&concern, &value, &watermark, &by, &at) {
		rows[concern] = fmt.Sprintf("%s v%d by %s at %s", value, watermark, by, at.Format(time.RFC3339Nano))
	}
	if err := it.Close(); err != nil {
		t.Fatalf("reading indexer_meta: %v", err)
	}
	return rows
}

// refuseSummaryWrite: the role cannot store a sync summary (the compare-and-set a
// rebuild would write), so an API that stored one on a stale summary would fail.
func (e *secureEnv) refuseSummaryWrite(t *testing.T, out *transcript, ca string) {
	s, err := cql.Open(e.config(e.reader, e.reader.password, ca))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	_, _, err = s.CAS(context.Background(), cql.InitMeta, store.SyncSummaryConcern, "{}", int64(1), "api")
	out.add(fmt.Sprint(err))
	if !errors.Is(err, cql.ErrPermission) {
		t.Fatalf("storing the sync summary as %s: %v; want a permission refusal", e.reader.name, err)
	}
}
