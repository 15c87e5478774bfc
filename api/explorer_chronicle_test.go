package api

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// TestExplorerChronicleRealNetwork checks the routes that follow inx-chronicle's explorer
// on Shimmer milestones 17339-17340: their shapes against Chronicle's response types, a
// block's children against the parents the blocks' bytes name, the milestones by time
// against the data's timestamps, startMilestoneIndex in both sorts, GET /routes and
// the 400s; then the explorer's own calls (explorerClient).
func TestExplorerChronicleRealNetwork(t *testing.T) {
	e := newRealEnv(t)
	t.Run("shapes", e.testChronicleShapes)
	t.Run("children", e.testChildren)
	t.Run("milestones_by_time", e.testMilestonesByTime)
	t.Run("start_milestone_index", e.testStartMilestoneIndex)
	t.Run("routes", e.testRouteList)
	t.Run("bad_parameters", e.testChronicleBadParams)
	t.Run("explorer_client", e.testExplorerClient)
}

// chronicleShapes are the JSON types of the fields of Chronicle's responses
// (api/explorer/responses.rs, api/responses.rs): "?" marks an Option, which serde writes
// as null and this API leaves out.
var chronicleShapes = map[string]map[string]string{
	"BlockChildrenResponse": {"blockId": "string", "maxResults": "number", "count": "number",
		"children": "[]string"},
	"MilestonesResponse":             {"items": "[]object", "cursor": "?string"},
	"MilestoneDto":                   {"milestoneId": "string", "index": "number"},
	"RoutesResponse":                 {"routes": "[]string"},
	"LedgerUpdatesByAddressResponse": {"address": "string", "items": "[]object", "cursor": "?string"},
	"LedgerUpdateByAddressDto": {"outputId": "string", "isSpent": "boolean", "milestoneIndex": "number",
		"milestoneTimestamp": "number"},
}

// checkShape fails unless obj has every field of Chronicle's type with its JSON type.
func checkShape(t *testing.T, what string, obj map[string]any) {
	t.Helper()
	for field, want := range chronicleShapes[what] {
		v, ok := obj[field]
		if !ok && strings.HasPrefix(want, "?") {
			continue
		}
		if got := jsonType(v); !ok || got != strings.TrimPrefix(want, "?") {
			t.Errorf("%s.%s: %s (present %v), want %s", what, field, got, ok, want)
		}
	}
}

func jsonType(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		if len(v) == 0 {
			return "[]"
		}
		return "[]" + jsonType(v[0])
	}
	return fmt.Sprintf("%T", v)
}

func (e *realEnv) testChronicleShapes(t *testing.T) {
	block := chain.MessageID(e.set.Milestones[e.set.Lowest()].Cone[0].ID).String()
	var children, milestones, routes, updates map[string]any
	e.mustGet(t, explorerPath+"/blocks/"+block+"/children", &children)
	checkShape(t, "BlockChildrenResponse", children)
	e.mustGet(t, explorerPath+"/milestones?pageSize=1", &milestones)
	checkShape(t, "MilestonesResponse", milestones)
	checkShape(t, "MilestoneDto", milestones["items"].([]any)[0].(map[string]any))
	e.mustGet(t, "/routes", &routes)
	checkShape(t, "RoutesResponse", routes)
	owner := e.owner(outputOf(t, e.set.Milestones[e.set.Lowest()].Created[0].Raw))
	e.mustGet(t, explorerPath+"/ledger/updates/by-address/"+owner+"?pageSize=1", &updates)
	checkShape(t, "LedgerUpdatesByAddressResponse", updates)
	checkShape(t, "LedgerUpdateByAddressDto", updates["items"].([]any)[0].(map[string]any))
}

// childrenOfData are the children of every block of the cones: the blocks of the cones
// whose bytes name it as a parent (the data holds no block of a later milestone).
func (e *realEnv) childrenOfData(t *testing.T) map[string][]string {
	children := map[string][]string{}
	e.forEachBlock(t, func(_ uint32, b realdata.Block) {
		m, err := chain.DecodeMessage(b.Raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m.Parents {
			children[p.String()] = append(children[p.String()], chain.MessageID(b.ID).String())
		}
	})
	return children
}

// testChildren: every block's children, read a page of 1 and of 100 at a time, and of
// 5000 (answered as 1000), equal the data's; a block not indexed is a 404.
func (e *realEnv) testChildren(t *testing.T) {
	want := e.childrenOfData(t)
	withChildren := 0
	e.forEachBlock(t, func(_ uint32, b realdata.Block) {
		id := chain.MessageID(b.ID).String()
		w := slices.Sorted(slices.Values(want[id]))
		if len(w) > 0 {
			withChildren++
		}
		for _, size := range []int{1, 100} {
			got := e.allChildren(t, id, size)
			if !slices.Equal(slices.Sorted(slices.Values(got)), w) {
				t.Errorf("children of %s (pageSize %d):\n got %v\nwant %v", id, size, got, w)
			}
		}
		// Above the maximum: the maximum, as Chronicle, and maxResults says so.
		var clamped explorer.BlockChildrenJSON
		e.mustGet(t, explorerPath+"/blocks/"+id+"/children?pageSize=5000", &clamped)
		if clamped.MaxResults != rest.MaxPageSize || !slices.Equal(slices.Sorted(slices.Values(clamped.Children)), w) {
			t.Errorf("children of %s (pageSize 5000): maxResults %d, %v; want %d, %v", id, clamped.MaxResults,
				clamped.Children, rest.MaxPageSize, w)
		}
	})
	if withChildren == 0 {
		t.Fatal("no block of the data has a child in the data")
	}
	unknown := chain.MessageID{1}.String()
	if code := e.get(t, explorerPath+"/blocks/"+unknown+"/children", nil); code != http.StatusNotFound {
		t.Errorf("children of an unknown block: %d, want 404", code)
	}
}

// allChildren pages a block's children by page number until a page comes back short.
func (e *realEnv) allChildren(t *testing.T, id string, size int) []string {
	var out []string
	for page := 0; ; page++ {
		var p explorer.BlockChildrenJSON
		e.mustGet(t, fmt.Sprintf("%s/blocks/%s/children?pageSize=%d&page=%d", explorerPath, id, size, page), &p)
		if p.BlockID != id || p.MaxResults != size || p.Count != len(p.Children) {
			t.Fatalf("children page %d of %s: %+v", page, id, p)
		}
		out = append(out, p.Children...)
		if p.Count < size {
			return out
		}
	}
}

// testMilestonesByTime: for bounds around each milestone's timestamp, both sorts and
// pages of 1 and 100, the list is the data's milestones whose timestamps lie within the
// bounds (both inclusive); an end before the start is a 400.
func (e *realEnv) testMilestonesByTime(t *testing.T) {
	var bounds []int64
	for _, ms := range e.set.Milestones {
		bounds = append(bounds, int64(ms.Timestamp)-1, int64(ms.Timestamp), int64(ms.Timestamp)+1)
	}
	bounds = append(bounds, -1) // -1: no bound
	checked := 0
	for _, start := range bounds {
		for _, end := range bounds {
			if start >= 0 && end >= 0 && end < start {
				continue
			}
			for _, sort := range []string{"newest", "oldest"} {
				for _, size := range []int{1, 100} {
					checked += e.checkMilestoneList(t, start, end, sort, size)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no bounds held a milestone")
	}
}

func (e *realEnv) checkMilestoneList(t *testing.T, start, end int64, sort string, size int) int {
	var want []string
	for _, index := range slices.Sorted(maps.Keys(e.set.Milestones)) {
		ms := e.set.Milestones[index]
		if (start < 0 || int64(ms.Timestamp) >= start) && (end < 0 || int64(ms.Timestamp) <= end) {
			want = append(want, fmt.Sprintf("%d %s %d", index, chain.MilestoneID(ms.MilestoneID), ms.Timestamp))
		}
	}
	if sort == "newest" {
		slices.Reverse(want)
	}
	q := milestoneListQuery(start, end, sort)
	if got := milestoneListPages(t, e.env, q, size); !slices.Equal(got, want) {
		t.Errorf("milestones%s pageSize %d:\n got %v\nwant %v", q, size, got, want)
	}
	return len(want)
}

// testStartMilestoneIndex: on Chronicle's path, startMilestoneIndex=N lists an address's
// updates of milestones before N (newest) or after N (oldest), in the order of the full
// feed; on this API's own path it stays a lower bound whatever the sort.
func (e *realEnv) testStartMilestoneIndex(t *testing.T) {
	owners := map[string]bool{}
	for _, ms := range e.set.Milestones {
		for _, o := range ms.Created {
			owners[e.owner(outputOf(t, o.Raw))] = true
		}
	}
	spanning := 0
	for a := range owners {
		for _, sort := range []string{"newest", "oldest"} {
			all := historyIDs(t, e.env, explorerPath+"/addresses/"+a+"/history?sort="+sort, 100)
			if slices.ContainsFunc(all, func(s string) bool { return strings.HasPrefix(s, "17339 ") }) &&
				slices.ContainsFunc(all, func(s string) bool { return strings.HasPrefix(s, "17340 ") }) {
				spanning++
			}
			for n := e.set.Lowest() - 1; n <= e.set.Highest()+1; n++ {
				var want, own []string
				for _, u := range all {
					var index uint32
					fmt.Sscan(u, &index)
					if sort == "newest" && index < n || sort == "oldest" && index > n {
						want = append(want, u)
					}
					if index >= n {
						own = append(own, u)
					}
				}
				q := fmt.Sprintf("?sort=%s&startMilestoneIndex=%d", sort, n)
				got := historyIDs(t, e.env, explorerPath+"/ledger/updates/by-address/"+a+q, 2)
				if !slices.Equal(got, want) {
					t.Errorf("by-address %s%s:\n got %v\nwant %v", a, q, got, want)
				}
				if got := historyIDs(t, e.env, explorerPath+"/addresses/"+a+"/history"+q, 2); !slices.Equal(got, own) {
					t.Errorf("history %s%s:\n got %v\nwant %v", a, q, got, own)
				}
			}
		}
	}
	if spanning == 0 {
		t.Fatal("no address has updates in both milestones: the test shows nothing")
	}
}

// historyIDs pages a ledger-update feed: "milestone outputId spent" per item.
func historyIDs(t *testing.T, e *env, path string, size int) []string {
	var out []string
	for _, p := range getPages(t, e, path, size, func(p *explorer.HistoryJSON) string { return p.Cursor }) {
		for _, it := range p.Items {
			out = append(out, fmt.Sprintf("%d %s %v", it.MilestoneIndex, it.OutputID, it.IsSpent))
		}
	}
	return out
}

// testRouteList: GET /routes cuts every documented path to depth segments as
// Chronicle's list_routes does (default 3), sorted, without repeats.
func (e *realEnv) testRouteList(t *testing.T) {
	var doc struct {
		Paths map[string]any `json:"paths"`
	}
	e.mustGet(t, "/openapi.json", &doc)
	for _, depth := range []int{-1, 0, 1, 3, 6} {
		set := map[string]bool{}
		for p := range doc.Paths {
			pieces := strings.Split(strings.Trim(p, "/"), "/")
			d := depth
			if d < 0 {
				d = explorer.DefaultRouteDepth
			}
			set[strings.Join(pieces[:min(d, len(pieces))], "/")] = true
		}
		want := slices.Sorted(maps.Keys(set))
		path := "/routes"
		if depth >= 0 {
			path += fmt.Sprint("?depth=", depth)
		}
		var got explorer.RouteListJSON
		e.mustGet(t, path, &got)
		if !slices.Equal(got.Routes, want) {
			t.Errorf("GET %s:\n got %v\nwant %v", path, got.Routes, want)
		}
	}
	var got explorer.RouteListJSON
	e.mustGet(t, "/routes", &got)
	for _, r := range []string{"api/explorer/v2", "api/core/v2", "api/indexer/v1", "routes"} {
		if !slices.Contains(got.Routes, r) {
			t.Errorf("GET /routes lacks %s: %v", r, got.Routes)
		}
	}
}

// testChronicleBadParams: malformed parameters of the Chronicle routes are 400s naming
// the parameter.
func (e *realEnv) testChronicleBadParams(t *testing.T) {
	block := chain.MessageID(e.set.Milestones[e.set.Lowest()].Cone[0].ID).String()
	children := explorerPath + "/blocks/" + block + "/children"
	wantBadParams(t, e.env, map[string]string{
		explorerPath + "/blocks/0x12/children":                         "blockId",
		children + "?pageSize=0":                                       "pageSize",
		children + "?pageSize=1001x":                                   "pageSize",
		children + "?page=x":                                           "page",
		children + "?page=100":                                         "page", // past the children read
		children + "?cursor=1":                                         `"cursor"`,
		explorerPath + "/milestones?startTimestamp=-1":                 "startTimestamp",
		explorerPath + "/milestones?endTimestamp=later":                "endTimestamp",
		explorerPath + "/milestones?startTimestamp=20&endTimestamp=10": "endTimestamp",
		explorerPath + "/milestones?sort=up":                           "sort",
		explorerPath + "/milestones?pageSize=0":                        "pageSize",
		explorerPath + "/milestones?cursor=abc":                        "cursor",
		explorerPath + "/milestones?cursor=17339.0":                    "cursor",
		explorerPath + "/milestones?cursor=x.5":                        "cursor",
		explorerPath + "/milestones?start=1":                           `"start"`,
		"/routes?depth=-1":                                             "depth",
		explorerPath + "/ledger/updates/by-address/x?sort=newest":      "address",
		explorerPath + "/ledger/updates/by-address/0x12":               "address",
		"/routes?depth=x":                                              "depth",
	})
	var p explorer.MilestonesJSON
	if code := e.get(t, explorerPath+"/milestones?startTimestamp=4294967295", &p); code != http.StatusOK || len(p.Items) != 0 {
		t.Errorf("milestones after the last second: %d %+v, want 200 and none", code, p)
	}
}

// wantBadParams fails unless each path is a 400 whose detail names its parameter.
func wantBadParams(t *testing.T, e *env, cases map[string]string) {
	t.Helper()
	for path, name := range cases {
		code, body := e.fetch(t, path)
		if code != http.StatusBadRequest || !strings.Contains(string(body), `"detail":"`+strings.ReplaceAll(name, `"`, `\"`)+":") {
			t.Errorf("GET %s: %d %s, want 400 naming %s", path, code, body, name)
		}
	}
}
