package snapshotexport

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"sync"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// sortInput is n outputs in random order (IDs from seed), each added twice.
func sortInput(n int, seed uint64) []snapshot.Output {
	rng := rand.New(rand.NewPCG(seed, 1))
	var outs []snapshot.Output
	for i := range n {
		var o snapshot.Output
		for j := range o.OutputID {
			o.OutputID[j] = byte(rng.UintN(256))
		}
		o.BookedIndex, o.Raw = uint32(i), bytes.Repeat([]byte{byte(i)}, 1+rng.IntN(300))
		outs = append(outs, o, o)
	}
	rng.Shuffle(len(outs), func(i, j int) { outs[i], outs[j] = outs[j], outs[i] })
	return outs
}

// The sorter emits every output once, in order of output ID, whether it holds them all
// (limit 1 GiB) or spills runs of 2 KiB to disk, with outputs added concurrently; its
// run directory is gone after close.
func TestSorter(t *testing.T) {
	for _, limit := range []int{1 << 30, 2048} {
		dir := t.TempDir()
		s := newSorter(dir, limit)
		in := sortInput(500, uint64(limit))
		var wg sync.WaitGroup
		for part := range 4 {
			wg.Go(func() {
				for i := part; i < len(in); i += 4 {
					if err := s.add(in[i]); err != nil {
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		if spilled := len(s.runs) > 0; spilled != (limit == 2048) {
			t.Errorf("limit %d: %d runs on disk", limit, len(s.runs))
		}
		var got []snapshot.Output
		if err := s.emit(func(o *snapshot.Output) error { got = append(got, *o); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(in)/2 {
			t.Fatalf("limit %d: %d outputs emitted, want %d", limit, len(got), len(in)/2)
		}
		for i := 1; i < len(got); i++ {
			if bytes.Compare(got[i-1].OutputID[:], got[i].OutputID[:]) >= 0 || !bytes.Equal(got[i].Raw, bytes.Repeat(
				[]byte{byte(got[i].BookedIndex)}, len(got[i].Raw))) {
				t.Fatalf("limit %d: output %d out of order or changed", limit, i)
			}
		}
		s.close()
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("limit %d: %d entries left in the temp dir", limit, len(left))
		}
	}
}

// One output ID with two different records is an error, not a silent pick.
func TestSorterConflict(t *testing.T) {
	s := newSorter(t.TempDir(), 64)
	defer s.close()
	a := snapshot.Output{BookedIndex: 1, Raw: []byte{3}}
	b := a
	b.BookedIndex = 2
	for _, o := range []snapshot.Output{a, b} {
		if err := s.add(o); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.emit(func(*snapshot.Output) error { return nil }); !errors.Is(err, ErrLedgerRows) {
		t.Fatalf("emit: %v; want ErrLedgerRows", err)
	}
}
