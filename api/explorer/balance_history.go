package explorer

import (
	"context"
	"encoding/binary"
	"errors"
	"strconv"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// granularityKind is a balance history's step: milestone (default) or day.
var granularityKind = rest.TypedKind(map[string]any{"type": "string", "enum": []string{"milestone", "day"},
	"default": "milestone"}, func(name, v string) (bool, error) {
	switch v {
	case "milestone":
		return false, nil
	case "day":
		return true, nil
	}
	return false, rest.BadParam(name, "want milestone or day, got %s", rest.Quote(v))
})

var _ = rest.NamedKinds(map[string]rest.Kind{"granularity": granularityKind})

// balanceHistoryParams name the address, the milestones and the step of its balance
// history.
type balanceHistoryParams struct {
	rest.AddressParams
	From  *uint32 `query:"from" kind:"index" doc:"the first milestone (default: coverage.since); the balance before it is the starting point"`
	To    *uint32 `query:"to" kind:"index" doc:"the last milestone (default: the ledger index); above the ledger index, 400"`
	Daily *bool   `query:"granularity" kind:"granularity" doc:"milestone (default): the balance after every milestone that changed it, with the outputs that did; day: the closing balance of every UTC day"`
	explorerPageParams
}

// BalanceHistoryJSON is a page of an address's balance history, oldest first.
type BalanceHistoryJSON struct {
	Address     string             `json:"address"`
	Granularity string             `json:"granularity"`
	From        uint32             `json:"from"`
	To          uint32             `json:"to"`
	Start       string             `json:"startBalance"` // after the milestone before from
	Items       []balancePointJSON `json:"items"`
	Cursor      string             `json:"cursor,omitempty"`
	MaxResults  int                `json:"maxResults"`
	rest.WithCoverage
}

// balancePointJSON is the total balance after a milestone (or at the end of a UTC day),
// the change from the point before, and (by milestone) the outputs that made it.
type balancePointJSON struct {
	Date               string             `json:"date,omitempty"`           // day: YYYY-MM-DD (UTC)
	MilestoneIndex     uint32             `json:"milestoneIndex,omitempty"` // day: the day's last change (absent: none)
	MilestoneTimestamp int64              `json:"milestoneTimestamp,omitempty"`
	Balance            string             `json:"balance"`
	Change             string             `json:"change"` // signed
	Outputs            []outputChangeJSON `json:"outputs,omitempty"`
}

type outputChangeJSON struct {
	OutputID string `json:"outputId"`
	Change   string `json:"change"` // signed: the amount gained (created, or passed on by expiration) or lost
}

// balanceHistory is an address's total balance over milestones [from, to]: its holdings
// (the owner candidates of the unspent set and of the spent twin, by the balance route's
// rule) replayed milestone by milestone, so each point equals the balance route asked
// with that ledgerIndex.
func (s *API) balanceHistory(ctx context.Context, in *rest.Input, p *balanceHistoryParams) (any, error) {
	if err := explorerPaging(in, "balance-history", &p.explorerPageParams); err != nil {
		return nil, err
	}
	li, err := s.ledgerIndex(ctx)
	if err != nil {
		return nil, err
	}
	first, last, cov, err := s.historyRange(ctx, li, p.From, p.To)
	if err != nil {
		return nil, err
	}
	hs, _, err := s.holdings(ctx, p.Address.Text, li)
	if err != nil {
		return nil, err
	}
	out := BalanceHistoryJSON{Address: p.Address.Text, Granularity: "milestone", From: first, To: last,
		Start: strconv.FormatInt(balanceAfter(hs, first-1), 10), Items: []balancePointJSON{}, MaxResults: in.PageSize,
		WithCoverage: rest.WithCoverage{Coverage: cov}}
	if p.Daily != nil && *p.Daily {
		out.Granularity = "day"
		return s.dailyPoints(ctx, &out, hs, li.Coverage, in)
	}
	start := first
	if in.Cursor != nil {
		start = cursorPosition(in.Cursor)
	}
	return s.milestonePoints(ctx, &out, hs, start, in)
}

// historyRange is the milestones a history covers and its coverage: partial when it
// starts before coverage.since or the spent twin may lack spends.
func (s *API) historyRange(ctx context.Context, li store.LedgerIndex, from, to *uint32) (uint32, uint32, rest.CoverageJSON, error) {
	last, cov, err := rest.AtLedgerIndex(li.Index, rest.CoverageOf(li.Coverage), to)
	if err != nil {
		return 0, 0, cov, err
	}
	first := max(li.Coverage.Since, 1)
	if from != nil {
		first = max(*from, 1)
	}
	if first > last {
		return 0, 0, cov, rest.BadParam("from", "%d is after to (%d)", first, last)
	}
	cov = rest.CoverageAt(cov, first)
	err = rest.MarkSpentMissing(ctx, s.st, li.Coverage, &cov)
	return first, last, cov, err
}

// holdings reads the address's owner candidates, spent ones too, and turns them into
// its holdings up to the ledger index, with each output's row (its spent twin's when
// spent); an expiration's milestone is found by bisecting the synced milestones' times.
func (s *API) holdings(ctx context.Context, address string, li store.LedgerIndex) ([]holding, map[string]*store.UnspentRow, error) {
	rows, err := s.heldCandidates(ctx, address, 0, true)
	if err != nil {
		return nil, nil, err
	}
	span, err := s.st.SyncTip(ctx)
	if err != nil && !errors.Is(err, store.ErrNothingSynced) {
		return nil, nil, err
	}
	expiry := func(t int64) (uint32, error) {
		if span.Newest == 0 {
			return 0, nil
		}
		x, err := s.firstAtOrAfter(ctx, span, t)
		if x > li.Index {
			x = 0
		}
		return x, err
	}
	latest := latestRows(rows)
	hs, err := holdingsOf(address, latest, li.Index, expiry)
	return hs, latest, err
}

// milestonePoints fills a page of points, one per milestone that changed the balance,
// from milestone start on.
func (s *API) milestonePoints(ctx context.Context, out *BalanceHistoryJSON, hs []holding, start uint32, in *rest.Input) (any, error) {
	changes := changesIn(hs, start, out.To)
	balance, times := balanceAfter(hs, start-1), s.changeTimes(hs)
	for i := 0; i < len(changes); {
		index := changes[i].index
		if len(out.Items) == in.PageSize {
			out.Cursor = positionCursor(index, in)
			break
		}
		pt := balancePointJSON{MilestoneIndex: index, Outputs: []outputChangeJSON{}}
		var delta int64
		for ; i < len(changes) && changes[i].index == index; i++ {
			delta += changes[i].delta
			pt.Outputs = append(pt.Outputs, outputChangeJSON{changes[i].outputID, strconv.FormatInt(changes[i].delta, 10)})
		}
		balance += delta
		pt.Balance, pt.Change = strconv.FormatInt(balance, 10), strconv.FormatInt(delta, 10)
		at, err := times.of(ctx, index)
		if err != nil {
			return nil, err
		}
		pt.MilestoneTimestamp = at
		out.Items = append(out.Items, pt)
	}
	return out, nil
}

// dailyPoints fills a page of points, one per UTC day from the day of milestone from
// (or the cursor's day) to the day of milestone to: each day's closing balance.
func (s *API) dailyPoints(ctx context.Context, out *BalanceHistoryJSON, hs []holding, c store.LedgerCoverage,
	in *rest.Input) (any, error) {
	firstDay, err := s.dayOf(ctx, c, out.From)
	if err != nil {
		return nil, err
	}
	lastDay, err := s.dayOf(ctx, c, out.To)
	if err != nil {
		return nil, err
	}
	startDay := firstDay
	if in.Cursor != nil {
		startDay = cursorPosition(in.Cursor)
	}
	closing, lastChange, err := s.closingByDay(ctx, hs, out.From, out.To)
	if err != nil {
		return nil, err
	}
	balance := balanceAfter(hs, out.From-1)
	for day := firstDay; day < startDay; day++ {
		if b, ok := closing[day]; ok {
			balance = b
		}
	}
	for day := startDay; day <= lastDay; day++ {
		if len(out.Items) == in.PageSize {
			out.Cursor = positionCursor(day, in)
			break
		}
		pt := balancePointJSON{Date: time.Unix(int64(day)*86400, 0).UTC().Format(time.DateOnly),
			MilestoneIndex: lastChange[day], Change: "0"}
		if b, ok := closing[day]; ok {
			pt.Change, balance = strconv.FormatInt(b-balance, 10), b
		}
		pt.Balance = strconv.FormatInt(balance, 10)
		out.Items = append(out.Items, pt)
	}
	return out, nil
}

// closingByDay is, for each UTC day (unix days) with a change in [first, last], the
// balance after its last change and that change's milestone.
func (s *API) closingByDay(ctx context.Context, hs []holding, first, last uint32) (map[uint32]int64, map[uint32]uint32, error) {
	closing, lastChange := map[uint32]int64{}, map[uint32]uint32{}
	balance, times := balanceAfter(hs, first-1), s.changeTimes(hs)
	for _, ch := range changesIn(hs, first, last) {
		at, err := times.of(ctx, ch.index)
		if err != nil {
			return nil, nil, err
		}
		day := uint32(at / 86400)
		balance += ch.delta
		closing[day], lastChange[day] = balance, ch.index
	}
	return closing, lastChange, nil
}

// dayOf is the UTC day (unix days) of milestone index's time (the bootstrap's record
// for its milestone).
func (s *API) dayOf(ctx context.Context, c store.LedgerCoverage, index uint32) (uint32, error) {
	at, err := s.st.LedgerAt(ctx, c, index)
	if errors.Is(err, store.ErrNotFound) {
		return 0, rest.NotFound("milestone %d is not indexed: its day is not known", index)
	}
	return uint32(at.Timestamp / 86400), err
}

// changeTimes tell the time of a milestone that changed a balance: a creation's own
// (the row's, known for outputs booked before the indexed milestones too), else the
// milestone's, read (and kept) by the store.
type changeTimes struct {
	s       *API
	created map[uint32]int64
}

func (s *API) changeTimes(hs []holding) changeTimes {
	created := map[uint32]int64{}
	for _, h := range hs {
		if h.createdAt != 0 {
			created[h.from] = h.createdAt
		}
	}
	return changeTimes{s, created}
}

func (c changeTimes) of(ctx context.Context, index uint32) (int64, error) {
	if at, ok := c.created[index]; ok {
		return at, nil
	}
	t, err := c.s.st.MilestoneTime(ctx, index)
	return t.Unix(), rest.MissingIsInternal(err)
}

// positionCursor is the cursor of the page that starts at position (a milestone index,
// or a unix day).
func positionCursor(position uint32, in *rest.Input) string {
	return rest.EncodeCursor(rest.Cursor{State: binary.BigEndian.AppendUint32(nil, position)}, in.Hash)
}

// cursorPosition is the position a cursor names (0 for one that names none).
func cursorPosition(c *rest.Cursor) uint32 {
	if len(c.State) != 4 {
		return 0
	}
	return binary.BigEndian.Uint32(c.State)
}
