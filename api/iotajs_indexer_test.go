package api

import (
	"cmp"
	"math/big"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/compat/iotajs"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// The "indexer" section of compat/iotajs/client.js: IOTA's IndexerPluginClient pages
// through TIP-26 queries by their cursors as wallets do.

// iotajsMethods names IndexerPluginClient's list method of each route, and the TIP-26
// parameters iota.js 2.0.0-rc.4 passes for it (it drops any other option silently, so
// only queries within these are sent to it; the Go tests cover the rest).
var iotajsMethods = map[string]struct {
	list, one string
	params    []string
}{
	"basic": {"basicOutputs", "", []string{"address", "hasStorageDepositReturn", "storageDepositReturnAddress",
		"hasExpiration", "expirationReturnAddress", "expiresBefore", "expiresAfter", "hasTimelock", "timelockedBefore",
		"timelockedAfter", "hasNativeTokens", "minNativeTokenCount", "maxNativeTokenCount", "sender", "tag",
		"createdBefore", "createdAfter"}},
	"alias": {"aliases", "alias", []string{"stateController", "governor", "hasNativeTokens", "minNativeTokenCount",
		"maxNativeTokenCount", "issuer", "sender", "createdBefore", "createdAfter"}},
	"nft": {"nfts", "nft", []string{"address", "hasStorageDepositReturn", "storageDepositReturnAddress",
		"hasExpiration", "expirationReturnAddress", "expiresBefore", "expiresAfter", "hasTimelock", "timelockedBefore",
		"timelockedAfter", "hasNativeTokens", "minNativeTokenCount", "maxNativeTokenCount", "issuer", "sender", "tag",
		"createdBefore", "createdAfter"}},
	"foundry": {"foundries", "foundry", []string{"aliasAddress", "hasNativeTokens", "minNativeTokenCount",
		"maxNativeTokenCount", "createdBefore", "createdAfter"}},
}

// iotajsQuery is one query of the section: client method, TIP-26 parameters, page size
// and the output IDs it must give over all its pages.
type iotajsQuery struct {
	Name     string            `json:"name"`
	Method   string            `json:"method"`
	Params   map[string]string `json:"params"`
	PageSize int               `json:"pageSize"`
	Want     []string          `json:"want"`
}

// iotajsChain is a by-ID query: the chain's unspent output, or nil for 404.
type iotajsChain struct {
	Method string  `json:"method"`
	ID     string  `json:"id"`
	Want   *string `json:"want"`
}

// testTip26IotaJS runs every TIP-26 filter case iota.js can express through its
// IndexerPluginClient (three items a page, so it follows cursors across partitions),
// and every live chain by ID, over the sim chain of TestIndexerAPI.
func testTip26IotaJS(t *testing.T, e *env, model []unspentModel) {
	iotajs.Require(t)
	var queries []iotajsQuery
	for _, c := range tip26Cases(valuesOf(model)) {
		m, ok := iotajsMethods[c.route]
		params, err := url.ParseQuery(c.query)
		if !ok || err != nil || !allIn(params, m.params) {
			continue
		}
		q := iotajsQuery{Name: c.query, Method: m.list, Params: map[string]string{}, PageSize: 3, Want: []string{}}
		for name := range params {
			q.Params[name] = params.Get(name)
		}
		for i := range model {
			if c.covers(&model[i]) && c.want(&model[i]) {
				q.Want = append(q.Want, model[i].id)
			}
		}
		queries = append(queries, q)
	}
	if len(queries) < 30 {
		t.Fatalf("only %d TIP-26 cases iota.js can express: the check would be thin", len(queries))
	}
	var chains []iotajsChain
	for i := range model {
		m := &model[i]
		if m.kind != "basic" {
			oid, _ := chain.ParseOutputID(m.id)
			chains = append(chains, iotajsChain{iotajsMethods[m.kind].one, chainKey(oid, m.out), &m.id})
		}
	}
	chains = append(chains, iotajsChain{"nft", "0x" + strings.Repeat("ab", 32), nil})
	runIotaJSClient(t, e.srv.URL, map[string]any{"indexer": map[string]any{
		"ledgerIndex": e.truth.UpTo, "queries": queries, "chains": chains}}, "")
}

func allIn(params url.Values, allowed []string) bool {
	for name := range params {
		if !slices.Contains(allowed, name) {
			return false
		}
	}
	return true
}

// realIndexerExpectations: over the real data, every owner's unspent basic outputs (two
// a page), every unspent NFT and alias (one a page), each such chain by ID, and each
// owner's balance as iota.js's addressBalance sums it (owned basic outputs, plus those
// expired back to the owner), from the data file alone.
func realIndexerExpectations(t *testing.T, set *realdata.Set) map[string]any {
	unspent := unspentRecords(t, set)
	byOwner := map[string][]string{}
	balances := map[string]*realBalance{}
	var nfts, aliases []string
	var chains []iotajsChain
	now := time.Now().Unix()
	for _, r := range unspent {
		owner := r.out.Address.Bech32(set.Protocol.Bech32HRP)
		switch r.out.Kind {
		case chain.OutputBasic:
			byOwner[owner] = append(byOwner[owner], r.id)
			balanceOf(balances, owner).add(r.out, true)
			if exp := r.out.Expiration; exp != nil && int64(exp.UnixTime) < now {
				balanceOf(balances, exp.ReturnAddress.Bech32(set.Protocol.Bech32HRP)).add(r.out, false)
			}
		case chain.OutputNFT:
			nfts = append(nfts, r.id)
		case chain.OutputAlias:
			aliases = append(aliases, r.id)
		}
		if r.out.Kind == chain.OutputNFT || r.out.Kind == chain.OutputAlias {
			oid, _ := chain.ParseOutputID(r.id)
			chains = append(chains, iotajsChain{r.out.Kind.String(), chainKey(oid, &r.out), &r.id})
		}
	}
	if len(nfts) == 0 || len(aliases) == 0 || len(byOwner) == 0 {
		t.Fatalf("the data has %d owners, %d NFTs, %d aliases unspent: the check would be thin", len(byOwner), len(nfts), len(aliases))
	}
	queries := []iotajsQuery{{Name: "every NFT", Method: "nfts", Params: map[string]string{}, PageSize: 1, Want: nfts},
		{Name: "every alias", Method: "aliases", Params: map[string]string{}, PageSize: 1, Want: aliases}}
	var bals []map[string]any
	for owner, ids := range byOwner {
		queries = append(queries, iotajsQuery{Name: "address " + owner, Method: "basicOutputs",
			Params: map[string]string{"address": owner}, PageSize: 2, Want: ids})
		b := balances[owner]
		bals = append(bals, map[string]any{"address": owner, "balance": b.amount.String(), "nativeTokens": b.tokenText()})
	}
	chains = append(chains, iotajsChain{"alias", "0x" + strings.Repeat("cd", 32), nil})
	return map[string]any{"ledgerIndex": set.Highest(), "queries": queries, "chains": chains, "balances": bals}
}

type realRecord struct {
	id  string
	at  uint32
	out chain.Output
}

// unspentRecords are the outputs the data created and did not consume, in TIP-26 order.
func unspentRecords(t *testing.T, set *realdata.Set) []realRecord {
	spent := map[[34]byte]bool{}
	for _, ms := range set.Milestones {
		for _, s := range ms.Consumed {
			spent[s.OutputID] = true
		}
	}
	var out []realRecord
	for _, ms := range set.Milestones {
		for _, o := range ms.Created {
			if !spent[o.OutputID] {
				out = append(out, realRecord{chain.OutputID(o.OutputID).String(), o.BookedTimestamp, outputOf(t, o.Raw)})
			}
		}
	}
	slices.SortFunc(out, func(a, b realRecord) int { return cmp.Or(cmp.Compare(a.at, b.at), strings.Compare(a.id, b.id)) })
	return out
}

// realBalance is what iota.js's addressBalance sums for an address.
type realBalance struct {
	amount big.Int
	tokens map[string]*big.Int
}

func balanceOf(m map[string]*realBalance, addr string) *realBalance {
	if m[addr] == nil {
		m[addr] = &realBalance{tokens: map[string]*big.Int{}}
	}
	return m[addr]
}

// add counts an output's amount and, for an owned one, its native tokens.
func (b *realBalance) add(o chain.Output, owned bool) {
	b.amount.Add(&b.amount, new(big.Int).SetUint64(o.Amount))
	for _, nt := range o.NativeTokens {
		if !owned {
			break
		}
		id := nt.ID.String()
		if b.tokens[id] == nil {
			b.tokens[id] = new(big.Int)
		}
		b.tokens[id].Add(b.tokens[id], nt.Amount)
	}
}

func (b *realBalance) tokenText() map[string]string {
	out := map[string]string{}
	for id, v := range b.tokens {
		out[id] = v.String()
	}
	return out
}
