package store

import (
	"context"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
)

// The partition-hint tables (tag_hints, addresses_hints) say, for a tag or an address,
// which ms_range_id partitions hold its rows, so readers visit only those, newest first,
// instead of every partition since genesis. The rows a write set needs are collected in
// a HintSet as its rows are built; which of them to skip because they were written
// before is package hints' policy.

// Table kinds of tag_hints.
const (
	TagKindMessage     = "message"
	TagKindBasicOutput = "basic_output"
	TagKindNFTOutput   = "nft_output"
)

// TagHint says: rows with this tag exist in table kind TableKind, partition Range.
type TagHint struct {
	Tag       string
	TableKind string
	Range     int32
}

// AddressHint says: outputs of OutputKind where the address plays Variant (address,
// sender, issuer, ...) exist in partition Range.
type AddressHint struct {
	Address    string
	OutputKind string `cql:"output_kind"`
	Variant    string `cql:"variant"`
	Range      int32  `cql:"ms_range_id"`
}

// HintSet collects the hints of one write set, without duplicates.
type HintSet struct {
	Tags      map[TagHint]struct{}
	Addresses map[AddressHint]struct{}
}

// NewHintSet returns an empty set.
func NewHintSet() *HintSet {
	return &HintSet{Tags: map[TagHint]struct{}{}, Addresses: map[AddressHint]struct{}{}}
}

// AddTag records a tag hint; empty tags are ignored.
func (s *HintSet) AddTag(tag, tableKind string, rng int32) {
	if tag != "" {
		s.Tags[TagHint{tag, tableKind, rng}] = struct{}{}
	}
}

// AddAddress records an address hint; empty addresses are ignored.
func (s *HintSet) AddAddress(address, outputKind, variant string, rng int32) {
	if address != "" {
		s.Addresses[AddressHint{address, outputKind, variant, rng}] = struct{}{}
	}
}

// Writes are the hint rows of s at client timestamp ts.
func (s *HintSet) Writes(ts int64) []Write {
	var out []Write
	for h := range s.Tags {
		out = append(out, Write{stmt: cql.InsertTagHint, Args: []any{h.Tag, h.TableKind, h.Range},
			Partition: "tag_hints/" + h.Tag, TS: ts})
	}
	for h := range s.Addresses {
		out = append(out, Write{stmt: cql.InsertAddressHint, Args: []any{h.Address, h.OutputKind, h.Variant, h.Range},
			Partition: "addresses_hints/" + h.Address, TS: ts})
	}
	return out
}

// TagRanges lists the partitions holding tag in a table kind, newest first.
func (st *Store) TagRanges(ctx context.Context, tag, tableKind string) ([]int32, error) {
	return st.ranges(ctx, cql.TagHintsByKind, tag, tableKind)
}

// AddressRanges lists the partitions holding an address in one output kind and role
// (variant), newest first.
func (st *Store) AddressRanges(ctx context.Context, address string, kind chain.OutputKind, variant string) ([]int32, error) {
	return st.ranges(ctx, cql.AddressHints, address, kind.String(), variant)
}

func (st *Store) ranges(ctx context.Context, stmt *cql.Statement, args ...any) ([]int32, error) {
	return cql.Records[int32](ctx, st.s, stmt, args)
}

// AddressHintsOf lists the partitions holding address in any of kinds and any of roles
// (variants): one read of the address's addresses_hints partition, its rows in key order.
func (st *Store) AddressHintsOf(ctx context.Context, address string, kinds []chain.OutputKind, roles []string) (
	[]AddressHint, error) {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = k.String()
	}
	hints, err := cql.Records[AddressHint](ctx, st.s, cql.AddressHintsIn, []any{address, names, roles})
	for i := range hints {
		hints[i].Address = address
	}
	return hints, err
}
