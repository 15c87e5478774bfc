package analytics

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// nestFigures is a family's figures as JSON: nested by their '.'-joined paths
// ({"nft": {"created_count": 0}}), amounts as decimal strings, other figures as numbers.
// A path that is both a figure and the prefix of another is an error: the stored row
// does not follow the contract.
func nestFigures(figures map[string]int64) (rest.Object, error) {
	out := rest.Object{}
	for _, path := range slices.Sorted(maps.Keys(figures)) {
		segments := strings.Split(path, ".")
		node := out
		for _, seg := range segments[:len(segments)-1] {
			next, ok := node[seg].(rest.Object)
			if !ok {
				if _, taken := node[seg]; taken {
					return nil, fmt.Errorf("figure %q lies under another figure", path)
				}
				next = rest.Object{}
				node[seg] = next
			}
			node = next
		}
		last := segments[len(segments)-1]
		if _, taken := node[last]; taken {
			return nil, fmt.Errorf("figure %q has figures under it", path)
		}
		node[last] = figureValue(path, figures[path])
	}
	return out, nil
}

func figureValue(path string, v int64) any {
	if isAmount(path) {
		return strconv.FormatInt(v, 10)
	}
	return v
}

// familyPointJSON is one milestone's figures of a family; the protocol parameters'
// points also carry the TIP-25 protocol object.
type familyPointJSON struct {
	MilestoneIndex     uint32          `json:"milestoneIndex"`
	MilestoneTimestamp int64           `json:"milestoneTimestamp"` // unix seconds
	Figures            rest.Object     `json:"figures"`
	Parameters         json.RawMessage `json:"parameters,omitempty"`
}

// pointJSON is p's JSON form.
func pointJSON(p store.FamilyPoint) (familyPointJSON, error) {
	figures, err := nestFigures(p.Figures)
	if err != nil {
		return familyPointJSON{}, fmt.Errorf("%s of milestone %d: %w", p.Family, p.Index, err)
	}
	out := familyPointJSON{MilestoneIndex: p.Index, MilestoneTimestamp: rest.UnixTime(p.Timestamp), Figures: figures}
	if p.Detail != "" {
		if !json.Valid([]byte(p.Detail)) {
			return familyPointJSON{}, fmt.Errorf("%s of milestone %d: its detail is not JSON", p.Family, p.Index)
		}
		out.Parameters = json.RawMessage(p.Detail)
	}
	return out, nil
}
