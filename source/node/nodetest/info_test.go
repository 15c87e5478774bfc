package nodetest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

func TestInfo(t *testing.T) {
	s, set := newServer(t)
	var info struct {
		Name   string `json:"name"`
		Status struct {
			IsHealthy          bool         `json:"isHealthy"`
			LatestMilestone    milestoneRef `json:"latestMilestone"`
			ConfirmedMilestone milestoneRef `json:"confirmedMilestone"`
			PruningIndex       uint32       `json:"pruningIndex"`
		} `json:"status"`
		Protocol  json.RawMessage `json:"protocol"`
		BaseToken json.RawMessage `json:"baseToken"`
	}
	getJSON(t, s, api("info"), &info)
	m := set.Milestones[17340]
	want := milestoneRef{17340, m.Timestamp, h0x(m.MilestoneID[:])}
	if info.Name != "HORNET" || !info.Status.IsHealthy || info.Status.ConfirmedMilestone != want ||
		info.Status.LatestMilestone != want || info.Status.PruningIndex != 17338 {
		t.Errorf("info %+v", info)
	}
	wantProto := `{"version":2,"networkName":"shimmer","bech32Hrp":"smr","minPowScore":1500,"belowMaxDepth":15,` +
		`"rentStructure":{"vByteCost":100,"vByteFactorData":1,"vByteFactorKey":10},"tokenSupply":"1813620509061365"}`
	wantToken := `{"name":"Shimmer","tickerSymbol":"SMR","unit":"SMR","subunit":"glow","decimals":6,"useMetricPrefix":false}`
	if !jsonEqual(t, info.Protocol, wantProto) || !jsonEqual(t, info.BaseToken, wantToken) {
		t.Errorf("protocol %s, base token %s", info.Protocol, info.BaseToken)
	}
}

func jsonEqual(t *testing.T, got json.RawMessage, want string) bool {
	t.Helper()
	var a, b any
	if json.Unmarshal(got, &a) != nil || json.Unmarshal([]byte(want), &b) != nil {
		return false
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func TestSetConfirmed(t *testing.T) {
	s, set := newServer(t)
	if err := s.SetConfirmed(17338); err == nil {
		t.Error("SetConfirmed outside the set accepted")
	}
	if err := s.SetConfirmed(17339); err != nil || s.Confirmed() != 17339 {
		t.Fatal(err)
	}
	var info struct {
		Status struct {
			ConfirmedMilestone milestoneRef `json:"confirmedMilestone"`
		} `json:"status"`
	}
	getJSON(t, s, api("info"), &info)
	if info.Status.ConfirmedMilestone.MilestoneID != h0x(set.Milestones[17339].MilestoneID[:]) {
		t.Errorf("confirmed %+v", info.Status.ConfirmedMilestone)
	}
}

func TestHealthRoutesAndUnknown(t *testing.T) {
	s, _ := newServer(t)
	if a := get(t, s, "/health"); a.status != http.StatusOK || len(a.body) != 0 {
		t.Errorf("/health: %d %s", a.status, a.body)
	}
	var routes struct {
		Routes []string `json:"routes"`
	}
	getJSON(t, s, "/api/routes", &routes)
	if len(routes.Routes) != 1 || routes.Routes[0] != "core/v2" {
		t.Errorf("/api/routes: %v", routes)
	}
	for _, p := range []string{api("tips"), api("transactions", "0x00", "included-block"), "/api/indexer/v1/outputs/basic",
		api("blocks"), api("milestones", "by-index", "1", "x"), "/"} {
		wantError(t, p, get(t, s, p), http.StatusNotFound)
	}
	a, err := tryGet(client, s, http.MethodPost, api("info"))
	if err != nil {
		t.Fatal(err)
	}
	wantError(t, "POST info", a, http.StatusMethodNotAllowed)
}
