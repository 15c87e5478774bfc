package events

import "github.com/stardust-indexer/stardust-indexer/api/rest"

// Prefix is where the event stream lives.
const Prefix = "/api/stream/v1"

// Routes is the event stream's one route.
func (a *API) Routes() []rest.Route {
	return []rest.Route{rest.WithParams(rest.Route{Pattern: Prefix + "/events", Tag: "stream", Media: "text/event-stream",
		Cache: rest.CacheNoStore,
		Summary: "Server-Sent Events of the topics (milestones, address:<address>, output:<outputId>, " +
			"tag:<0x-hex>) from fromMilestone on: replayed, then live as milestones are indexed; each event's id " +
			"(<milestone>.<n>) resumes the stream right after it (Last-Event-ID); see docs/events.md",
		Errs: map[int]string{429: "the caps on open streams (per client, in all) are reached"}}, a.events)}
}
