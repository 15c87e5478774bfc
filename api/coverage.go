package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// coverageHeader carries a ledger answer's coverage beside its JSON member, for clients
// that keep a node's answer type and read headers (and for HEAD requests).
const coverageHeader = "X-Ledger-Coverage"

// Coverage statuses: complete when a snapshot bootstrap put the whole unspent set in the
// ledger-state tables, partial when they hold only outputs created since the first
// indexed milestone (older unspent outputs are missing from lists and balances).
const (
	coverageComplete = "complete"
	coveragePartial  = "partial"
)

// coverageJSON is the "coverage" member of every ledger answer (docs/core-api.md,
// docs/indexer-api.md, docs/explorer-api.md).
type coverageJSON struct {
	Status      string `json:"status"`
	Since       uint32 `json:"since"`       // the bootstrap's milestone, or the first indexed one
	LedgerIndex uint32 `json:"ledgerIndex"` // the end of the contiguous synced run from since
	Gaps        int    `json:"gaps"`        // holes in the synced ranges, also past ledgerIndex
}

// coverageOf is c's JSON form; the zero coverage (nothing indexed) is partial.
func coverageOf(c store.LedgerCoverage) coverageJSON {
	status := coveragePartial
	if c.Complete {
		status = coverageComplete
	}
	return coverageJSON{Status: status, Since: c.Since, LedgerIndex: c.Index, Gaps: c.Gaps}
}

// header is the X-Ledger-Coverage value: "complete; since=17338; ledger-index=17340; gaps=0".
func (c coverageJSON) header() string {
	return fmt.Sprintf("%s; since=%d; ledger-index=%d; gaps=%d", c.Status, c.Since, c.LedgerIndex, c.Gaps)
}

// withCoverage is embedded in ledger answers: their "coverage" member, and the value
// serve sends in X-Ledger-Coverage.
type withCoverage struct {
	Coverage coverageJSON `json:"coverage"`
}

func (w withCoverage) ledgerCoverage() coverageJSON { return w.Coverage }

// covered is an answer that states its ledger coverage.
type covered interface{ ledgerCoverage() coverageJSON }

// setCoverageHeader sends out's coverage in X-Ledger-Coverage when it states one.
func setCoverageHeader(w http.ResponseWriter, out any) {
	if c, ok := out.(covered); ok {
		w.Header().Set(coverageHeader, c.ledgerCoverage().header())
	}
}

// coverageSchema is the OpenAPI schema of the coverage member.
func coverageSchema() object {
	integer := object{"type": "integer"}
	return object{"type": "object", "required": []string{"status", "since", "ledgerIndex", "gaps"},
		"description": "what the ledger-state tables hold: complete (a snapshot bootstrap at since put the whole " +
			"unspent set in them) or partial (only outputs created since the first indexed milestone, since); " +
			"ledgerIndex ends the contiguous synced run from since; gaps counts the holes in the synced ranges. " +
			"The same in the " + coverageHeader + " header",
		"properties": object{
			"status":      object{"type": "string", "enum": []string{coverageComplete, coveragePartial}},
			"since":       integer,
			"ledgerIndex": integer,
			"gaps":        integer,
		}}
}

// coverage reads the ledger's coverage for answers that state it beside data of their
// own (histories, the ledger analytics): before anything is indexed it is the zero
// coverage, partial.
func (s *reads) coverage(ctx context.Context) (coverageJSON, error) {
	c, err := s.st.LedgerCoverage(ctx)
	if err != nil && !errors.Is(err, store.ErrNothingSynced) {
		return coverageJSON{}, err
	}
	return coverageOf(c), nil
}

// coverageAt is c for ledger analytics computed at ledger index at: partial when at is
// before the bootstrap's milestone (they were computed without its outputs).
func coverageAt(c coverageJSON, at uint32) coverageJSON {
	if c.Status == coverageComplete && at < c.Since {
		c.Status = coveragePartial
	}
	return c
}

// documentCoverage adds X-Ledger-Coverage to the 200 answer of op when rt's schema
// (in schemas) has a LedgerCoverage member: the header goes with the member.
func documentCoverage(op object, rt *route, schemas object) {
	sch, _ := schemas[rt.schema].(object)
	members, _ := sch["properties"].(object)
	ok, _ := op["responses"].(object)["200"].(object)
	member, _ := members["coverage"].(object)
	if member["$ref"] != ref("LedgerCoverage")["$ref"] || ok == nil {
		return
	}
	ok["headers"] = object{coverageHeader: object{"schema": object{"type": "string"},
		"description": "the coverage member as status; since=N; ledger-index=N; gaps=N " +
			"(e.g. complete; since=17338; ledger-index=17340; gaps=0)"}}
}
