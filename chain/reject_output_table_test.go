package chain_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The TIP-18 table of what each output type accepts (stardust-wire.md section 5): every
// unlock condition, feature and immutable feature type is tried on every output type,
// one at a time on top of the required conditions.

var outputTable = map[chain.OutputKind]struct{ conds, feats, imm []int }{
	chain.OutputBasic:   {conds: []int{0, 1, 2, 3}, feats: []int{0, 2, 3}},
	chain.OutputAlias:   {conds: []int{4, 5}, feats: []int{0, 2}, imm: []int{1, 2}},
	chain.OutputFoundry: {conds: []int{6}, feats: []int{2}, imm: []int{2}},
	chain.OutputNFT:     {conds: []int{0, 1, 2, 3}, feats: []int{0, 2, 3}, imm: []int{1, 2}},
}

func TestOutputTableConditions(t *testing.T) {
	for kind, allowed := range outputTable {
		for typ := 0; typ <= 7; typ++ {
			t.Run(fmt.Sprintf("%s-%d", kind, typ), func(t *testing.T) {
				o := minimalOutput(kind)
				types := requiredConds(kind)
				if !slices.Contains(types, typ) {
					types = append(types, typ)
				}
				o.conds = withSorted(types, condEntry)
				checkTable(t, o.encode(), slices.Contains(allowed.conds, typ),
					fmt.Sprintf("output.unlockConditions[%d].type", slices.Index(sortedCopy(types), typ)),
					fmt.Sprintf("unlock condition type %d not allowed in %s output", typ, kind))
			})
		}
	}
}

func TestOutputTableFeatures(t *testing.T) {
	checkFeatureTable(t, "output.features", "feature", func(kind chain.OutputKind) ([]int, bool) {
		return outputTable[kind].feats, true
	}, func(o *outputBytes, entries [][]byte) { o.feats = entries })
}

func TestOutputTableImmutableFeatures(t *testing.T) {
	checkFeatureTable(t, "output.immutableFeatures", "immutable feature", func(kind chain.OutputKind) ([]int, bool) {
		return outputTable[kind].imm, kind != chain.OutputBasic // basic: no immutable features field at all
	}, func(o *outputBytes, entries [][]byte) { o.imm = entries })
}

// checkFeatureTable tries every feature type 0..4 alone in one feature list (put there by
// set) of every output kind that has the list, against the types allowed there.
func checkFeatureTable(t *testing.T, list, what string, allowedIn func(chain.OutputKind) ([]int, bool),
	set func(o *outputBytes, entries [][]byte)) {
	for kind := range outputTable {
		allowed, has := allowedIn(kind)
		if !has {
			continue
		}
		for typ := 0; typ <= 4; typ++ {
			t.Run(fmt.Sprintf("%s-%d", kind, typ), func(t *testing.T) {
				o := minimalOutput(kind)
				set(&o, [][]byte{featEntry(typ)})
				checkTable(t, o.encode(), slices.Contains(allowed, typ), list+"[0].type",
					fmt.Sprintf("%s type %d not allowed in %s output", what, typ, kind))
			})
		}
	}
}

// TestOutputTableAllAtOnce puts every allowed type on each kind together.
func TestOutputTableAllAtOnce(t *testing.T) {
	for kind, allowed := range outputTable {
		o := minimalOutput(kind)
		o.conds = withSorted(allowed.conds, condEntry)
		o.feats = withSorted(allowed.feats, featEntry)
		o.imm = withSorted(allowed.imm, featEntry)
		checkTable(t, o.encode(), true, "", "")
	}
}

func TestOutputRequiredConditions(t *testing.T) {
	for kind := range outputTable {
		for _, missing := range requiredConds(kind) {
			o := minimalOutput(kind)
			var keep []int
			for _, c := range requiredConds(kind) {
				if c != missing {
					keep = append(keep, c)
				}
			}
			o.conds = withSorted(keep, condEntry)
			wantField(t, decodeOutputErr(o.encode()), "output.unlockConditions",
				fmt.Sprintf("%s output lacks a required unlock condition", kind))
		}
	}
}

func checkTable(t *testing.T, raw []byte, allowed bool, field, reason string) {
	t.Helper()
	out, err := chain.DecodeOutput(raw)
	if allowed {
		if err != nil {
			t.Fatalf("allowed by TIP-18 but refused: %v", err)
		}
		if got := chain.EncodeOutput(out); string(got) != string(raw) {
			t.Fatalf("re-encoding differs:\n%x\n%x", raw, got)
		}
		return
	}
	wantField(t, err, field, reason)
}

func sortedCopy(s []int) []int {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
