package api

import (
	"fmt"
	"net/http"
	"net/netip"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
)

// Default caps on live streams (Config.MaxLiveStreams, Config.MaxLiveStreamsPerClient).
const (
	DefaultMaxLiveStreams          = 1000
	DefaultMaxLiveStreamsPerClient = 4
)

// liveStreams counts the open live streams, in all and per client, under their caps.
type liveStreams struct {
	mu           sync.Mutex
	total, max   int
	perClient    map[netip.Addr]int
	maxPerClient int
}

func newLiveStreams(maxTotal, maxPerClient int) *liveStreams {
	if maxTotal <= 0 {
		maxTotal = DefaultMaxLiveStreams
	}
	if maxPerClient <= 0 {
		maxPerClient = DefaultMaxLiveStreamsPerClient
	}
	return &liveStreams{max: maxTotal, maxPerClient: maxPerClient, perClient: map[netip.Addr]int{}}
}

// admit takes a place for a stream of client id, or refuses it (429) past a cap.
func (l *liveStreams) admit(id netip.Addr) (release func(), refused *rest.APIError) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case l.perClient[id] >= l.maxPerClient:
		return nil, tooManyStreams(fmt.Sprintf("this client has %d live streams open, the most one may", l.maxPerClient))
	case l.total >= l.max:
		return nil, tooManyStreams(fmt.Sprintf("the server has %d live streams open, the most it serves", l.max))
	}
	l.total++
	l.perClient[id]++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.total--
		if l.perClient[id]--; l.perClient[id] == 0 {
			delete(l.perClient, id)
		}
	}, nil
}

func tooManyStreams(detail string) *rest.APIError {
	return &rest.APIError{Status: http.StatusTooManyRequests, Title: "too many streams",
		Detail: detail + "; close one, or resume later with Last-Event-ID"}
}
