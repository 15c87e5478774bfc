package api

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/api/tables"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// testMessages reads every message of the chain and every unreferenced one.
func testMessages(t *testing.T, e *env) {
	for id, mt := range e.truth.Messages {
		var got tables.MessageAnswer
		e.mustGet(t, "/messages/"+id.String(), &got)
		md := got.Metadata
		switch {
		case got.ID != id.String() || len(got.Parents) != len(mt.Message.Parents):
			t.Errorf("%s: decoded as %+v", id, got.MessageJSON)
		case !md.Referenced || *md.MilestoneIndex != int32(mt.Milestone) || *md.WhiteFlagIndex != int32(mt.WhiteFlagIndex):
			t.Errorf("%s: metadata %+v, want milestone %d white flag %d", id, md, mt.Milestone, mt.WhiteFlagIndex)
		case md.LedgerInclusionState != mt.InclusionState.String() || *md.ConflictReason != int8(mt.ConflictReason):
			t.Errorf("%s: %s/%d, want %s/%d", id, md.LedgerInclusionState, *md.ConflictReason, mt.InclusionState, mt.ConflictReason)
		}
	}
	for _, um := range e.pending {
		var got tables.MessageAnswer
		e.mustGet(t, "/messages/"+um.ID.String(), &got)
		md := got.Metadata
		if md.Referenced || md.EstMilestoneIndex == nil || *md.EstMilestoneIndex != int32(um.EstMilestoneIndex) ||
			md.SeenAt == nil || *md.SeenAt != um.SeenAt.Unix() {
			t.Errorf("unreferenced %s: metadata %+v, want estimated %d seen %d", um.ID, md, um.EstMilestoneIndex, um.SeenAt.Unix())
		}
	}
}

// testRaw: /raw answers the exact bytes the message ID hashes; HEAD answers no body.
func testRaw(t *testing.T, e *env) {
	for _, ms := range e.truth.Milestones[:3] {
		id := ms.MessageID
		resp, err := http.Get(e.srv.URL + "/messages/" + id.String() + "/raw")
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); ct != "application/octet-stream" || !bytes.Equal(raw, e.truth.Messages[id].Raw) ||
			chain.MessageIDOf(raw) != id {
			t.Errorf("raw %s: %s, %d bytes, not the message's", id, ct, len(raw))
		}
		head, err := http.Head(e.srv.URL + "/messages/" + id.String())
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(head.Body)
		head.Body.Close()
		if head.StatusCode != http.StatusOK || len(body) != 0 {
			t.Errorf("HEAD: status %d with %d body bytes", head.StatusCode, len(body))
		}
	}
}

// testChildren walks the children of every fifth message, two per page.
func testChildren(t *testing.T, e *env) {
	pendingChildren := map[chain.MessageID][]chain.MessageID{}
	for _, um := range e.pending {
		for _, p := range um.Message.Parents {
			pendingChildren[p] = append(pendingChildren[p], um.ID)
		}
	}
	checked := 0
	for parent, children := range e.truth.Children {
		if parent[0]%5 != 0 {
			continue
		}
		want := append(append([]chain.MessageID{}, children...), pendingChildren[parent]...)
		got := walkAll[tables.ChildJSON](t, e, "/messages/"+parent.String()+"/children", 2)
		checkIDs(t, "children of "+parent.String(), messageIDs(got), want)
		checkTimesDescending(t, "children of "+parent.String(), got, func(c tables.ChildJSON) int64 { return c.Timestamp })
		checked++
	}
	if checked == 0 {
		t.Fatal("no parent checked")
	}
}

// testTags walks every tag's messages, three per page.
func testTags(t *testing.T, e *env) {
	for tag, ids := range e.truth.Tags {
		want := append([]chain.MessageID{}, ids...)
		for _, um := range e.pending {
			if string(um.Message.Tag()) == tag {
				want = append(want, um.ID)
			}
		}
		path := "/tags/" + tagHex([]byte(tag)) + "/messages"
		got := walkAll[tables.TagMessageJSON](t, e, path, 3)
		checkIDs(t, path, messageIDs(got), want)
		for i := 1; i < len(got); i++ {
			if got[i-1].Referenced && !got[i].Referenced || got[i-1].Referenced && got[i].Referenced &&
				*got[i-1].MilestoneIndex < *got[i].MilestoneIndex {
				t.Errorf("%s: item %d (milestone %v) before item %d: not newest first", path, i-1, got[i-1].MilestoneIndex, i)
			}
		}
	}
}

func messageIDs[T tables.ChildJSON | tables.TagMessageJSON](items []T) []string {
	out := make([]string, len(items))
	for i, it := range items {
		switch v := any(it).(type) {
		case tables.ChildJSON:
			out[i] = v.MessageID
		case tables.TagMessageJSON:
			out[i] = v.MessageID
		}
	}
	return out
}

// checkIDs: got holds each wanted ID exactly once and nothing else.
func checkIDs(t *testing.T, what string, got []string, want []chain.MessageID) {
	t.Helper()
	left := map[string]int{}
	for _, id := range want {
		left[id.String()]++
	}
	for _, id := range got {
		if left[id]--; left[id] < 0 {
			t.Errorf("%s: %s listed but not expected (or twice)", what, id)
		}
	}
	for id, n := range left {
		if n > 0 {
			t.Errorf("%s: %s missing", what, id)
		}
	}
}

func checkTimesDescending[T any](t *testing.T, what string, items []T, at func(T) int64) {
	t.Helper()
	for i := 1; i < len(items); i++ {
		if at(items[i-1]) < at(items[i]) {
			t.Errorf("%s: item %d is older than item %d", what, i-1, i)
		}
	}
}
