package api

import (
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// chronicleActivityFamilies are the families written with every milestone, which must
// equal inx-chronicle's own figures.
var chronicleActivityFamilies = []string{"block_activity", "milestone_size", "active_addresses", "base_tokens",
	"output_activity", "transaction_size"}

// chronicleFigure is one of inx-chronicle's figures: its value, and whether Chronicle
// names it as an amount (a trailing ".0" field).
type chronicleFigure struct {
	value  int64
	amount bool
}

// chronicleFigures are inx-chronicle's figures of milestones 17339-17340 (realdata's
// loader): per milestone, "<family>.<path>" to the figure.
func chronicleFigures(t *testing.T) map[string]map[string]chronicleFigure {
	t.Helper()
	byMilestone, err := realdata.ChronicleAnalytics()
	if err != nil {
		t.Fatal(err)
	}
	amounts, err := realdata.ChronicleAmounts()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]chronicleFigure{}
	for index, families := range byMilestone {
		ms := map[string]chronicleFigure{}
		for family, figures := range families {
			for path, v := range figures {
				key := family + "." + path
				ms[key] = chronicleFigure{value: v, amount: amounts[key]}
			}
		}
		out[strconv.FormatUint(uint64(index), 10)] = ms
	}
	return out
}

// TestFamiliesChronicleFigures: over the real milestones 17339-17340, ingested with the
// analytics rows, GET /api/analytics/v2/milestones/{index} gives every activity figure
// of inx-chronicle's own measurements, by value (numbers, or amounts as decimal strings).
func TestFamiliesChronicleFigures(t *testing.T) {
	e := newRealEnv(t)
	want := chronicleFigures(t)
	if len(want) != 2 {
		t.Fatalf("the data file holds milestones %v, want 17339 and 17340", want)
	}
	for index, figures := range want {
		var got milestoneFamiliesAnswer
		path := analytics.FamiliesPrefix + "/milestones/" + index
		if code := e.getNumbers(t, path, &got); code != http.StatusOK {
			t.Fatalf("GET %s: %d", path, code)
		}
		compared := 0
		for key, v := range figures {
			family, figure, _ := strings.Cut(key, ".")
			if !slices.Contains(chronicleActivityFamilies, family) {
				continue
			}
			compared++
			flat := leaves("", map[string]any(got.Families[family]), map[string]any{})
			if !sameValue(flat[figure], v.value) {
				t.Errorf("milestone %s: %s = %#v, Chronicle's %d", index, key, flat[figure], v.value)
			}
		}
		if compared == 0 {
			t.Errorf("milestone %s: no activity figure in the data file", index)
		}
		t.Logf("milestone %s: %d activity figures compared", index, compared)
	}
}

// sameValue says whether an answer's figure (a number, or a decimal string for amounts)
// has the value of Chronicle's.
func sameValue(got any, want int64) bool {
	g, ok := new(big.Int).SetString(fmt.Sprint(got), 10)
	return ok && g.Cmp(big.NewInt(want)) == 0
}
