package api

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// BenchmarkTypedParams prints the cost of handing a handler its parameter struct: a
// TIP-26 list request parsed alone, and parsed then filled into basicParams, side by
// side in one run (docs/benchmarks.md). No database: the handler does nothing else.
func BenchmarkTypedParams(b *testing.B) {
	query := "address=smr1qqs2qqenvrz4yuzvg4u83882d6d29ygvqg3t6lwejp5ch54lxhrgzl3elje&hasNativeTokens=false" +
		"&minNativeTokenCount=0&createdAfter=1664582400&pageSize=100&sort=newest&includeSpent=false"
	var rt rest.Route
	for _, r := range New(store.New(nil, testChunk), Config{}).routes {
		if r.Pattern == indexer.Tip26Prefix+"/outputs/basic" {
			rt = r
		}
	}
	fields := rest.ParamFields(reflect.TypeFor[indexer.BasicParams](), nil)
	perOp := func(fill bool) time.Duration {
		start := time.Now()
		const n = 200000
		for range n {
			in, err := rest.ParseInput(&rt, nil, query)
			if err != nil {
				b.Fatal(err)
			}
			if fill {
				var p indexer.BasicParams
				if err := rest.FillParams(reflect.ValueOf(&p).Elem(), fields, in); err != nil {
					b.Fatal(err)
				}
			}
		}
		return time.Since(start) / n
	}
	for range b.N {
		parse, filled := perOp(false), perOp(true)
		fmt.Printf("parse %v/request, parse and fill %v/request: the fill costs %v (%.2fx)\n", parse, filled,
			filled-parse, float64(filled)/float64(parse))
	}
}
