package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// familyNames are the twelve families of the contract, as inx-chronicle names them.
var familyNames = []string{"block_activity", "milestone_size", "active_addresses", "base_tokens", "output_activity",
	"transaction_size", "ledger_outputs", "ledger_size", "address_balance", "unlock_conditions", "unclaimed_tokens",
	"protocol_parameters"}

// getNumbers fetches path and decodes its JSON answer with numbers kept as written;
// it returns the status.
func (e *env) getNumbers(t testing.TB, path string, out any) int {
	t.Helper()
	status, body := e.fetch(t, path)
	if status == http.StatusOK {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(out); err != nil {
			t.Fatalf("GET %s: %v\n%s", path, err, body)
		}
	}
	return status
}

// leaves flattens nested figures back to their '.'-joined paths.
func leaves(prefix string, v any, out map[string]any) map[string]any {
	if m, ok := v.(map[string]any); ok {
		for k, child := range m {
			leaves(prefix+k+".", child, out)
		}
		return out
	}
	out[strings.TrimSuffix(prefix, ".")] = v
	return out
}

// wantFigure is how the contract writes a stored figure in JSON: amounts (a last path
// segment naming an amount, and the token supply) as decimal strings, others as numbers.
func wantFigure(path string, v int64) any {
	last := path[strings.LastIndex(path, ".")+1:]
	if strings.Contains(last, "amount") || path == "token_supply" {
		return strconv.FormatInt(v, 10)
	}
	return json.Number(strconv.FormatInt(v, 10))
}

// checkFigures compares nested JSON figures with the stored ones.
func checkFigures(t testing.TB, where string, got any, stored map[string]int64) {
	t.Helper()
	flat := leaves("", got, map[string]any{})
	if len(flat) != len(stored) {
		t.Errorf("%s: %d figures, stored %d: %v", where, len(flat), len(stored), flat)
	}
	for path, v := range stored {
		if want := wantFigure(path, v); flat[path] != want {
			t.Errorf("%s: %s = %#v, want %#v", where, path, flat[path], want)
		}
	}
}
