package api

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// indexerChain is the length of the TIP-26 test chain: seven testChunk partitions, so
// streams cross partitions, and enough outputs that every kind and feature is unspent.
const indexerChain = 70

// indexerSim is the TIP-26 test chain's source.
var indexerSim = sim.Options{Seed: 26, MessagesPerMilestone: 12, AddressPool: 25, TagPool: 5}

// TestIndexerAPI checks the TIP-26 routes against a model of the sim's unspent outputs.
func TestIndexerAPI(t *testing.T) {
	testcontainers.SkipShort(t)
	e := newEnv(t, indexerSim, indexerChain)
	model := e.unspentOutputs()
	checkModelCovers(t, model)
	t.Run("filters", func(t *testing.T) { testTip26Filters(t, e, model) })
	t.Run("newest", func(t *testing.T) { testTip26Newest(t, e, model) })
	t.Run("budget", func(t *testing.T) { testTip26Budget(t, e, model, false) })
	every := e.everyOutput()
	t.Run("include_spent", func(t *testing.T) { testTip26IncludeSpent(t, e, every) })
	t.Run("include_spent_budget", func(t *testing.T) { testTip26Budget(t, e, every, true) })
	t.Run("include_spent_rewrite", func(t *testing.T) { testTip26SpentRewrite(t, e, every) })
	t.Run("generic_foundries", func(t *testing.T) { testTip26GenericFoundries(t, e, model) })
	t.Run("by_id", func(t *testing.T) { testTip26ByID(t, e, model) })
	t.Run("as_of", func(t *testing.T) { testTip26AsOf(t, e) })
	t.Run("chain_as_of", func(t *testing.T) { testTip26ChainAsOf(t, e) })
	t.Run("errors", func(t *testing.T) { testTip26Errors(t, e) })
	t.Run("wallet_sync", func(t *testing.T) { testWalletSync(t, e) })
	t.Run("wallet_errors", func(t *testing.T) { testWalletErrors(t, e) })
	t.Run("iotajs", func(t *testing.T) { testTip26IotaJS(t, e, model) })
}

// checkModelCovers fails unless every kind and every filtered feature is unspent somewhere.
func checkModelCovers(t *testing.T, model []unspentModel) {
	t.Helper()
	seen := map[string]bool{}
	for _, m := range model {
		seen[m.kind] = true
		o := m.out
		seen["tokens"] = seen["tokens"] || len(o.NativeTokens) > 0
		seen["sdr"] = seen["sdr"] || o.StorageDepositReturn != nil
		seen["timelock"] = seen["timelock"] || o.Timelock != nil
		seen["expiration"] = seen["expiration"] || o.Expiration != nil
		seen["sender"] = seen["sender"] || o.Sender != nil
		seen["tag"] = seen["tag"] || len(o.Tag) > 0
		seen["issuer"] = seen["issuer"] || o.Issuer != nil
	}
	for _, want := range []string{"basic", "alias", "foundry", "nft", "tokens", "sdr", "timelock", "expiration",
		"sender", "tag", "issuer"} {
		if !seen[want] {
			t.Errorf("no unspent output with %s in the test chain", want)
		}
	}
	t.Logf("%d unspent outputs in the model", len(model))
}

// tip26Case is a query and which model outputs it must answer.
type tip26Case struct {
	route string // basic, alias, foundry, nft or "" (every kind)
	query string
	want  func(*unspentModel) bool
}

func (c tip26Case) path() string {
	p := indexer.Tip26Prefix + "/outputs"
	if c.route != "" {
		p += "/" + c.route
	}
	return p + "?" + c.query
}

// covers: the kinds a route answers. The generic one answers every kind, foundries
// included: inx-indexer's combined query (pkg/indexer/combined.go, since v1.0.0) is the
// union of its basic, alias, NFT and foundry queries.
func (c tip26Case) covers(m *unspentModel) bool {
	return c.route == "" || m.kind == c.route
}

// modelValues are filter values taken from the model: the most frequent of each.
type modelValues struct {
	owner, nftOwner, sender, tag, issuer, controller, governor, foundryAlias, sdr, expReturn string
	timelock, expires, from, to                                                              int64
}

func valuesOf(model []unspentModel) modelValues {
	var v modelValues
	count := func(kind string, f func(*unspentModel) string) string {
		n := map[string]int{}
		best := ""
		for i := range model {
			if kind == "" || model[i].kind == kind {
				if s := f(&model[i]); s != "" {
					n[s]++
					if n[s] > n[best] || (n[s] == n[best] && s < best) {
						best = s
					}
				}
			}
		}
		return best
	}
	v.owner = count("basic", (*unspentModel).owner)
	v.nftOwner = count("nft", (*unspentModel).owner)
	v.sender = count("", func(m *unspentModel) string { return bech(m.out.Sender) })
	v.tag = count("", func(m *unspentModel) string { return tagHex(m.out.Tag) })
	v.issuer = count("nft", func(m *unspentModel) string { return bech(m.out.Issuer) })
	v.controller = count("alias", func(m *unspentModel) string { return bech(m.out.StateController) })
	v.governor = count("alias", func(m *unspentModel) string { return bech(m.out.Governor) })
	v.foundryAlias = count("foundry", (*unspentModel).owner)
	v.sdr = count("", (*unspentModel).sdrAddress)
	v.expReturn = count("", (*unspentModel).expirationReturn)
	median := func(f func(*unspentModel) (int64, bool)) int64 {
		var all []int64
		for i := range model {
			if x, ok := f(&model[i]); ok {
				all = append(all, x)
			}
		}
		slices.Sort(all)
		return all[len(all)/2]
	}
	v.timelock, v.expires = median((*unspentModel).timelock), median((*unspentModel).expiration)
	v.from, v.to = model[len(model)/3].createdAt, model[2*len(model)/3].createdAt
	return v
}

func tip26Cases(v modelValues) []tip26Case {
	owner := func(s string) func(*unspentModel) bool { return func(m *unspentModel) bool { return m.owner() == s } }
	tokens := func(m *unspentModel) int { return len(m.out.NativeTokens) }
	hasTL := func(m *unspentModel) bool { _, ok := m.timelock(); return ok }
	hasExp := func(m *unspentModel) bool { _, ok := m.expiration(); return ok }
	tl := func(f func(int64) bool) func(*unspentModel) bool {
		return func(m *unspentModel) bool { x, ok := m.timelock(); return ok && f(x) }
	}
	exp := func(f func(int64) bool) func(*unspentModel) bool {
		return func(m *unspentModel) bool { x, ok := m.expiration(); return ok && f(x) }
	}
	created := func(m *unspentModel) bool { return m.createdAt > v.from && m.createdAt < v.to }
	and := func(fs ...func(*unspentModel) bool) func(*unspentModel) bool {
		return func(m *unspentModel) bool {
			for _, f := range fs {
				if !f(m) {
					return false
				}
			}
			return true
		}
	}
	q := func(kv ...any) string {
		vals := url.Values{}
		for i := 0; i < len(kv); i += 2 {
			vals.Set(kv[i].(string), fmt.Sprint(kv[i+1]))
		}
		return vals.Encode()
	}
	all := func(*unspentModel) bool { return true }
	sender := func(m *unspentModel) bool { return bech(m.out.Sender) == v.sender }
	tag := func(m *unspentModel) bool { return tagHex(m.out.Tag) == v.tag }
	between := q("createdAfter", v.from, "createdBefore", v.to)
	return []tip26Case{
		{"basic", "", all},
		{"basic", q("address", v.owner), owner(v.owner)},
		{"basic", q("unlockableByAddress", v.owner), func(m *unspentModel) bool { return m.unlockableBy(v.owner) }},
		{"basic", q("hasNativeTokens", true), func(m *unspentModel) bool { return tokens(m) > 0 }},
		{"basic", q("hasNativeTokens", false), func(m *unspentModel) bool { return tokens(m) == 0 }},
		{"basic", q("minNativeTokenCount", 1, "maxNativeTokenCount", 2),
			func(m *unspentModel) bool { return tokens(m) >= 1 && tokens(m) <= 2 }},
		{"basic", q("maxNativeTokenCount", 0), func(m *unspentModel) bool { return tokens(m) == 0 }},
		{"basic", q("hasStorageDepositReturn", true), func(m *unspentModel) bool { return m.out.StorageDepositReturn != nil }},
		{"basic", q("hasStorageDepositReturn", false), func(m *unspentModel) bool { return m.out.StorageDepositReturn == nil }},
		{"basic", q("storageDepositReturnAddress", v.sdr), func(m *unspentModel) bool { return m.sdrAddress() == v.sdr }},
		{"basic", q("hasTimelock", true), hasTL},
		{"basic", q("hasTimelock", false), func(m *unspentModel) bool { return !hasTL(m) }},
		{"basic", q("timelockedBefore", v.timelock), tl(func(x int64) bool { return x < v.timelock })},
		{"basic", q("timelockedAfter", v.timelock), tl(func(x int64) bool { return x > v.timelock })},
		{"basic", q("hasExpiration", true), hasExp},
		{"basic", q("hasExpiration", false), func(m *unspentModel) bool { return !hasExp(m) }},
		{"basic", q("expiresBefore", v.expires), exp(func(x int64) bool { return x < v.expires })},
		{"basic", q("expiresAfter", v.expires), exp(func(x int64) bool { return x > v.expires })},
		{"basic", q("expirationReturnAddress", v.expReturn), func(m *unspentModel) bool { return m.expirationReturn() == v.expReturn }},
		{"basic", q("sender", v.sender), sender},
		{"basic", q("tag", v.tag), tag},
		{"basic", between, created},
		{"basic", q("createdAfter", v.to), func(m *unspentModel) bool { return m.createdAt > v.to }},
		{"basic", q("address", v.owner, "createdAfter", v.from, "createdBefore", v.to), and(owner(v.owner), created)},
		{"basic", q("address", v.owner, "hasNativeTokens", false, "hasTimelock", false),
			and(owner(v.owner), func(m *unspentModel) bool { return tokens(m) == 0 && !hasTL(m) })},
		{"basic", q("sender", v.sender, "tag", v.tag), and(sender, tag)},
		{"basic", q("hasExpiration", true, "expiresAfter", v.expires, "createdBefore", v.to),
			and(exp(func(x int64) bool { return x > v.expires }), func(m *unspentModel) bool { return m.createdAt < v.to })},
		{"nft", "", all},
		{"nft", q("address", v.nftOwner), owner(v.nftOwner)},
		{"nft", q("unlockableByAddress", v.nftOwner), func(m *unspentModel) bool { return m.unlockableBy(v.nftOwner) }},
		{"nft", q("issuer", v.issuer), func(m *unspentModel) bool { return bech(m.out.Issuer) == v.issuer }},
		{"nft", q("sender", v.sender), sender},
		{"nft", q("tag", v.tag), tag},
		{"nft", q("hasStorageDepositReturn", true, "hasExpiration", false),
			func(m *unspentModel) bool { return m.out.StorageDepositReturn != nil && !hasExp(m) }},
		{"nft", q("hasNativeTokens", true) + "&" + between, and(func(m *unspentModel) bool { return tokens(m) > 0 }, created)},
		{"alias", "", all},
		{"alias", q("stateController", v.controller), func(m *unspentModel) bool { return bech(m.out.StateController) == v.controller }},
		{"alias", q("governor", v.governor), func(m *unspentModel) bool { return bech(m.out.Governor) == v.governor }},
		{"alias", q("unlockableByAddress", v.governor), func(m *unspentModel) bool { return m.unlockableBy(v.governor) }},
		{"alias", q("sender", v.sender), sender},
		{"alias", q("issuer", v.issuer), func(m *unspentModel) bool { return bech(m.out.Issuer) == v.issuer }},
		{"alias", q("hasNativeTokens", true), func(m *unspentModel) bool { return tokens(m) > 0 }},
		{"foundry", "", all},
		{"foundry", q("aliasAddress", v.foundryAlias), owner(v.foundryAlias)},
		{"foundry", q("hasNativeTokens", false), func(m *unspentModel) bool { return tokens(m) == 0 }},
		{"foundry", between, created},
		{"", "", all},
		{"", q("unlockableByAddress", v.owner), func(m *unspentModel) bool { return m.unlockableBy(v.owner) }},
		{"", q("unlockableByAddress", v.controller) + "&" + between,
			and(func(m *unspentModel) bool { return m.unlockableBy(v.controller) }, created)},
		{"", q("unlockableByAddress", v.foundryAlias), func(m *unspentModel) bool { return m.unlockableBy(v.foundryAlias) }},
		{"", q("unlockableByAddress", v.foundryAlias, "maxNativeTokenCount", 0),
			func(m *unspentModel) bool { return m.unlockableBy(v.foundryAlias) && tokens(m) == 0 }},
		{"", q("hasNativeTokens", true), func(m *unspentModel) bool { return tokens(m) > 0 }},
		{"", q("hasNativeTokens", false), func(m *unspentModel) bool { return tokens(m) == 0 }},
		{"", q("minNativeTokenCount", 2), func(m *unspentModel) bool { return tokens(m) >= 2 }},
		{"", between, created},
		{"basic", q("createdBefore", 0), func(*unspentModel) bool { return false }},
		{"", q("createdAfter", v.from, "createdBefore", v.from+1), func(*unspentModel) bool { return false }},
		{"nft", q("minNativeTokenCount", 3, "maxNativeTokenCount", 2), func(*unspentModel) bool { return false }},
	}
}

// testTip26Filters: every filter, alone and combined, pages through exactly the model's
// outputs in TIP-26 order at several page sizes.
func testTip26Filters(t *testing.T, e *env, model []unspentModel) {
	empty := 0
	cases := tip26Cases(valuesOf(model))
	for _, c := range cases {
		if c.want == nil {
			continue
		}
		var want []string
		for i := range model {
			if c.covers(&model[i]) && c.want(&model[i]) {
				want = append(want, model[i].id)
			}
		}
		if len(want) == 0 {
			empty++
		}
		for _, size := range []int{1, 7, 100} {
			if size == 1 && len(want) > 60 {
				continue // a request per item: the small answers cover it
			}
			if got := e.tip26Walk(t, c.path(), size); !slices.Equal(got, want) {
				t.Errorf("GET %s pageSize %d: %d items, want %d\n got %v\nwant %v", c.path(), size, len(got), len(want),
					got, want)
			}
		}
	}
	if empty > len(cases)/5 {
		t.Errorf("%d of %d cases expect nothing: the test chain does not exercise the filters", empty, len(cases))
	}
}

var tip26CursorForm = regexp.MustCompile(`^[0-9a-f]{76}\.[0-9]+(\.newest)?$`)

// tip26Walk follows a TIP-26 query's cursors to the end and returns its items; the
// cursors of a sort=newest query say so, the others are inx-indexer's.
func (e *env) tip26Walk(t *testing.T, path string, size int) []string {
	t.Helper()
	return e.tip26WalkAt(t, path, size, e.truth.UpTo)
}

// tip26WalkAt is tip26Walk where every page must be at ledger index upTo.
func (e *env) tip26WalkAt(t *testing.T, path string, size int, upTo uint32) []string {
	t.Helper()
	var got []string
	next := path + "&pageSize=" + strconv.Itoa(size)
	for pages := 0; ; pages++ {
		if pages > 2000 {
			t.Fatalf("GET %s: no last page", path)
		}
		var ans indexer.OutputsJSON
		e.mustGet(t, next, &ans)
		if ans.LedgerIndex != upTo || len(ans.Items) > size || ans.Items == nil {
			t.Fatalf("GET %s: ledgerIndex %d (want %d), %d items on a page of %d", next, ans.LedgerIndex,
				upTo, len(ans.Items), size)
		}
		got = append(got, ans.Items...)
		if ans.Cursor == "" {
			return got
		}
		newest := strings.Contains(path, "sort=newest")
		sized, marked := strings.CutSuffix(ans.Cursor, ".newest")
		if !tip26CursorForm.MatchString(ans.Cursor) || !strings.HasSuffix(sized, "."+strconv.Itoa(size)) || marked != newest {
			t.Fatalf("GET %s: cursor %q is not in TIP-26 form with page size %d", next, ans.Cursor, size)
		}
		next = path + "&cursor=" + ans.Cursor
	}
}

// testTip26Newest: on inx-chronicle's routes (the kinds' lists), sort=newest pages through
// exactly the model's outputs of every filter in reverse TIP-26 order, and sort=oldest
// and includeSpent=false as without them.
func testTip26Newest(t *testing.T, e *env, model []unspentModel) {
	for _, c := range tip26Cases(valuesOf(model)) {
		if c.route == "" {
			continue // inx-indexer's generic route: no sort
		}
		var want []string
		for i := range model {
			if c.covers(&model[i]) && c.want(&model[i]) {
				want = append(want, model[i].id)
			}
		}
		oldest := slices.Clone(want)
		slices.Reverse(want)
		for _, size := range []int{1, 7, 100} {
			if size == 1 && len(want) > 60 {
				continue
			}
			newest := c
			newest.query += "&sort=newest&includeSpent=false"
			if got := e.tip26Walk(t, newest.path(), size); !slices.Equal(got, want) {
				t.Errorf("GET %s pageSize %d: %d items, want %d\n got %v\nwant %v", newest.path(), size, len(got),
					len(want), got, want)
			}
		}
		explicit := c
		explicit.query += "&sort=oldest&includeSpent=false"
		if got := e.tip26Walk(t, explicit.path(), 7); !slices.Equal(got, oldest) {
			t.Errorf("GET %s: %d items, want %d in TIP-26 order", explicit.path(), len(got), len(oldest))
		}
	}
}
