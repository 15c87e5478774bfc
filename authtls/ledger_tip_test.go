package authtls_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// atTip are the routes that must report the ledger at tip, and where their answer does
// (dotted JSON paths).
var atTip = map[string][]string{
	"/sync":                              {"newest"},
	"/health":                            {"newestMilestone.index"},
	"/api/core/v2/info":                  {"status.confirmedMilestone.index", "status.latestMilestone.index"},
	"/api/indexer/v1/outputs/basic":      {"ledgerIndex"},
	"/api/explorer/v2/balance/{address}": {"ledgerIndex"},
}

// ledgerFields are where any JSON answer reports its ledger index, when it does.
var ledgerFields = []string{"ledgerIndex", "coverage.ledgerIndex"}

// checkLedgerAtTip: the fields atTip names for pattern hold tip, and so does every
// ledger index the answer reports.
func checkLedgerAtTip(t *testing.T, pattern, path, body string) {
	var doc map[string]any
	if json.Unmarshal([]byte(body), &doc) != nil {
		if atTip[pattern] != nil {
			t.Errorf("GET %s: not JSON: %.200s", path, body)
		}
		return
	}
	for _, field := range atTip[pattern] {
		if got, ok := lookup(doc, field); !ok || got != float64(tip) {
			t.Errorf("GET %s: %s is %v, want %d: %.400s", path, field, got, tip, body)
		}
	}
	for _, field := range ledgerFields {
		if got, ok := lookup(doc, field); ok && got != float64(tip) {
			t.Errorf("GET %s: %s is %v, want %d", path, field, got, tip)
		}
	}
}

// lookup follows a dotted path through nested JSON objects.
func lookup(doc map[string]any, path string) (any, bool) {
	var cur any = doc
	for _, key := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = obj[key]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("status %q: %v", s, err)
	}
	return n
}
