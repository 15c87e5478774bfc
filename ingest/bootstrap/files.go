package bootstrap

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/stardust-indexer/stardust-indexer/source/snapshot"
)

// readBuffer is the read buffer of a snapshot file: large sequential reads.
const readBuffer = 1 << 20

// snapshotFile is one open snapshot file and its reader.
type snapshotFile struct {
	path string
	f    *os.File
	size int64
	r    *snapshot.Reader
}

// openSnapshot opens path and reads its header; want is the kind it must be.
func openSnapshot(path string, want snapshot.Kind) (*snapshotFile, error) {
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
	if r.Kind() != want {
		f.Close()
		return nil, refuse(ErrWrongKind, "%s is a %s snapshot, want a %s one", path, kindName(r.Kind()), kindName(want))
	}
	return &snapshotFile{path: path, f: f, size: fi.Size(), r: r}, nil
}

func (s *snapshotFile) Close() error { return s.f.Close() }

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
