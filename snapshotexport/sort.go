package snapshotexport

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/chain"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// The layout of a run's entry: the output ID, the block ID, the booked index and time,
// the length of the bytes; then the bytes.
const (
	runIDLen    = len(chain.OutputID{})
	runBlockLen = len(chain.MessageID{})
	runHeadLen  = runIDLen + runBlockLen + 4 + 4 + 4
)

// entryOverhead is what an output costs in memory besides its bytes.
const entryOverhead = 160

// sorter sorts outputs by output ID (the order of Hornet's output list: its unspent
// outputs are keys of a sorted key-value store) in bounded memory: it holds up to limit
// bytes of outputs, writes them sorted to a run file when full, and merges the runs.
// The same output added twice (the same entry) is emitted once. Safe for concurrent add.
type sorter struct {
	parent string // where the run directory is made
	limit  int

	mu    sync.Mutex
	buf   []snapshot.Output
	bytes int
	dir   string   // the run directory, made on the first spill
	runs  []string // the run files
}

func newSorter(parent string, limit int) *sorter { return &sorter{parent: parent, limit: limit} }

// add takes an output; it spills the buffer when full.
func (s *sorter) add(o snapshot.Output) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = append(s.buf, o)
	s.bytes += len(o.Raw) + entryOverhead
	if s.bytes < s.limit {
		return nil
	}
	return s.spill()
}

func compareOutputs(a, b snapshot.Output) int { return bytes.Compare(a.OutputID[:], b.OutputID[:]) }

// spill writes the buffer sorted to a new run file.
func (s *sorter) spill() error {
	if s.dir == "" {
		dir, err := os.MkdirTemp(s.parent, ".snapshot-export-")
		if err != nil {
			return fmt.Errorf("export: a directory for sorted runs: %w", err)
		}
		s.dir = dir
	}
	slices.SortFunc(s.buf, compareOutputs)
	f, err := os.CreateTemp(s.dir, "run-")
	if err != nil {
		return fmt.Errorf("export: a sorted run: %w", err)
	}
	s.runs = append(s.runs, f.Name())
	bw := bufio.NewWriterSize(f, 1<<20)
	for i := range s.buf {
		if _, err := bw.Write(appendEntry(nil, &s.buf[i])); err != nil {
			_ = f.Close()
			return fmt.Errorf("export: writing a sorted run: %w", err)
		}
	}
	if err := errors.Join(bw.Flush(), f.Close()); err != nil {
		return fmt.Errorf("export: writing a sorted run: %w", err)
	}
	s.buf, s.bytes = s.buf[:0], 0
	return nil
}

// close removes the run files.
func (s *sorter) close() {
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
}

// appendEntry appends an output as the file's output entry lays it out.
func appendEntry(b []byte, o *snapshot.Output) []byte {
	b = append(b, o.OutputID[:]...)
	b = append(b, o.BlockID[:]...)
	b = binary.LittleEndian.AppendUint32(b, o.BookedIndex)
	b = binary.LittleEndian.AppendUint32(b, o.BookedTimestamp)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(o.Raw)))
	return append(b, o.Raw...)
}

// readEntry reads an entry appendEntry wrote; io.EOF at the end of the run.
func readEntry(r *bufio.Reader) (snapshot.Output, error) {
	var head [runHeadLen]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return snapshot.Output{}, err
	}
	var o snapshot.Output
	copy(o.OutputID[:], head[:runIDLen])
	copy(o.BlockID[:], head[runIDLen:runIDLen+runBlockLen])
	o.BookedIndex = binary.LittleEndian.Uint32(head[runIDLen+runBlockLen:])
	o.BookedTimestamp = binary.LittleEndian.Uint32(head[runIDLen+runBlockLen+4:])
	o.Raw = make([]byte, binary.LittleEndian.Uint32(head[runIDLen+runBlockLen+8:]))
	if _, err := io.ReadFull(r, o.Raw); err != nil {
		return snapshot.Output{}, fmt.Errorf("export: a sorted run ends inside an output: %w", err)
	}
	return o, nil
}

// emit calls f with every output in order of output ID, each once. An output added
// twice with different entries is an error.
func (s *sorter) emit(f func(*snapshot.Output) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	slices.SortFunc(s.buf, compareOutputs)
	m := &merge{}
	defer m.close()
	if err := m.open(s.runs, s.buf); err != nil {
		return err
	}
	var last *snapshot.Output
	for m.Len() > 0 {
		o, err := m.next()
		if err != nil {
			return err
		}
		if last != nil && last.OutputID == o.OutputID {
			if !sameEntry(last, &o) {
				return fmt.Errorf("output %s is in the ledger twice with different records: %w", o.OutputID, ErrLedgerRows)
			}
			continue
		}
		if err := f(&o); err != nil {
			return err
		}
		last = &o
	}
	return nil
}

func sameEntry(a, b *snapshot.Output) bool {
	return a.OutputID == b.OutputID && a.BlockID == b.BlockID && a.BookedIndex == b.BookedIndex &&
		a.BookedTimestamp == b.BookedTimestamp && bytes.Equal(a.Raw, b.Raw)
}

// cursor is one sorted source of the merge: a run file, or the buffer left in memory.
type cursor struct {
	head snapshot.Output
	f    *os.File
	r    *bufio.Reader
	mem  []snapshot.Output
}

// advance loads the cursor's next output; ok is false at its end.
func (c *cursor) advance() (ok bool, err error) {
	if c.r == nil {
		if len(c.mem) == 0 {
			return false, nil
		}
		c.head, c.mem = c.mem[0], c.mem[1:]
		return true, nil
	}
	c.head, err = readEntry(c.r)
	if errors.Is(err, io.EOF) {
		return false, nil
	}
	return err == nil, err
}

// merge is a k-way merge of cursors, a min-heap by output ID.
type merge []*cursor

func (m merge) Len() int           { return len(m) }
func (m merge) Less(i, j int) bool { return compareOutputs(m[i].head, m[j].head) < 0 }
func (m merge) Swap(i, j int)      { m[i], m[j] = m[j], m[i] }
func (m *merge) Push(x any)        { *m = append(*m, x.(*cursor)) }
func (m *merge) Pop() any {
	old := *m
	c := old[len(old)-1]
	*m = old[:len(old)-1]
	return c
}

// open starts a cursor on each run and on the buffer.
func (m *merge) open(runs []string, mem []snapshot.Output) error {
	cursors := []*cursor{{mem: mem}}
	for _, path := range runs {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("export: a sorted run: %w", err)
		}
		cursors = append(cursors, &cursor{f: f, r: bufio.NewReaderSize(f, 64<<10)})
	}
	for _, c := range cursors {
		ok, err := c.advance()
		if err != nil {
			return err
		}
		if ok {
			*m = append(*m, c)
		} else if c.f != nil {
			_ = c.f.Close()
		}
	}
	heap.Init(m)
	return nil
}

// next takes the smallest head and advances its cursor.
func (m *merge) next() (snapshot.Output, error) {
	c := (*m)[0]
	o := c.head
	ok, err := c.advance()
	if err != nil {
		return snapshot.Output{}, err
	}
	if ok {
		heap.Fix(m, 0)
		return o, nil
	}
	heap.Pop(m)
	if c.f != nil {
		_ = c.f.Close()
	}
	return o, nil
}

// close closes the run files still open.
func (m *merge) close() {
	for _, c := range *m {
		if c.f != nil {
			_ = c.f.Close()
		}
	}
}
