package tip25

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// realBlocks returns every real block: the cones of milestones 17339 and 17340 and the 88
// blocks of milestone 2418187.
func realBlocks(t *testing.T) []realdata.Block {
	t.Helper()
	var out []realdata.Block
	for _, m := range realMilestones(t) {
		out = append(out, m.Cone...)
	}
	more, err := realdata.Blocks2418187()
	if err != nil {
		t.Fatal(err)
	}
	return append(out, more...)
}

// realMilestones returns milestones 17339 and 17340, in index order.
func realMilestones(t *testing.T) []*realdata.Milestone {
	t.Helper()
	set, err := realdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out []*realdata.Milestone
	for _, m := range set.Milestones {
		out = append(out, m)
	}
	slices.SortFunc(out, func(a, b *realdata.Milestone) int { return int(a.Index) - int(b.Index) })
	return out
}

// realOutputs returns every output record of both milestones, created then consumed.
func realOutputs(t *testing.T) []realdata.Output {
	t.Helper()
	var out []realdata.Output
	for _, m := range realMilestones(t) {
		out = append(out, m.Created...)
		for _, s := range m.Consumed {
			out = append(out, s.Output)
		}
	}
	return out
}

func marshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// generic turns JSON into maps, slices, strings, float64s and bools, to compare trees.
func generic(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	return v
}

// jsonDiff lists the paths where two generic JSON trees differ.
func jsonDiff(path string, got, want any) []string {
	gm, gok := got.(map[string]any)
	wm, wok := want.(map[string]any)
	if gok && wok {
		var out []string
		for _, k := range sortedKeys(gm, wm) {
			g, inG := gm[k]
			w, inW := wm[k]
			switch {
			case !inG:
				out = append(out, fmt.Sprintf("%s.%s: missing, want %v", path, k, w))
			case !inW:
				out = append(out, fmt.Sprintf("%s.%s: unexpected %v", path, k, g))
			default:
				out = append(out, jsonDiff(path+"."+k, g, w)...)
			}
		}
		return out
	}
	ga, gok := got.([]any)
	wa, wok := want.([]any)
	if gok && wok && len(ga) == len(wa) {
		var out []string
		for i := range ga {
			out = append(out, jsonDiff(fmt.Sprintf("%s[%d]", path, i), ga[i], wa[i])...)
		}
		return out
	}
	if !reflect.DeepEqual(got, want) {
		return []string{fmt.Sprintf("%s: got %v, want %v", path, got, want)}
	}
	return nil
}

func sortedKeys(ms ...map[string]any) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}
