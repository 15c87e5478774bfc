package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// heartbeat is how often an idle live stream sends a comment, so proxies keep it open.
const heartbeat = 15 * time.Second

// maxWindow bounds the milestones one read of a stream covers (and the events it holds).
const maxWindow = 1000

var topicsKind = rest.TypedKind(map[string]any{"type": "string",
	"description": "comma-separated: milestones, address:<address>, output:<outputId>, tag:<0x-hex>"},
	func(_, v string) (string, error) { return v, nil })

var _ = rest.NamedKinds(map[string]rest.Kind{"topics": topicsKind, "eventID": eventIDKind})

// eventIDKind is an event's ID, <milestone>.<n>.
var eventIDKind = rest.TypedKind(map[string]any{"type": "string", "pattern": `^\d+\.\d+$`}, parseEventID)

// eventID is the place of an event: the n-th event of a milestone.
type eventID struct {
	milestone uint32
	n         int
}

func parseEventID(name, v string) (eventID, error) {
	k, n, ok := strings.Cut(v, ".")
	m, err1 := strconv.ParseUint(k, 10, 32)
	seq, err2 := strconv.ParseUint(n, 10, 31)
	if !ok || err1 != nil || err2 != nil {
		return eventID{}, rest.BadParam(name, "want an event ID <milestone>.<n>, got %s", rest.Quote(v))
	}
	return eventID{uint32(m), int(seq)}, nil
}

// eventsParams are the stream's topics and where it starts.
type eventsParams struct {
	Topics        string   `query:"topics" kind:"topics" required:"true" doc:"the topics the stream follows (at most 32)"`
	FromMilestone *uint32  `query:"fromMilestone" kind:"index" doc:"the first milestone whose events are sent (default: the next one indexed); at least coverage.since"`
	LastEventID   *eventID `query:"lastEventId" kind:"eventID" doc:"resume right after this event (the Last-Event-ID header does the same and wins over fromMilestone)"`
	ToMilestone   *uint32  `query:"toMilestone" kind:"index" doc:"the last milestone whose events are sent: the stream then ends with an end event (default: none, it goes on live)"`
}

// start is where a stream begins: a milestone, and how many of its events to skip; and
// the milestone after which it ends (math.MaxUint32: none).
type start struct {
	from uint32
	skip int // events of from with n < skip are not sent
	to   uint32
}

// events checks the topics and the start against what is indexed and answers the live
// stream.
func (a *API) events(ctx context.Context, in *rest.Input, p *eventsParams) (any, error) {
	sub, err := parseTopics(p.Topics, in.HRP)
	if err != nil {
		return nil, err
	}
	li, err := a.st.LedgerIndex(ctx)
	if errors.Is(err, store.ErrNothingSynced) {
		return nil, rest.NotFound("no milestone is indexed yet: there is nothing to stream")
	} else if err != nil {
		return nil, err
	}
	at, err := startOf(in, p, li)
	if err != nil {
		return nil, err
	}
	sub.changesFrom = li.Coverage.FirstChange()
	return &rest.Stream{Media: "text/event-stream", Live: true, WithCoverage: rest.WithCoverage{Coverage: rest.CoverageOf(li.Coverage)},
		Write:        func(ctx context.Context, w rest.StreamWriter) error { return a.run(ctx, w, &sub, at, li.Index) },
		WriteFailure: func(w io.Writer, err error) { writeFailure(w, err) },
	}, nil
}

// startOf is where the stream starts: after the event Last-Event-ID (header, else query)
// names, else at fromMilestone, else at the next milestone; never below coverage.since
// (what is not indexed cannot be replayed) nor past the next milestone.
func startOf(in *rest.Input, p *eventsParams, li store.LedgerIndex) (start, error) {
	at, name := start{from: li.Index + 1}, "fromMilestone"
	switch {
	case in.LastEventID != "":
		id, err := parseEventID("Last-Event-ID", in.LastEventID)
		if err != nil {
			return at, err
		}
		at, name = start{from: id.milestone, skip: id.n + 1}, "Last-Event-ID"
	case p.LastEventID != nil:
		at, name = start{from: p.LastEventID.milestone, skip: p.LastEventID.n + 1}, "lastEventId"
	case p.FromMilestone != nil:
		at.from = *p.FromMilestone
	}
	at.to = math.MaxUint32
	if p.ToMilestone != nil {
		at.to = *p.ToMilestone
	}
	switch {
	case at.to < at.from:
		return at, rest.BadParam("toMilestone", "%d is before the stream's first milestone, %d", at.to, at.from)
	case at.from < li.Coverage.Since:
		return at, rest.BadParam(name, "milestone %d is below the oldest indexed milestone, %d", at.from, li.Coverage.Since)
	case at.from > li.Index+1:
		return at, rest.BadParam(name, "milestone %d is past the next one to be indexed, %d", at.from, li.Index+1)
	}
	return at, nil
}

// run replays the events from the start up to the ledger index tip, says it is live,
// then sends each milestone's events as the ledger index passes it, and a comment every
// heartbeat while idle; past the stream's last milestone it says so and ends. A client
// too slow to take a flush is sent where to resume, and dropped (the stream then ends
// without an error).
func (a *API) run(ctx context.Context, w rest.StreamWriter, sub *subscription, at start, tip uint32) error {
	s := &sender{w: w, at: at, next: at.from}
	err := s.upTo(ctx, a, sub, tip)
	if err == nil && s.next <= at.to {
		err = writeData(w, "live", map[string]uint32{"ledgerIndex": tip})
	}
	for err == nil && s.next <= at.to {
		if err = s.flush(); err != nil {
			break
		}
		var moved uint32
		if moved, err = a.tips.Wait(ctx, tip, heartbeat); err != nil {
			break
		}
		if moved <= tip {
			_, err = io.WriteString(w, ": idle\n\n")
			continue
		}
		tip = moved
		err = s.upTo(ctx, a, sub, tip)
	}
	if err == nil {
		err = writeData(w, "end", map[string]any{"lastEventId": s.last, "toMilestone": at.to})
	}
	if errors.Is(err, errSlowClient) {
		return nil
	}
	return err
}

// sender writes a stream's events in order and knows where it is: the next milestone to
// send and the last event sent.
type sender struct {
	w    rest.StreamWriter
	at   start
	next uint32
	last string
}

// upTo sends the events of the milestones from next to tip (at most the stream's last),
// window by window.
func (s *sender) upTo(ctx context.Context, a *API, sub *subscription, tip uint32) error {
	tip = min(tip, s.at.to)
	for s.next <= tip {
		hi := min(tip, a.st.RangeStart(a.st.RangeID(s.next)+1)-1, s.next+maxWindow-1)
		evs, err := a.window(ctx, sub, s.next, hi)
		if err != nil {
			return err
		}
		for i := range evs {
			if e := &evs[i]; e.milestone != s.at.from || e.seq >= s.at.skip {
				if s.last, err = writeEvent(s.w, e); err != nil {
					return err
				}
			}
		}
		s.next = hi + 1
		if err := s.flush(); err != nil {
			return err
		}
	}
	return nil
}

// errSlowClient ends a stream whose client did not keep up.
var errSlowClient = errors.New("the client reads too slowly")

// flush sends what is buffered; a client that took too long is told where to resume
// (after the last event sent, or from the next milestone) and dropped.
func (s *sender) flush() error {
	if err := s.w.Flush(); err != nil {
		return err
	}
	if !s.w.Slow() {
		return nil
	}
	_ = writeData(s.w, "drop", map[string]any{"reason": errSlowClient.Error(), "lastEventId": s.last,
		"fromMilestone": s.next})
	_ = s.w.Flush()
	return errSlowClient
}

// writeEvent writes e with its ID, and returns the ID.
func writeEvent(w io.Writer, e *event) (string, error) {
	id := strconv.FormatUint(uint64(e.milestone), 10) + "." + strconv.Itoa(e.seq)
	if err := writeSSE(w, "id: "+id+"\n", e.name, e.data); err != nil {
		return "", err
	}
	return id, nil
}

// writeData writes an event without an ID (it does not move Last-Event-ID).
func writeData(w io.Writer, name string, v any) error { return writeSSE(w, "", name, v) }

// writeSSE writes one event: its id line (if any), its name and its data as JSON.
func writeSSE(w io.Writer, idLine, name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("event %s: %w", name, err)
	}
	_, err = fmt.Fprintf(w, "%sevent: %s\ndata: %s\n\n", idLine, name, data)
	return err
}

func writeFailure(w io.Writer, err error) {
	_ = writeData(w, "error", map[string]string{"error": err.Error()})
}
