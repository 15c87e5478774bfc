package analytics

import (
	"math"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// activeAddresses is Chronicle's ActiveAddresses per milestone: the distinct owners of
// the included transactions' inputs (expiration judged at the spend) and outputs
// (Owner: no expiration judged).
func activeAddresses(txs []txChange) map[string]int64 {
	seen := map[chain.Address]bool{}
	for _, tx := range txs {
		for _, ls := range tx.consumed {
			if a, ok := ownerAt(&ls.Output, ls.SpentTimestamp.Unix()); ok {
				seen[a] = true
			}
		}
		for _, lo := range tx.created {
			if a, ok := Owner(&lo.Output); ok {
				seen[a] = true
			}
		}
	}
	return map[string]int64{"count": int64(len(seen))}
}

// baseTokens is Chronicle's BaseTokenActivity. Per transaction, each owner's balance
// change is what its outputs received (owner judged at the milestone's timestamp) less
// what its inputs held (owner judged at the spend); booked_amount adds up what the
// outputs received, transferred_amount the owners' gains (losses count as nothing), so
// tokens an address sends back to itself are not transferred.
func baseTokens(txs []txChange, at int64) map[string]int64 {
	var booked, transferred int64
	for _, tx := range txs {
		delta := map[chain.Address]int64{}
		for _, lo := range tx.created {
			if a, ok := ownerAt(&lo.Output, at); ok {
				delta[a] += int64(lo.Output.Amount)
				booked += int64(lo.Output.Amount)
			}
		}
		for _, ls := range tx.consumed {
			if a, ok := ownerAt(&ls.Output, ls.SpentTimestamp.Unix()); ok {
				delta[a] -= int64(ls.Output.Amount)
			}
		}
		for _, d := range delta {
			transferred += max(d, 0)
		}
	}
	return map[string]int64{"booked_amount": booked, "transferred_amount": transferred}
}

// transactionSize is Chronicle's TransactionSizeDistribution: the included
// transactions counted by their number of inputs and, apart, of outputs. A count of
// zero (a transaction whose inputs the ledger changes lack) falls in no bucket; Chronicle
// fails the milestone there.
func transactionSize(txs []txChange) map[string]int64 {
	f := zeroFiguresOf(FamilyTransactionSize)
	for _, tx := range txs {
		if name, ok := sizeBucket(len(tx.consumed)); ok {
			f["input_buckets."+name]++
		}
		if name, ok := sizeBucket(len(tx.created)); ok {
			f["output_buckets."+name]++
		}
	}
	return f
}

// bucket is a size bucket: the counts above the previous bucket's bound up to upTo.
type bucket struct {
	name string
	upTo int
}

// sizeBuckets are Chronicle's buckets of a transaction's input or output count: 1..7
// one each, then [8, 16), [16, 32), [32, 64) and the rest (the protocol allows 128).
var sizeBuckets = []bucket{{"single(1)", 1}, {"single(2)", 2}, {"single(3)", 3}, {"single(4)", 4},
	{"single(5)", 5}, {"single(6)", 6}, {"single(7)", 7}, {"small", 15}, {"medium", 31}, {"large", 63},
	{"huge", math.MaxInt}}

// sizeBucket names the bucket of a count of at least one.
func sizeBucket(n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	for _, b := range sizeBuckets {
		if n <= b.upTo {
			return b.name, true
		}
	}
	return "", false
}
