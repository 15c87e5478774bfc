package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/core"
	"github.com/stardust-indexer/stardust-indexer/api/explorer"
	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
)

// The permanode routes fuzzed through the whole handler over a small sim chain: the
// TIP-25 core routes' IDs and Accept header, the explorer routes' path and query
// parameters (the TIP-26 ones have FuzzTip26Params). Whatever is sent: no 5xx, no
// panic, and a 400 names the parameter at fault.

// fuzzEnvMilestones keeps the chain small: the fuzz targets care for parsing and the
// handlers' refusals, and a few real keys for the seeds.
const fuzzEnvMilestones = 6

// fuzzRoutes are the routes of e's server under prefix that take parameters and answer
// from a handler.
func fuzzRoutes(e *env, prefix string) []*rest.Route {
	var out []*rest.Route
	for i := range e.api.routes {
		rt := &e.api.routes[i]
		if strings.HasPrefix(rt.Pattern, prefix) && rt.Handle != nil && len(rt.Path)+len(rt.Query) > 0 {
			out = append(out, rt)
		}
	}
	return out
}

// fuzzPath fills every path parameter of rt with value.
func fuzzPath(rt *rest.Route, value string) string {
	p := rt.Pattern
	for _, prm := range rt.Path {
		p = strings.ReplaceAll(p, "{"+prm.Name+"}", url.PathEscape(value))
	}
	return p
}

// fuzzRequest serves one GET in process and checks the answer: no 5xx, and a 400 whose
// detail starts with the name of a parameter of rt (or "query", or an unknown
// parameter's quoted name).
func fuzzRequest(t *testing.T, e *env, rt *rest.Route, target, accept string) {
	t.Helper()
	if _, err := url.ParseRequestURI(target); err != nil || strings.ContainsAny(target, " \t\r\n") {
		return // not a request line a client can send (the server refuses it before any route)
	}
	req := httptest.NewRequest(http.MethodGet, "http://fuzz"+target, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	rec := httptest.NewRecorder()
	e.api.Handler().ServeHTTP(rec, req)
	body := rec.Body.String()
	switch {
	case rec.Code >= 500:
		t.Fatalf("GET %s (Accept %q): %d %s", target, accept, rec.Code, body)
	case rec.Code == http.StatusBadRequest:
		if name := refusedParam(rt, body); name == "" {
			t.Fatalf("GET %s: 400 naming no parameter of %s: %s", target, rt.Pattern, body)
		}
	}
}

// refusedParam is the parameter a 400 body (either error form) names, "" when none.
func refusedParam(rt *rest.Route, body string) string {
	var tip struct {
		Error struct{ Message string } `json:"error"`
	}
	var own struct{ Detail string }
	detail := ""
	if json.Unmarshal([]byte(body), &own) == nil && own.Detail != "" {
		detail = own.Detail
	} else if json.Unmarshal([]byte(body), &tip) == nil {
		detail = strings.TrimPrefix(tip.Error.Message, "invalid parameter: ")
	}
	if quoted, err := strconv.QuotedPrefix(detail); err == nil && strings.HasPrefix(detail[len(quoted):], ": ") {
		return quoted // an unknown parameter, named as sent
	}
	name, _, ok := strings.Cut(detail, ":")
	if !ok {
		return ""
	}
	if name == "query" {
		return name
	}
	for _, p := range append(append([]rest.Param{}, rt.Path...), rt.QueryParams()...) {
		if p.Name == name {
			return name
		}
	}
	return ""
}

// FuzzCoreIDs: any path value and Accept header against any TIP-25 core route with an
// ID or index in its path.
func FuzzCoreIDs(f *testing.F) {
	e := newEnv(f, sim.Options{Seed: 3, MessagesPerMilestone: 6, AddressPool: 10, TagPool: 3}, fuzzEnvMilestones)
	routes := fuzzRoutes(e, core.CorePrefix)
	ms := e.truth.Milestones[len(e.truth.Milestones)-1]
	var outputID, txID string
	for id := range e.truth.Outputs {
		outputID, txID = id.String(), id.TransactionID().String()
		break
	}
	accepts := []string{"", rest.SerializerMedia, "application/json", "application/json, " + rest.SerializerMedia + ";q=0.9",
		"*/*", "text/html;;;", strings.ToUpper(rest.SerializerMedia)}
	for i := range routes {
		for j, v := range []string{ms.MessageID.String(), ms.MilestoneID.String(), outputID, txID, "4",
			"0x" + strings.Repeat("00", 32), "0xzz", "-1", "4294967296", strings.Repeat("f", 300), ""} {
			f.Add(uint8(i), v, accepts[j%len(accepts)])
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, pathValue, accept string) {
		rt := routes[int(which)%len(routes)]
		fuzzRequest(t, e, rt, fuzzPath(rt, pathValue), accept)
	})
}

// FuzzExplorerParams: any path value and query against any explorer route.
func FuzzExplorerParams(f *testing.F) {
	e := newEnv(f, sim.Options{Seed: 3, MessagesPerMilestone: 6, AddressPool: 10, TagPool: 3}, fuzzEnvMilestones)
	routes := fuzzRoutes(e, explorer.ExplorerPrefix)
	ms := e.truth.Milestones[len(e.truth.Milestones)-1]
	addr := "smr1qqs2qqenvrz4yuzvg4u83882d6d29ygvqg3t6lwejp5ch54lxhrgzl3elje"
	for i := range routes {
		f.Add(uint8(i), addr, "pageSize=10&sort=oldest")
		f.Add(uint8(i), "0x00"+strings.Repeat("ab", 32), "startMilestoneIndex=1&endMilestoneIndex=4294967295")
		f.Add(uint8(i), "4", "startTimestamp=2022-10-01T00:00:00Z&endTimestamp=1&cursor=AQ")
		f.Add(uint8(i), ms.MilestoneID.String(), "pageSize=0&sort=sideways")
		f.Add(uint8(i), "2", "top=1001&ledgerIndex=-3")
		f.Add(uint8(i), "x", "pageSize=1000&pageSize=1&foo=bar")
		f.Add(uint8(i), "", "%zz")
	}
	f.Fuzz(func(t *testing.T, which uint8, pathValue, rawQuery string) {
		rt := routes[int(which)%len(routes)]
		target := fuzzPath(rt, pathValue)
		if rawQuery != "" {
			target += "?" + rawQuery
		}
		fuzzRequest(t, e, rt, target, "")
	})
}
