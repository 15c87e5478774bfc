package rest

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// CoverageHeader carries a ledger answer's coverage beside its JSON member, for clients
// that keep a node's answer type and read headers (and for HEAD requests).
const CoverageHeader = "X-Ledger-Coverage"

// Coverage statuses: complete when a snapshot bootstrap put the whole unspent set in the
// ledger-state tables, partial when they hold only outputs created since the first
// indexed milestone (older unspent outputs are missing from lists and balances).
const (
	CoverageComplete = "complete"
	CoveragePartial  = "partial"
)

// CoverageJSON is the "coverage" member of every ledger answer (docs/core-api.md,
// docs/indexer-api.md, docs/explorer-api.md).
type CoverageJSON struct {
	Status      string `json:"status"`
	Since       uint32 `json:"since"`            // the bootstrap's milestone, or the first indexed one
	LedgerIndex uint32 `json:"ledgerIndex"`      // the end of the contiguous synced run from since
	Gaps        int    `json:"gaps"`             // holes in the synced ranges, also past ledgerIndex
	Reason      string `json:"reason,omitempty"` // why it is partial
}

// CoverageOf is c's JSON form; the zero coverage (nothing indexed) is partial.
func CoverageOf(c store.LedgerCoverage) CoverageJSON {
	out := CoverageJSON{Status: CoverageComplete, Since: c.Since, LedgerIndex: c.Index, Gaps: c.Gaps}
	switch {
	case c.Complete:
	case c.Reason != "":
		out.Status, out.Reason = CoveragePartial, c.Reason
	case c.Index == 0:
		out.Status, out.Reason = CoveragePartial, "nothing is indexed yet"
	default:
		out.Status, out.Reason = CoveragePartial, store.NoBootstrapReason(c.Since)
	}
	return out
}

// Partial marks c partial for reason, keeping an earlier reason.
func (c *CoverageJSON) Partial(reason string) {
	if c.Status != CoveragePartial {
		c.Status, c.Reason = CoveragePartial, reason
	}
}

// Header is the X-Ledger-Coverage value: "complete; since=17338; ledger-index=17340; gaps=0".
func (c CoverageJSON) Header() string {
	return fmt.Sprintf("%s; since=%d; ledger-index=%d; gaps=%d", c.Status, c.Since, c.LedgerIndex, c.Gaps)
}

// WithCoverage is embedded in ledger answers: their "coverage" member, and the value
// serve sends in X-Ledger-Coverage.
type WithCoverage struct {
	Coverage CoverageJSON `json:"coverage"`
}

func (w WithCoverage) ledgerCoverage() CoverageJSON { return w.Coverage }

// covered is an answer that states its ledger coverage.
type covered interface{ ledgerCoverage() CoverageJSON }

// SetCoverageHeader sends out's coverage in X-Ledger-Coverage when it states one.
func SetCoverageHeader(w http.ResponseWriter, out any) {
	if c, ok := out.(covered); ok {
		w.Header().Set(CoverageHeader, c.ledgerCoverage().Header())
	}
}

// CoverageSchema is the OpenAPI schema of the coverage member.
func CoverageSchema() Object {
	integer := Object{"type": "integer"}
	return Object{"type": "object", "required": []string{"status", "since", "ledgerIndex", "gaps"},
		"description": "what the ledger-state tables hold: complete (a snapshot bootstrap at since put the whole " +
			"unspent set in them) or partial (only outputs created since the first indexed milestone, since); " +
			"ledgerIndex ends the contiguous synced run from since; gaps counts the holes in the synced ranges. " +
			"The same in the " + CoverageHeader + " header",
		"properties": Object{
			"status":      Object{"type": "string", "enum": []string{CoverageComplete, CoveragePartial}},
			"since":       integer,
			"ledgerIndex": integer,
			"gaps":        integer,
			"reason":      Object{"type": "string", "description": "why it is partial (absent when complete)"},
		}}
}

// Coverage reads the ledger's coverage for answers that state it beside data of their
// own (histories, the ledger analytics): before anything is indexed it is the zero
// coverage, partial.
func (s *Reads) Coverage(ctx context.Context) (CoverageJSON, error) {
	c, err := s.st.LedgerCoverage(ctx)
	if err != nil && !errors.Is(err, store.ErrNothingSynced) {
		return CoverageJSON{}, err
	}
	return CoverageOf(c), nil
}

// MarkSpentMissing marks cov partial when the spent twin may lack spends the ledger c
// covers (ledgerquery.SpentMissing): a read of spent outputs then misses some.
func MarkSpentMissing(ctx context.Context, st ledgerquery.SpentTwin, c store.LedgerCoverage, cov *CoverageJSON) error {
	missing, err := ledgerquery.SpentMissing(ctx, st, c)
	if missing {
		cov.Partial(store.SpentMissingReason(c.Since))
	}
	return err
}

// CoverageAt is c for ledger analytics computed at ledger index at: partial when at is
// before the bootstrap's milestone (they were computed without its outputs).
func CoverageAt(c CoverageJSON, at uint32) CoverageJSON {
	if at < c.Since {
		c.Partial(store.BeforeSinceReason(at, c.Since))
	}
	return c
}

// AtLedgerIndex is the ledger index a read answers at: li, or the one a request's
// ledgerIndex asks for (a 400 above li), with the coverage c has there (CoverageAt).
func AtLedgerIndex(li uint32, c CoverageJSON, asked *uint32) (uint32, CoverageJSON, error) {
	switch {
	case asked == nil:
		return li, c, nil
	case *asked > li:
		return 0, CoverageJSON{}, BadParam("ledgerIndex", "%d is above the ledger index, %d", *asked, li)
	}
	return *asked, CoverageAt(c, *asked), nil
}

// DocumentCoverage adds X-Ledger-Coverage to the 200 answer of op when rt's schema
// (in schemas) has a LedgerCoverage member: the header goes with the member.
func DocumentCoverage(op Object, rt *Route, schemas Object) {
	sch, _ := schemas[rt.Schema].(Object)
	members, _ := sch["properties"].(Object)
	ok, _ := op["responses"].(Object)["200"].(Object)
	member, _ := members["coverage"].(Object)
	if member["$ref"] != Ref("LedgerCoverage")["$ref"] || ok == nil {
		return
	}
	ok["headers"] = Object{CoverageHeader: Object{"schema": Object{"type": "string"},
		"description": "the coverage member as status; since=N; ledger-index=N; gaps=N " +
			"(e.g. complete; since=17338; ledger-index=17340; gaps=0)"}}
}
