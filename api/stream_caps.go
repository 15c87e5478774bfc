package api

import "github.com/stardust-indexer/stardust-indexer/api/rest"

// Default caps on live streams (Config.MaxLiveStreams, Config.MaxLiveStreamsPerClient).
const (
	DefaultMaxLiveStreams          = 1000
	DefaultMaxLiveStreamsPerClient = 4
)

// newLiveStreams counts the open live streams, in all and per client, under their caps.
func newLiveStreams(maxTotal, maxPerClient int) *rest.ClientCaps {
	if maxTotal <= 0 {
		maxTotal = DefaultMaxLiveStreams
	}
	if maxPerClient <= 0 {
		maxPerClient = DefaultMaxLiveStreamsPerClient
	}
	return rest.NewClientCaps(maxTotal, maxPerClient, "live streams", "close one, or resume later with Last-Event-ID")
}
