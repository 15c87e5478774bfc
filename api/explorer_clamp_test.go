package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/analytics"
	"github.com/stardust-indexer/stardust-indexer/api/indexer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// testExplorerPageClamping: every explorer list answers a page size above the maximum
// with the maximum, as Chronicle does, and says so in maxResults: the answer to 5000 (or
// a number too long for an integer) is the answer to 1000, byte for byte; a size within
// the bounds is kept. TIP-26, the permanode's and the analytics lists still refuse it.
func testExplorerPageClamping(t *testing.T, e *env, w *explorerWant) {
	var address string
	for a := range w.updates {
		address = a
		break
	}
	var parent string
	for id, children := range e.truth.Children {
		if id != (chain.MessageID{}) && len(children) > 0 {
			parent = id.String()
			break
		}
	}
	ms := e.truth.Milestones[len(e.truth.Milestones)-1]
	lists := []string{
		explorerPath + "/blocks/" + parent + "/children?page=0",
		explorerPath + "/milestones?sort=oldest",
		explorerPath + "/addresses/" + address + "/history?sort=newest",
		explorerPath + "/ledger/updates/by-address/" + address + "?sort=oldest",
		fmt.Sprintf("%s/milestones/by-index/%d/blocks?sort=newest", explorerPath, ms.Index),
		fmt.Sprintf("%s/milestones/%s/blocks?sort=oldest", explorerPath, ms.MilestoneID),
		fmt.Sprintf("%s/milestones/by-index/%d/ledger-updates", explorerPath, ms.Index),
		fmt.Sprintf("%s/ledger/updates/by-milestone/%s", explorerPath, ms.MilestoneID),
	}
	for _, list := range lists {
		sized := func(size string) string {
			if strings.Contains(list, "?") {
				return list + "&pageSize=" + size
			}
			return list + "?pageSize=" + size
		}
		wantMax := e.pageAnswer(t, sized("1000"), 1000)
		for _, above := range []string{"1001", "5000", "99999999999999999999999"} {
			if got := e.pageAnswer(t, sized(above), 1000); !bytes.Equal(got, wantMax) {
				t.Errorf("%s:\n%.300s\nwant the answer to pageSize=1000:\n%.300s", sized(above), got, wantMax)
			}
		}
		e.pageAnswer(t, sized("7"), 7)
		e.pageAnswer(t, list, rest.DefaultPageSize)
	}
	// Chronicle's milestone cursor carries a page size: clamped too.
	e.pageAnswer(t, fmt.Sprintf("%s/milestones?cursor=%d.5000", explorerPath, ms.Index), 1000)
	if code, body := e.fetch(t, indexer.Tip26Prefix+"/outputs/basic?pageSize=5000"); code != http.StatusBadRequest ||
		!strings.Contains(string(body), "pageSize") {
		t.Errorf("TIP-26 pageSize=5000: %d %s; want 400 naming pageSize", code, body)
	}
	for path, name := range map[string]string{
		"/outputs?address=" + address + "&page_size=5000":            "page_size",
		analytics.FamiliesPrefix + "/block_activity?pageSize=5000":   "pageSize",
		explorerPath + "/milestones?pageSize=-5":                     "pageSize",
		explorerPath + "/milestones/by-index/1/blocks?pageSize=1e3":  "pageSize",
		explorerPath + "/blocks/" + parent + "/children?pageSize=+9": "pageSize",
	} {
		wantBadParams(t, e, map[string]string{path: name})
	}
}

// pageAnswer gets path, which must answer 200 with maxResults = want, and returns the body.
func (e *env) pageAnswer(t *testing.T, path string, want int) []byte {
	t.Helper()
	code, body := e.fetch(t, path)
	var got struct {
		MaxResults *int `json:"maxResults"`
	}
	if err := json.Unmarshal(body, &got); code != http.StatusOK || err != nil || got.MaxResults == nil ||
		*got.MaxResults != want {
		t.Errorf("GET %s: %d %.200s; want 200 with maxResults %d", path, code, body, want)
	}
	return body
}
