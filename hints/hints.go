// Package hints writes and reads the partition-hint tables (tag_hints, addresses_hints):
// for a tag or an address, which ms_range_id partitions hold rows, so readers visit only
// those, newest first, instead of every partition since genesis.
package hints

import (
	"context"
	"sync"

	"github.com/gocql/gocql"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// Table kinds of tag_hints.
const (
	TableMessage     = "message"
	TableBasicOutput = "basic_output"
	TableNFTOutput   = "nft_output"
)

// Tag says: rows with this tag exist in table kind TableKind, partition Range.
type Tag struct {
	Tag       string
	TableKind string
	Range     int32
}

// Address says: outputs of OutputKind where the address plays Variant (address, sender,
// issuer, ...) exist in partition Range.
type Address struct {
	Address    string
	OutputKind string
	Variant    string
	Range      int32
}

// Set collects the hints of one write set, without duplicates.
type Set struct {
	Tags      map[Tag]struct{}
	Addresses map[Address]struct{}
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{Tags: map[Tag]struct{}{}, Addresses: map[Address]struct{}{}} }

// AddTag records a tag hint; empty tags are ignored.
func (s *Set) AddTag(tag, tableKind string, rng int32) {
	if tag != "" {
		s.Tags[Tag{tag, tableKind, rng}] = struct{}{}
	}
}

// AddAddress records an address hint; empty addresses are ignored.
func (s *Set) AddAddress(address, outputKind, variant string, rng int32) {
	if address != "" {
		s.Addresses[Address{address, outputKind, variant, rng}] = struct{}{}
	}
}

// Writer turns hint sets into writes, skipping hints it already wrote: within one
// partition range the same popular address would otherwise be rewritten every milestone.
type Writer struct {
	mu    sync.Mutex
	known map[any]struct{}
	limit int
}

// NewWriter remembers up to limit written hints (then forgets them all and starts over).
func NewWriter(limit int) *Writer { return &Writer{known: map[any]struct{}{}, limit: limit} }

// Writes returns the writes for the hints of s not known to be written yet.
func (w *Writer) Writes(s *Set, ts int64) []store.Write {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []store.Write
	for h := range s.Tags {
		if _, ok := w.known[h]; !ok {
			out = append(out, store.Write{St: cql.InsertTagHint, Args: []any{h.Tag, h.TableKind, h.Range},
				Partition: "tag_hints/" + h.Tag, TS: ts})
		}
	}
	for h := range s.Addresses {
		if _, ok := w.known[h]; !ok {
			out = append(out, store.Write{St: cql.InsertAddressHint, Args: []any{h.Address, h.OutputKind, h.Variant, h.Range},
				Partition: "addresses_hints/" + h.Address, TS: ts})
		}
	}
	return out
}

// Remember marks the hints of s as written; call it only after their writes succeeded.
func (w *Writer) Remember(s *Set) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.known)+len(s.Tags)+len(s.Addresses) > w.limit {
		w.known = map[any]struct{}{}
	}
	for h := range s.Tags {
		w.known[h] = struct{}{}
	}
	for h := range s.Addresses {
		w.known[h] = struct{}{}
	}
}

// Forget drops what the writer knows. A database that went away may have lost writes it
// had acknowledged (a crashed node's unsynced commit log): the milestones without sync
// rows are written again, and their hints must be too.
func (w *Writer) Forget() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.known = map[any]struct{}{}
}

// TagRanges lists the partitions holding tag in a table kind, newest first.
func TagRanges(ctx context.Context, s *cql.Session, tag, tableKind string) ([]int32, error) {
	return ranges(ctx, s, cql.TagHintsByKind, tag, tableKind)
}

// AddressRanges lists the partitions holding an address in one output kind and role, newest first.
func AddressRanges(ctx context.Context, s *cql.Session, address, outputKind, variant string) ([]int32, error) {
	return ranges(ctx, s, cql.AddressHints, address, outputKind, variant)
}

func ranges(ctx context.Context, s *cql.Session, st *cql.Statement, args ...any) ([]int32, error) {
	return cql.Collect(ctx, s, st, args, func(it *gocql.Iter, r *int32) bool { return it.Scan(r) })
}
