package bootstrap

import (
	"context"
	"crypto/ed25519"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/snapshottest"
)

// refusal is a bad pair of files and the error that must refuse it.
type refusal struct {
	name string
	// make writes the files into dir; keys (nil: the chain's) verifies their milestones.
	make func(t *testing.T, c *snapshottest.Chain, dir string) (full, delta string)
	keys func(t *testing.T, c *snapshottest.Chain) *chain.MilestoneKeys
	// prepare readies the keyspace before the bootstrap (nil: a fresh one).
	prepare func(t *testing.T, st *store.Store)
	want    error
	offset  string // the byte offset the message names, if any
}

// TestBootstrapRefusals: each bad file is refused with its named error before anything of
// it is written: no output, milestone or bootstrap row, and no network bound.
func TestBootstrapRefusals(t *testing.T) {
	c := testChain()
	shared := newStore(t) // nothing is written on a refusal: one keyspace serves the cases that need a fresh one
	for _, r := range refusals() {
		t.Run(r.name, func(t *testing.T) {
			st := shared
			if r.prepare != nil {
				st = newStore(t)
				r.prepare(t, st)
			}
			full, delta := r.make(t, c, t.TempDir())
			keys := keysOf(t, c)
			if r.keys != nil {
				keys = r.keys(t, c)
			}
			_, err := bootstrapFiles(t, st, Config{Full: full, Delta: delta, Keys: keys})
			if !errors.Is(err, r.want) {
				t.Fatalf("bootstrap: %v, want %v", err, r.want)
			}
			if r.offset != "" && !strings.Contains(err.Error(), "offset "+r.offset) {
				t.Errorf("error %q does not name offset %s", err, r.offset)
			}
			t.Logf("refused: %v", err)
			assertNothingWritten(t, st, r.prepare != nil)
		})
	}
}

func assertNothingWritten(t *testing.T, st *store.Store, networkPrepared bool) {
	t.Helper()
	for _, table := range []string{"unspent_outputs", "basic_outputs", "milestones", "address_ledger_updates"} {
		if rows := storetest.Rows(t, st, "SELECT * FROM "+table+" LIMIT 1"); len(rows) > 0 {
			t.Errorf("%s has rows after a refusal: %v", table, rows[0])
		}
	}
	if _, ok, err := st.LedgerBootstrap(context.Background()); ok || err != nil {
		t.Errorf("a bootstrap row after a refusal (%v)", err)
	}
	if _, ok, _ := st.Network(context.Background()); ok && !networkPrepared {
		t.Error("the refused file's network was bound to the keyspace")
	}
}

func refusals() []refusal {
	valid := func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
		return writeFull(t, c, dir, snapshottest.Edit{}), ""
	}
	return []refusal{
		{name: "delta as the full file", want: ErrWrongKind,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeDelta(t, c, dir, 10, 30, snapshottest.Edit{}), ""
			}},
		{name: "version", want: snapshot.ErrVersion, offset: "0",
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return editBytes(t, writeFull(t, c, dir, snapshottest.Edit{}), func(b []byte) []byte { b[0] = 1; return b }), ""
			}},
		{name: "truncated", want: snapshot.ErrTruncated,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return editBytes(t, writeFull(t, c, dir, snapshottest.Edit{}), func(b []byte) []byte { return b[:len(b)-40] }), ""
			}},
		{name: "padded", want: snapshot.ErrTrailingData,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return editBytes(t, writeFull(t, c, dir, snapshottest.Edit{}), func(b []byte) []byte { return append(b, 0) }), ""
			}},
		{name: "another network", want: ErrNetwork, make: valid,
			prepare: func(t *testing.T, st *store.Store) {
				if err := st.EnsureNetwork(context.Background(), chain.Shimmer(), "test"); err != nil {
					t.Fatal(err)
				}
			}},
		{name: "malformed output", want: snapshot.ErrMalformed,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeFull(t, c, dir, snapshottest.Edit{Outputs: func(o []*snapshot.Output) []*snapshot.Output {
					o[3].Raw = append(o[3].Raw, 0)
					return o
				}}), ""
			}},
		{name: "duplicate output", want: ErrDuplicateOutput,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				var dup uint64
				return writeFull(t, c, dir, snapshottest.Edit{
					Outputs: func(o []*snapshot.Output) []*snapshot.Output {
						dup = amountOf(t, o[5])
						return append(o, o[5])
					},
					Full: func(h *snapshot.FullHeader) { h.Protocol = withSupply(h.Protocol, h.Protocol.Params.TokenSupply+dup) },
				}), ""
			}},
		{name: "supply", want: ErrSupply,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeFull(t, c, dir, snapshottest.Edit{Full: func(h *snapshot.FullHeader) {
					h.Protocol = withSupply(h.Protocol, h.Protocol.Params.TokenSupply+1)
				}}), ""
			}},
		{name: "delta starts past the full target", want: ErrDiffOrder,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeFull(t, c, dir, snapshottest.Edit{}), writeDelta(t, c, dir, 10, 30, snapshottest.Edit{
					Diffs: func(d []*snapshot.Diff) []*snapshot.Diff { return d[1:] }})
			}},
		{name: "diff records an output otherwise", want: ErrDiffLedger,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeFull(t, c, dir, snapshottest.Edit{Diffs: func(d []*snapshot.Diff) []*snapshot.Diff {
					d[1].Created[0].BookedTimestamp++
					return d
				}}), ""
			}},
		{name: "delta consumes an output the ledger lacks", want: ErrDiffLedger,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeFull(t, c, dir, snapshottest.Edit{}), writeDelta(t, c, dir, 10, 30, snapshottest.Edit{
					Diffs: func(d []*snapshot.Diff) []*snapshot.Diff {
						d[4].Consumed[0].OutputID[0] ^= 0xff
						return d
					}})
			}},
		{name: "wrong milestone keys", want: chain.ErrMilestoneSignature, make: valid,
			keys: func(*testing.T, *snapshottest.Chain) *chain.MilestoneKeys {
				_, other, _ := ed25519.GenerateKey(nil)
				return &chain.MilestoneKeys{Threshold: 1, Ranges: []chain.KeyRange{chain.Signer(other)}}
			}},
		{name: "no milestone keys", want: ErrNoMilestoneKeys, make: valid,
			keys: func(*testing.T, *snapshottest.Chain) *chain.MilestoneKeys { return nil }},
		{name: "delta of another full snapshot", want: ErrDeltaMismatch,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeFull(t, c, dir, snapshottest.Edit{}), writeDelta(t, c, dir, 11, 30, snapshottest.Edit{})
			}},
		{name: "milestones do not chain", want: ErrMilestoneChain,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeFull(t, c, dir, snapshottest.Edit{}), writeDelta(t, c, dir, 10, 30, snapshottest.Edit{
					Diffs: func(d []*snapshot.Diff) []*snapshot.Diff {
						mp := *d[6].Milestone
						mp.PreviousMilestoneID[0] ^= 0xff
						c.Sign(&mp)
						d[6].Milestone, d[6].RawMilestone = &mp, nil
						return d
					}})
			}},
		{name: "receipt consumes another treasury", want: ErrTreasury,
			make: func(t *testing.T, c *snapshottest.Chain, dir string) (string, string) {
				return writeFull(t, c, dir, snapshottest.Edit{}), writeDelta(t, c, dir, 10, 30, snapshottest.Edit{
					Diffs: func(d []*snapshot.Diff) []*snapshot.Diff {
						d[14].Treasury.Amount++ // milestone 25
						return d
					}})
			}},
	}
}

// writeFull writes the test chain's full file (target 10, ledger 15, three below).
func writeFull(t *testing.T, c *snapshottest.Chain, dir string, e snapshottest.Edit) string {
	t.Helper()
	path := filepath.Join(dir, "full_snapshot.bin")
	if err := c.WriteFullEdited(path, 10, 15, 3, e); err != nil {
		t.Fatal(err)
	}
	return path
}

func writeDelta(t *testing.T, c *snapshottest.Chain, dir string, from, to uint32, e snapshottest.Edit) string {
	t.Helper()
	path := filepath.Join(dir, "delta_snapshot.bin")
	if err := c.WriteDeltaEdited(path, from, to, e); err != nil {
		t.Fatal(err)
	}
	return path
}

// editBytes rewrites a file through f.
func editBytes(t *testing.T, path string, f func([]byte) []byte) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f(b), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func amountOf(t *testing.T, o *snapshot.Output) uint64 {
	t.Helper()
	lo, err := o.Ledger()
	if err != nil {
		t.Fatal(err)
	}
	return lo.Output.Amount
}

func withSupply(p snapshot.ProtocolParamsOption, supply uint64) snapshot.ProtocolParamsOption {
	p.Params.TokenSupply = supply
	p.Raw = chain.EncodeProtocolParameters(p.Params)
	return p
}
