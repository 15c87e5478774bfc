package api

import (
	"net/url"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// outputCase is a list query and the rows the truth says it returns.
type outputCase struct {
	path  string
	kind  chain.OutputKind
	match func(id chain.OutputID, o *chain.Output) bool
	keep  func(w wantOutput) bool // filters on spent state; nil: all
}

func hasRole(column, value string) func(chain.OutputID, *chain.Output) bool {
	return func(_ chain.OutputID, o *chain.Output) bool { return role(o, column) == value }
}

func both(a, b func(chain.OutputID, *chain.Output) bool) func(chain.OutputID, *chain.Output) bool {
	return func(id chain.OutputID, o *chain.Output) bool { return a(id, o) && b(id, o) }
}

func testOutputLists(t *testing.T, e *env) {
	addr, sender := e.busiest(chain.OutputBasic, "address"), e.busiest(chain.OutputBasic, "sender")
	tag := e.busiest(chain.OutputBasic, "tag")
	withReturn := func(_ chain.OutputID, o *chain.Output) bool { return o.StorageDepositReturn != nil }
	unspent := func(w wantOutput) bool { return !w.spent }
	from, to := time.Unix(1664582600, 0).UTC(), time.Unix(1664582700, 0).UTC()
	cases := []outputCase{
		{path: "/outputs?address=" + addr, kind: chain.OutputBasic, match: hasRole("address", addr)},
		{path: "/outputs?sender=" + sender, kind: chain.OutputBasic, match: hasRole("sender", sender)},
		{path: "/outputs?tag=" + tag, kind: chain.OutputBasic, match: hasRole("tag", tag)},
		{path: "/outputs?tag=" + tag + "&address=" + addr, kind: chain.OutputBasic,
			match: both(hasRole("tag", tag), hasRole("address", addr))},
		{path: "/outputs?address=" + addr + "&requiresDustReturn=true", kind: chain.OutputBasic,
			match: both(hasRole("address", addr), withReturn)},
		{path: "/outputs?address=" + addr + "&hasStorageDepositReturn=false", kind: chain.OutputBasic,
			match: both(hasRole("address", addr), func(id chain.OutputID, o *chain.Output) bool { return !withReturn(id, o) })},
		{path: "/outputs?address=" + addr + "&unspent=true", kind: chain.OutputBasic, match: hasRole("address", addr), keep: unspent},
		{path: "/outputs?address=" + addr + "&from=" + from.Format(time.RFC3339) + "&to=" + rest.Itoa(int(to.Unix())),
			kind: chain.OutputBasic, match: hasRole("address", addr),
			keep: func(w wantOutput) bool { return !w.at.Before(from) && w.at.Before(to) }},
	}
	cases = append(cases, e.chainListCases()...)
	for _, c := range cases {
		want := e.outputs(c.kind, c.match)
		if c.keep != nil {
			want = filterWant(want, c.keep)
		}
		if len(want) == 0 {
			t.Errorf("%s: the truth has no such rows; the case checks nothing", c.path)
		}
		checkOutputItems(t, c.path, walkAll[tables.OutputItemJSON](t, e, c.path, 3), want)
	}
}

// chainListCases query alias, NFT and foundry lists by each role the sim fills.
func (e *env) chainListCases() []outputCase {
	var cases []outputCase
	for _, q := range []struct {
		route, param, column string
		kind                 chain.OutputKind
	}{
		{"/aliases", "stateController", "state_controller", chain.OutputAlias},
		{"/aliases", "governor", "governor", chain.OutputAlias},
		{"/nft", "address", "address", chain.OutputNFT},
		{"/nft", "issuer", "issuer", chain.OutputNFT},
		{"/foundries", "address", "address", chain.OutputFoundry},
	} {
		v := e.busiest(q.kind, q.column)
		cases = append(cases, outputCase{path: q.route + "?" + q.param + "=" + url.QueryEscape(v), kind: q.kind,
			match: hasRole(q.column, v)})
	}
	return cases
}

func filterWant(ws []wantOutput, keep func(wantOutput) bool) []wantOutput {
	var out []wantOutput
	for _, w := range ws {
		if keep(w) {
			out = append(out, w)
		}
	}
	return out
}

// testVersions: GET /aliases/{id}, /nft/{id}, /foundries/{id} list every version.
func testVersions(t *testing.T, e *env) {
	routes := map[chain.OutputKind]string{chain.OutputAlias: "/aliases/", chain.OutputNFT: "/nft/",
		chain.OutputFoundry: "/foundries/"}
	for kind, route := range routes {
		keys := map[string]bool{}
		for id, ot := range e.truth.Outputs {
			if ot.Output.Kind == kind {
				keys[chainKey(id, &ot.Output)] = true
			}
		}
		if len(keys) == 0 {
			t.Errorf("the truth has no %s outputs", kind)
		}
		for key := range keys {
			want := e.outputs(kind, func(id chain.OutputID, o *chain.Output) bool { return chainKey(id, o) == key })
			checkOutputItems(t, route+key, walkAll[tables.OutputItemJSON](t, e, route+key, 2), want)
		}
	}
}
