package explorer

import (
	"reflect"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/store"
)

// TestHoldingsOf: who holds an output over which milestones, by the balance route's
// rule: its owner from creation to spend; with an expiration its owner until the first
// milestone at the expiration time and its return address from then on (both, when they
// are one address); none past the ledger index, and one holding per output whatever
// rows name it.
func TestHoldingsOf(t *testing.T) {
	exp := func(t int64) *int64 { return &t }
	const me, other = "me", "other"
	expiry := func(t int64) (uint32, error) { return map[int64]uint32{500: 50, 900: 0}[t], nil }
	for name, c := range map[string]struct {
		row  store.UnspentRow
		want []holding
	}{
		"owned, unspent":      {store.UnspentRow{Owner: me, MilestoneIndex: 10}, []holding{{from: 10}}},
		"owned, spent":        {store.UnspentRow{Owner: me, MilestoneIndex: 10, SpentMilestoneIndex: 30}, []holding{{from: 10, until: 30}}},
		"spent past ledger":   {store.UnspentRow{Owner: me, MilestoneIndex: 10, SpentMilestoneIndex: 120}, []holding{{from: 10}}},
		"created past ledger": {store.UnspentRow{Owner: me, MilestoneIndex: 101}, nil},
		"someone else's":      {store.UnspentRow{Owner: other, MilestoneIndex: 10}, nil},
		"genesis":             {store.UnspentRow{Owner: me}, []holding{{}}},
		"expires away": {store.UnspentRow{Owner: me, ExpirationReturnAddress: other, Expiration: exp(500), CreatedAt: 100,
			MilestoneIndex: 10}, []holding{{from: 10, until: 50}}},
		"expires to me": {store.UnspentRow{Owner: other, ExpirationReturnAddress: me, Expiration: exp(500), CreatedAt: 100,
			MilestoneIndex: 10, SpentMilestoneIndex: 70}, []holding{{from: 50, until: 70}}},
		"spent before it expires to me": {store.UnspentRow{Owner: other, ExpirationReturnAddress: me, Expiration: exp(500),
			CreatedAt: 100, MilestoneIndex: 10, SpentMilestoneIndex: 40}, nil},
		"not expired by the ledger index": {store.UnspentRow{Owner: other, ExpirationReturnAddress: me, Expiration: exp(900),
			CreatedAt: 100, MilestoneIndex: 10}, nil},
		"created expired": {store.UnspentRow{Owner: other, ExpirationReturnAddress: me, Expiration: exp(50), CreatedAt: 100,
			MilestoneIndex: 10}, []holding{{from: 10, createdAt: 100}}},
		"mine both ways": {store.UnspentRow{Owner: me, ExpirationReturnAddress: me, Expiration: exp(500), CreatedAt: 100,
			MilestoneIndex: 10}, []holding{{from: 10, createdAt: 100}}},
	} {
		c.row.OutputID = "o"
		rows := []store.UnspentRow{c.row, c.row} // an output in two roles
		got, err := holdingsOf(me, latestRows(rows), 100, expiry)
		for i := range c.want {
			c.want[i].outputID = "o"
			if c.want[i].from == 10 {
				c.want[i].createdAt = c.row.CreatedAt
			}
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v %v, want %+v", name, got, err, c.want)
		}
	}
}

// TestChangesIn: a holding is a gain at its start and a loss at its end, in milestone
// order, and balanceAfter sums what is held.
func TestChangesIn(t *testing.T) {
	hs := []holding{{outputID: "a", amount: 5, from: 3, until: 7}, {outputID: "b", amount: 2, from: 5}}
	want := []outputChange{{3, "a", 5}, {5, "b", 2}, {7, "a", -5}}
	if got := changesIn(hs, 1, 10); !reflect.DeepEqual(got, want) {
		t.Errorf("changes: %+v, want %+v", got, want)
	}
	if got := changesIn(hs, 4, 6); !reflect.DeepEqual(got, want[1:2]) {
		t.Errorf("changes in [4, 6]: %+v, want %+v", got, want[1:2])
	}
	for k, want := range map[uint32]int64{2: 0, 3: 5, 5: 7, 7: 2} {
		if got := balanceAfter(hs, k); got != want {
			t.Errorf("balance after %d: %d, want %d", k, got, want)
		}
	}
}
