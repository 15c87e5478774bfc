// Package loadtest puts the read API under a bounded closed-loop load over a mix of
// routes, with slow and oversized clients running beside it, and reports per-route
// throughput, latency percentiles and status classes, with the normal clients'
// latency measured with and without the attackers side by side.
//
// Keys come from the API itself (Discover): the newest milestones, the messages they
// reference, the transactions, outputs, tags and addresses those carry. cmd/loadtest
// runs it against a running API; `make load` sets one up on a simulated chain.
package loadtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// IDs are keys known to be indexed, found through the API.
type IDs struct {
	Oldest, Newest   uint32   // the synced range the milestones come from
	Milestones       []uint32 // indexes
	Messages         []string
	Transactions     []string // of every carried transaction, conflicting ones included
	Included         []string // transactions the ledger applied
	Outputs          []string
	Tags             []string // 0x-hex
	Addresses        []string // owners of basic outputs
	StateControllers []string // of alias outputs
	NFTs             []string
}

func (ids *IDs) String() string {
	return fmt.Sprintf("milestones %d-%d (%d), messages %d, transactions %d (%d included), outputs %d, tags %d, "+
		"addresses %d, alias controllers %d, NFTs %d", ids.Oldest, ids.Newest, len(ids.Milestones), len(ids.Messages),
		len(ids.Transactions), len(ids.Included), len(ids.Outputs), len(ids.Tags), len(ids.Addresses),
		len(ids.StateControllers), len(ids.NFTs))
}

// errNotFound is a 404 during discovery: a parent outside the indexed range.
var errNotFound = errors.New("not found")

// getJSON fetches base+path into out; statuses other than 200 are errors, but a 429
// (the server's per-client limit) is retried after its Retry-After, as a client should.
func getJSON(ctx context.Context, c *http.Client, base, path string, out any) error {
	for range maxRetries {
		err := getJSONOnce(ctx, c, base, path, out)
		var limited *limitedError
		if !errors.As(err, &limited) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(limited.wait):
		}
	}
	return fmt.Errorf("GET %s: still limited (429) after %d tries", path, maxRetries)
}

const maxRetries = 60

// limitedError is a 429 and how long it asks to wait.
type limitedError struct{ wait time.Duration }

func (e *limitedError) Error() string { return "429, retry after " + e.wait.String() }

func getJSONOnce(ctx context.Context, c *http.Client, base, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		secs, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if err != nil || secs < 1 {
			secs = 1
		}
		return &limitedError{wait: time.Duration(secs) * time.Second}
	case resp.StatusCode == http.StatusNotFound:
		return fmt.Errorf("GET %s: %w", path, errNotFound)
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("GET %s: status %d: %.200s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	return nil
}

type syncAnswer struct {
	Oldest uint32 `json:"oldest"`
	Newest uint32 `json:"newest"`
	Synced []struct {
		From uint32 `json:"from"`
		To   uint32 `json:"to"`
	} `json:"synced"`
}

type milestonePage struct {
	Items []struct {
		Index     uint32 `json:"index"`
		MessageID string `json:"messageId"`
	} `json:"items"`
}

type outputAnswer struct {
	Type            string `json:"type"`
	Address         string `json:"address"`
	StateController string `json:"stateController"`
	NFTID           string `json:"nftId"`
}

type messageAnswer struct {
	Parents  []string `json:"parents"`
	Metadata struct {
		LedgerInclusionState string `json:"ledgerInclusionState"`
	} `json:"metadata"`
	Payload *struct {
		Type          string          `json:"type"`
		Tag           string          `json:"tag"`
		TransactionID string          `json:"transactionId"`
		Outputs       []*outputAnswer `json:"outputs"`
		Payload       *struct {
			Tag string `json:"tag"`
		} `json:"payload"`
	} `json:"payload"`
}

// Discover finds up to maxMessages indexed messages by walking parents back from the
// newest milestones' messages, and collects what they carry.
func Discover(ctx context.Context, c *http.Client, base string, maxMessages int) (*IDs, error) {
	base = strings.TrimSuffix(base, "/")
	var st syncAnswer
	if err := getJSON(ctx, c, base, "/sync", &st); err != nil {
		return nil, err
	}
	if st.Newest == 0 || len(st.Synced) == 0 {
		return nil, fmt.Errorf("%s/sync: nothing indexed yet", base)
	}
	// The newest synced range: milestones there are all indexed.
	last := st.Synced[0]
	for _, r := range st.Synced {
		if r.To > last.To {
			last = r
		}
	}
	ids := &IDs{Oldest: max(last.From, last.To-min(last.To, 199)), Newest: last.To}
	var ms milestonePage
	if err := getJSON(ctx, c, base, fmt.Sprintf("/milestones?start=%d&end=%d", ids.Oldest, ids.Newest), &ms); err != nil {
		return nil, err
	}
	var queue []string
	for _, m := range ms.Items {
		ids.Milestones = append(ids.Milestones, m.Index)
		queue = append(queue, m.MessageID)
	}
	if len(queue) == 0 {
		return nil, fmt.Errorf("no milestone of %d..%d answered", ids.Oldest, ids.Newest)
	}
	seen := map[string]bool{}
	sets := map[*[]string]map[string]bool{}
	add := func(dst *[]string, v string) {
		if v == "" {
			return
		}
		if sets[dst] == nil {
			sets[dst] = map[string]bool{}
		}
		if !sets[dst][v] {
			sets[dst][v] = true
			*dst = append(*dst, v)
		}
	}
	for len(queue) > 0 && len(ids.Messages) < maxMessages {
		id := queue[0]
		queue = queue[1:]
		if seen[id] {
			continue
		}
		seen[id] = true
		var m messageAnswer
		switch err := getJSON(ctx, c, base, "/messages/"+id, &m); {
		case errors.Is(err, errNotFound):
			continue
		case err != nil:
			return nil, err
		}
		ids.Messages = append(ids.Messages, id)
		queue = append(queue, m.Parents...)
		p := m.Payload
		if p == nil {
			continue
		}
		add(&ids.Tags, p.Tag)
		if p.Payload != nil {
			add(&ids.Tags, p.Payload.Tag)
		}
		if p.TransactionID == "" {
			continue
		}
		add(&ids.Transactions, p.TransactionID)
		if m.Metadata.LedgerInclusionState != "included" {
			continue // its outputs never existed
		}
		add(&ids.Included, p.TransactionID)
		for i, o := range p.Outputs {
			// An output ID is the transaction ID followed by the index, uint16 little-endian.
			outputID := fmt.Sprintf("%s%02x%02x", p.TransactionID, i&0xff, i>>8)
			add(&ids.Outputs, outputID)
			switch o.Type {
			case "basic":
				add(&ids.Addresses, o.Address)
			case "alias":
				add(&ids.StateControllers, o.StateController)
			case "nft":
				add(&ids.NFTs, nftID(o.NFTID, outputID))
			}
		}
	}
	slices.Sort(ids.Milestones)
	return ids, nil
}

// nftID is an NFT output's ID; the minting output carries the zero ID, and the NFT is
// then known by the hash of that output's ID.
func nftID(id, outputID string) string {
	if strings.Trim(strings.TrimPrefix(id, "0x"), "0") != "" {
		return id
	}
	oid, err := chain.ParseOutputID(outputID)
	if err != nil {
		return ""
	}
	return chain.NFTIDFromOutputID(oid).String()
}
