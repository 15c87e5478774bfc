package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// testTip26ByID: each unspent alias, foundry and NFT answers its output; spent-out and
// unknown chains 404.
func testTip26ByID(t *testing.T, e *env, model []unspentModel) {
	live := map[string]bool{}
	n := 0
	for _, m := range model {
		if m.kind == "basic" {
			continue
		}
		oid, _ := chain.ParseOutputID(m.id)
		key := chainKey(oid, m.out)
		live[key] = true
		var ans indexer.OutputsJSON
		e.mustGet(t, indexer.Tip26Prefix+"/outputs/"+m.kind+"/"+key, &ans)
		if !slices.Equal(ans.Items, []string{m.id}) || ans.LedgerIndex != e.truth.UpTo {
			t.Errorf("%s %s: %+v, want [%s]", m.kind, key, ans, m.id)
		}
		n++
	}
	gone := 0
	for id, ot := range e.truth.Outputs {
		k := ot.Output.Kind
		if k != chain.OutputAlias && k != chain.OutputNFT && k != chain.OutputFoundry {
			continue
		}
		if key := chainKey(id, &ot.Output); !live[key] {
			gone++
			if code := e.get(t, indexer.Tip26Prefix+"/outputs/"+k.String()+"/"+key, nil); code != http.StatusNotFound {
				t.Errorf("%s %s has no unspent output: status %d, want 404", k, key, code)
			}
		}
	}
	unknown := "0x" + strings.Repeat("ab", 32)
	for _, p := range []string{"/outputs/alias/" + unknown, "/outputs/nft/" + unknown,
		"/outputs/foundry/0x08" + strings.Repeat("ab", 37)} {
		if code := e.get(t, indexer.Tip26Prefix+p, nil); code != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", p, code)
		}
	}
	t.Logf("%d live chains answered, %d spent-out chains 404", n, gone)
}

// testTip26Errors: bad parameters answer 400 in TIP-25/26 error form, naming them.
func testTip26Errors(t *testing.T, e *env) {
	basic := indexer.Tip26Prefix + "/outputs/basic?"
	goodCursor := strings.Repeat("0", 76) + ".10"
	for _, tc := range []struct{ query, name string }{
		{"address=smr1xyz", "address"},
		{"sender=0x1234", "sender"},
		{"hasTimelock=maybe", "hasTimelock"},
		{"hasNativeTokens=", "hasNativeTokens"},
		{"createdBefore=-1", "createdBefore"},
		{"expiresAfter=1.5", "expiresAfter"},
		{"minNativeTokenCount=65", "minNativeTokenCount"},
		{"tag=abc", "tag"},
		{"cursor=abc", "cursor"},
		{"cursor=" + strings.Repeat("g", 76) + ".10", "cursor"},
		{"cursor=" + strings.Repeat("0", 76) + ".0", "cursor"},
		{"cursor=" + strings.Repeat("0", 76) + ".1001", "cursor"},
		{"cursor=" + strings.Repeat("0", 75) + ".10", "cursor"},
		{"pageSize=0", "pageSize"},
		{"pageSize=1001", "pageSize"},
		{"pageSize=ten", "pageSize"},
		{"foo=1", "foo"},
		{"issuer=" + "smr1qqs2qqenvrz4yuzvg4u83882d6d29ygvqg3t6lwejp5ch54lxhrgzl3elje", "issuer"}, // not a basic filter
		{"page_size=10", "page_size"},
		{"sort=latest", "sort"},
		{"sort=", "sort"},
		{"includeSpent=yes", "includeSpent"},
		{"cursor=" + goodCursor + ".newest", "cursor"},                    // a newest cursor, sort oldest
		{"sort=oldest&cursor=" + goodCursor + ".newest", "cursor"},        // the same, said
		{"sort=newest&cursor=" + goodCursor, "cursor"},                    // an oldest cursor, sort newest
		{"sort=newest&cursor=" + goodCursor + ".newest.newest", "cursor"}, // not a cursor
		{"sort=newest&cursor=" + goodCursor + ".oldest", "cursor"},        // nor this
	} {
		status, body := e.fetch(t, basic+tc.query)
		var ans struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if err := json.Unmarshal(body, &ans); err != nil || status != http.StatusBadRequest || ans.Error.Code != "400" ||
			!strings.Contains(ans.Error.Message, tc.name) {
			t.Errorf("GET %s: %d %s, want a 400 naming %s", basic+tc.query, status, body, tc.name)
		}
	}
	for _, q := range []string{"sort=newest", "includeSpent=false"} { // not inx-chronicle's route
		if status, body := e.fetch(t, indexer.Tip26Prefix+"/outputs?"+q); status != http.StatusBadRequest {
			t.Errorf("GET /outputs?%s: %d %s, want a 400", q, status, body)
		}
	}
	for _, p := range []string{"/outputs/alias/0x12", "/outputs/nft/xyz", "/outputs/foundry/0x" + strings.Repeat("ab", 32)} {
		if code := e.get(t, indexer.Tip26Prefix+p, nil); code != http.StatusBadRequest {
			t.Errorf("GET %s: status %d, want 400", p, code)
		}
	}
	var ans indexer.OutputsJSON
	e.mustGet(t, basic+"cursor="+goodCursor+"&pageSize=3", &ans) // the cursor's page size wins
	if len(ans.Items) != 10 || !strings.HasSuffix(ans.Cursor, ".10") {
		t.Errorf("cursor with page size 10 and pageSize 3: %d items, cursor %q", len(ans.Items), ans.Cursor)
	}
}
