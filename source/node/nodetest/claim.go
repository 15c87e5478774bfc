package nodetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// ClaimingConfirmed is s behind a proxy whose /info reports index as the confirmed (and
// latest) milestone, whatever s holds: a node lying about its tip. Every other route is
// s's. The proxy closes when tb ends.
func ClaimingConfirmed(tb testing.TB, s *Server, index uint32) string {
	tb.Helper()
	target, err := url.Parse(s.URL())
	if err != nil {
		tb.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	proxy.ModifyResponse = func(r *http.Response) error {
		if !strings.HasSuffix(r.Request.URL.Path, "/"+RouteInfo) {
			return nil
		}
		body, err := claimIn(r.Body, index)
		if err != nil {
			return err
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		r.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	srv := httptest.NewServer(proxy)
	tb.Cleanup(srv.Close)
	return srv.URL
}

// claimIn rewrites an /info body's confirmed and latest milestone to index.
func claimIn(body io.Reader, index uint32) ([]byte, error) {
	var info struct {
		Rest   map[string]json.RawMessage
		Status map[string]any `json:"status"`
	}
	raw, err := io.ReadAll(body)
	if err == nil {
		err = json.Unmarshal(raw, &info.Rest)
	}
	if err == nil {
		err = json.Unmarshal(info.Rest["status"], &info.Status)
	}
	if err != nil {
		return nil, err
	}
	ref := milestoneRef{Index: index, Timestamp: uint32(time.Now().Unix()), MilestoneID: "0x" + strings.Repeat("00", 32)}
	info.Status["confirmedMilestone"], info.Status["latestMilestone"] = ref, ref
	if info.Rest["status"], err = json.Marshal(info.Status); err != nil {
		return nil, err
	}
	return json.Marshal(info.Rest)
}
