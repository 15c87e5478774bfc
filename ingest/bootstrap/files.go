package bootstrap

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"os"
	"reflect"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// readBuffer is the read buffer of a snapshot file: large sequential reads.
const readBuffer = 1 << 20

// snapshotFile is one open snapshot file and its reader. Every pass reads the descriptor
// opened first: Hornet replaces its snapshot files by rename, and a path opened again
// could give another file than the one checked.
type snapshotFile struct {
	path    string
	f       *os.File
	size    int64
	limits  snapshot.Limits
	r       *snapshot.Reader
	outputs [sha256.Size]byte // the digest of the output section the first pass read
}

// openSnapshot opens path and reads its header; want is the kind it must be.
func openSnapshot(path string, want snapshot.Kind, limits snapshot.Limits) (*snapshotFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r, err := snapshot.NewReader(bufio.NewReaderSize(f, readBuffer))
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r.SetLimits(limits)
	if r.Kind() != want {
		f.Close()
		return nil, refuse(ErrWrongKind, "%s is a %s snapshot, want a %s one", path, kindName(r.Kind()), kindName(want))
	}
	return &snapshotFile{path: path, f: f, size: fi.Size(), limits: limits, r: r}, nil
}

func (s *snapshotFile) Close() error { return s.f.Close() }

// noteOutputs keeps the digest of the output section the first pass read.
func (s *snapshotFile) noteOutputs() {
	s.outputs, _ = s.r.OutputsDigest()
}

// rewind starts another reading from the file's first byte on the same descriptor and
// checks that the header is the one read first.
func (s *snapshotFile) rewind() error {
	if _, err := s.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("%s: %w", s.path, err)
	}
	r, err := snapshot.NewReader(bufio.NewReaderSize(s.f, readBuffer))
	if err != nil {
		return fmt.Errorf("%w: %s: %w", ErrFileChanged, s.path, err)
	}
	r.SetLimits(s.limits)
	if r.Kind() != s.r.Kind() || !reflect.DeepEqual(r.Full(), s.r.Full()) || !reflect.DeepEqual(r.Delta(), s.r.Delta()) {
		return refuse(ErrFileChanged, "%s: the header is not the one the first pass read", s.path)
	}
	s.r = r
	return nil
}

// checkOutputs refuses the file unless the pass just ended read the output section the
// first pass read.
func (s *snapshotFile) checkOutputs(pass int) error {
	if d, ok := s.r.OutputsDigest(); !ok || d != s.outputs {
		return refuse(ErrFileChanged, "%s: the outputs pass %d read are not the ones the first pass read "+
			"(SHA-256 %x, first %x)", s.path, pass, d, s.outputs)
	}
	return nil
}

// warnIfReplaced logs when the path names another file than the one read: the bootstrap
// holds the ledger of the file it opened, which a node replaced since.
func (s *snapshotFile) warnIfReplaced(log *slog.Logger) {
	opened, err := s.f.Stat()
	if err != nil {
		return
	}
	now, err := os.Stat(s.path)
	if err != nil || !os.SameFile(opened, now) {
		log.Warn("the snapshot path names another file than the one bootstrapped (replaced since it was opened); "+
			"the keyspace holds the ledger of the file opened first", "path", s.path, "kind", kindName(s.r.Kind()))
	}
}

func kindName(k snapshot.Kind) string {
	switch k {
	case snapshot.KindFull:
		return "full"
	case snapshot.KindDelta:
		return "delta"
	}
	return fmt.Sprintf("type %d", k)
}

// filesID identifies a pair of files by their headers and sizes: the checkpoint of one
// bootstrap is never resumed by another.
func filesID(full *snapshotFile, delta *snapshotFile) string {
	h := sha256.New()
	fmt.Fprintf(h, "full %d %+v\n", full.size, *full.r.Full())
	if delta != nil {
		fmt.Fprintf(h, "delta %d %+v\n", delta.size, *delta.r.Delta())
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
