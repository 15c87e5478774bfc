package api

import (
	"context"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// testTip26IncludeSpent: on inx-chronicle's routes, includeSpent=true pages through
// exactly the model's outputs of every filter, spent or not, in either order and over
// any page size, and says the spent outputs are all there.
func testTip26IncludeSpent(t *testing.T, e *env, every []unspentModel) {
	spent := 0
	for _, c := range tip26Cases(valuesOf(every)) {
		if c.route == "" {
			continue // inx-indexer's generic route: no includeSpent
		}
		want := c.wanted(every)
		spent += countSpent(e, want)
		c.query += "&includeSpent=true"
		for _, size := range []int{1, 7, 100} {
			if size == 1 && len(want) > 60 {
				continue
			}
			if got := e.tip26Walk(t, c.path(), size); !slices.Equal(got, want) {
				t.Errorf("GET %s pageSize %d: %d items, want %d\n got %v\nwant %v", c.path(), size, len(got),
					len(want), got, want)
			}
			newest := c
			newest.query += "&sort=newest"
			if got := e.tip26Walk(t, newest.path(), size); !slices.Equal(got, reversed(want)) {
				t.Errorf("GET %s pageSize %d: %d items, want %d in reverse", newest.path(), size, len(got), len(want))
			}
		}
		var ans indexer.OutputsJSON
		if e.mustGet(t, c.path(), &ans); ans.SpentPartial {
			t.Errorf("GET %s: spentPartial in a keyspace indexed with the spent outputs", c.path())
		}
	}
	if spent == 0 {
		t.Fatal("no spent output in any case's answer: the test checks nothing")
	}
}

// wanted lists the model's outputs c answers, in TIP-26 order.
func (c tip26Case) wanted(model []unspentModel) []string {
	var out []string
	for i := range model {
		if c.covers(&model[i]) && c.want(&model[i]) {
			out = append(out, model[i].id)
		}
	}
	return out
}

// countSpent counts the outputs of ids the sim spent.
func countSpent(e *env, ids []string) int {
	spent := map[string]bool{}
	for id, ot := range e.truth.Outputs {
		spent[id.String()] = ot.Spent
	}
	n := 0
	for _, id := range ids {
		if spent[id] {
			n++
		}
	}
	return n
}

func reversed(s []string) []string {
	out := slices.Clone(s)
	slices.Reverse(out)
	return out
}

// testTip26SpentRewrite: writing again every milestone that spent an output (as a
// re-ingest does) leaves includeSpent=true's answers as they were: no output twice.
func testTip26SpentRewrite(t *testing.T, e *env, every []unspentModel) {
	ctx := context.Background()
	opts := indexerSim
	opts.Tip = indexerChain + 1 // as newEnv made it
	src := sim.New(opts)
	spends := map[uint32]bool{}
	for _, ot := range e.truth.Outputs {
		if ot.Spent {
			spends[ot.SpentMilestone] = true
		}
	}
	for index := range spends {
		vm, err := src.Milestone(ctx, index)
		if err != nil {
			t.Fatal(err)
		}
		cm := vm.Confirmed()
		if err := e.st.Apply(ctx, e.st.MilestoneWrites(cm, 1, nil).Writes, 8); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for _, m := range every {
		if m.kind == "basic" {
			want = append(want, m.id)
		}
	}
	path := indexer.Tip26Prefix + "/outputs/basic?includeSpent=true"
	if got := e.tip26Walk(t, path, 50); !slices.Equal(got, want) {
		t.Errorf("GET %s after writing %d milestones again: %d items, want %d", path, len(spends), len(got), len(want))
	}
}
