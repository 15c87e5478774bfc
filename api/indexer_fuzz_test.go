package api

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/ledgerquery"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// FuzzTip26Params: any query against any TIP-26 route parses or is refused with a 4xx;
// what parses is within bounds, and a cursor taken (in its own order) re-encodes to what was sent.
func FuzzTip26Params(f *testing.F) {
	var routes []rest.Route
	for _, rt := range New(store.New(nil, testChunk), Config{}).routes {
		if strings.HasPrefix(rt.Pattern, indexer.Tip26Prefix) {
			routes = append(routes, rt)
		}
	}
	addr := "smr1qqs2qqenvrz4yuzvg4u83882d6d29ygvqg3t6lwejp5ch54lxhrgzl3elje"
	cursor := ledgerquery.EncodeCursor(store.Position{CreatedAt: 1664582400, OutputID: "0x" + strings.Repeat("ab", 34)}, 7)
	for i := range routes {
		f.Add(uint8(i), "0x"+strings.Repeat("ab", 32), "address="+addr+"&hasNativeTokens=true&pageSize=10")
		f.Add(uint8(i), "0x08"+strings.Repeat("ab", 37), "cursor="+cursor+"&createdAfter=1&createdBefore=4294967295")
		f.Add(uint8(i), "x", "minNativeTokenCount=64&maxNativeTokenCount=65&tag=0x00&expiresBefore=-1")
		f.Add(uint8(i), "", "cursor="+strings.ToUpper(cursor[:76])+".1000&pageSize=0&unlockableByAddress="+addr)
		f.Add(uint8(i), "", "timelockedAfter=99999999999&hasTimelock=1&stateController="+addr+"&foo")
		f.Add(uint8(i), "", "sort=newest&includeSpent=false&cursor="+cursor+".newest")
		f.Add(uint8(i), "", "sort=oldest&includeSpent=1&cursor="+cursor+".newest")
	}
	f.Fuzz(func(t *testing.T, which uint8, pathValue, rawQuery string) {
		rt := &routes[int(which)%len(routes)]
		in, err := rest.ParseInput(rt, func(string) string { return pathValue }, rawQuery)
		if err != nil {
			checkClientError(t, err, "")
			return
		}
		in.Localize("smr") // as the server does before the handler
		var p allTip26Params
		if err := rest.FillParams(reflect.ValueOf(&p).Elem(), rest.ParamFields(reflect.TypeFor[allTip26Params](), nil), in); err != nil {
			t.Fatal(err)
		}
		start, size := p.Page()
		newest, orderErr := p.OrderParams.Newest(p.Cursor)
		if orderErr != nil {
			checkClientError(t, orderErr, "cursor")
			return
		}
		if size < 1 || size > indexer.Tip26MaxPageSize {
			t.Errorf("page size %d accepted", size)
		}
		if start != nil {
			q, _ := url.ParseQuery(rawQuery)
			sent := q.Get("cursor")
			if again := ledgerquery.EncodeSortedCursor(*start, size, newest); again != strings.ToLower(sent) {
				t.Errorf("cursor %q taken as %+v, which encodes as %q", sent, *start, again)
			}
		}
		for _, n := range []*int32{p.MinNativeTokens, p.MaxNativeTokens} {
			if n != nil && (*n < 0 || *n > 64) {
				t.Errorf("native token count %d accepted", *n)
			}
		}
	})
}

// allTip26Params holds every TIP-26 list parameter: what any list route accepts fills it.
type allTip26Params struct {
	indexer.TokenParams
	indexer.ConditionParams
	indexer.SenderParams
	indexer.TagParams
	indexer.IssuerParams
	indexer.AliasRoleParams
	indexer.AliasAddressParams
	indexer.TailParams
	indexer.OrderParams
}
