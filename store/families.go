package store

import (
	"context"
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
)

// Chronicle's analytics families (migration 000013): one row per family and milestone,
// and per family and UTC date. Package analytics computes the figures; this file only
// stores and reads them.

// FamilyFigures is one family's figures: each figure's path inside the family
// ("nft.created_count") and its value, and what is not a number (Detail: JSON).
type FamilyFigures struct {
	Family  string
	Figures map[string]int64 `cql:"figures"`
	Detail  string           `cql:"detail"`
}

// FamilyPoint is one family's figures of one milestone.
type FamilyPoint struct {
	Index     uint32    `cql:"milestone_index"`
	Timestamp time.Time `cql:"milestone_timestamp"`
	FamilyFigures
}

// DailyFamilyPoint is one family's figures of one UTC date.
type DailyFamilyPoint struct {
	Date    time.Time        `cql:"date"` // UTC midnight (the driver reads a date in UTC)
	Figures map[string]int64 `cql:"figures"`
}

// FamilyWrites are a milestone's family rows as part of its write set, with its
// chain-order timestamp: a replay of the milestone rewrites the same rows.
func (st *Store) FamilyWrites(index uint32, at time.Time, fams []FamilyFigures) []Write {
	return st.familyWrites(Timestamp(index, PhaseConfirmed), index, at, fams)
}

// WriteFamilies stores family rows of a milestone outside its write set (the analytics
// worker's), with the client's clock, so they replace any earlier computation.
func (st *Store) WriteFamilies(ctx context.Context, index uint32, at time.Time, fams []FamilyFigures) error {
	return st.Apply(ctx, st.familyWrites(time.Now().UnixMicro(), index, at, fams), 8)
}

func (st *Store) familyWrites(ts int64, index uint32, at time.Time, fams []FamilyFigures) []Write {
	out := make([]Write, 0, len(fams))
	for _, f := range fams {
		var detail *string
		if f.Detail != "" {
			detail = &f.Detail
		}
		out = append(out, Write{stmt: cql.InsertMilestoneFamily, TS: ts,
			Args: []any{f.Family, st.RangeID(index), int32(index), at, f.Figures, detail}})
	}
	return out
}

// FamilyRange reads one family's figures of the milestones in [from, to], newest first,
// at most limit points, one ms_range_id partition at a time from to's down.
func (st *Store) FamilyRange(ctx context.Context, family string, from, to uint32, limit int) ([]FamilyPoint, error) {
	var out []FamilyPoint
	for p := st.RangeID(to); p >= st.RangeID(from) && len(out) < limit; p-- {
		args := []any{family, p, int32(from), clampInt32(uint64(to)), int32(limit - len(out))}
		rows, err := cql.Records[FamilyPoint](ctx, st.s, cql.MilestoneFamilyRange, args)
		if err != nil {
			return nil, fmt.Errorf("reading %s of milestones %d-%d: %w", family, from, to, err)
		}
		for _, row := range rows {
			row.Family, row.Timestamp = family, row.Timestamp.UTC()
			out = append(out, row)
		}
	}
	return out, nil
}

// MilestoneFamily reads one family's figures of one milestone; ok is false when the
// milestone has no row of it.
func (st *Store) MilestoneFamily(ctx context.Context, family string, index uint32) (FamilyPoint, bool, error) {
	rows, err := st.FamilyRange(ctx, family, index, index, 1)
	if err != nil || len(rows) == 0 {
		return FamilyPoint{}, false, err
	}
	return rows[0], true, nil
}

// WriteDailyFamily stores one family's figures of one UTC date, with the client's clock.
func (st *Store) WriteDailyFamily(ctx context.Context, day time.Time, family string, figures map[string]int64) error {
	w := Write{stmt: cql.InsertDailyFamily, TS: time.Now().UnixMicro(),
		Args: []any{family, int32(day.Year()), day, figures}}
	return st.Apply(ctx, []Write{w}, 1)
}

// DailyFamilyRange reads one family's figures of the computed dates in [from, to] (UTC
// midnights), newest first, one year partition at a time.
func (st *Store) DailyFamilyRange(ctx context.Context, family string, from, to time.Time) ([]DailyFamilyPoint, error) {
	args := func(year int) []any { return []any{family, int32(year), from, to} }
	return collectDown[DailyFamilyPoint](ctx, st.s, cql.DailyFamilyRange, to.Year(), from.Year(), args)
}
