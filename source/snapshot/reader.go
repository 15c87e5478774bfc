package snapshot

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
)

// stage is the section the reader is in; a file's sections come in this order.
type stage uint8

const (
	stageOutputs stage = iota
	stageDiffs
	stageSEPs
	stageDone
)

// Reader streams a snapshot file: the header (read by NewReader), then the outputs one at
// a time (full files), the diffs one at a time, the SEPs, and Finish, which checks that
// nothing follows. Asking for a later section skips what is left of the earlier ones,
// reading and checking it. Memory is bounded by one diff, and a diff by Limits. The first
// error sticks: every later call returns it.
type Reader struct {
	src   *bufio.Reader
	off   int64
	limit int64 // the end of the diff being read; -1 outside diffs
	where place // the entry being read, for error messages

	limits    Limits
	diffBytes int64     // the stated lengths of the diffs read so far
	outHash   hash.Hash // of the output section's bytes
	hashing   bool      // while an output entry is read

	kind  Kind
	full  *FullHeader
	delta *DeltaHeader

	stage   stage
	outputs uint64 // entries read so far, per section
	diffs   uint32
	seps    uint16
	last    uint32 // the index of the last diff read
	err     error
	scratch [8]byte
}

// NewReader reads and checks the version, the type and the header. Errors about the file's
// content are *FormatError; an error of rd itself comes back wrapped, with the offset.
func NewReader(rd io.Reader) (*Reader, error) {
	r := &Reader{src: bufio.NewReaderSize(rd, 64<<10), limit: -1, limits: DefaultLimits, outHash: sha256.New(),
		where: place{diff: -1, part: "header", item: -1}}
	if err := r.readHeader(); err != nil {
		return nil, err
	}
	return r, nil
}

// Kind is the file's type.
func (r *Reader) Kind() Kind { return r.kind }

// Full is a full file's header (nil for a delta).
func (r *Reader) Full() *FullHeader { return r.full }

// Delta is a delta file's header (nil for a full file).
func (r *Reader) Delta() *DeltaHeader { return r.delta }

// SetLimits replaces DefaultLimits for the diffs not read yet; a zero field keeps its default.
func (r *Reader) SetLimits(l Limits) {
	r.limits = l.withDefaults()
}

// OutputsDigest is the SHA-256 of the output section's bytes as read (every output entry,
// in file order); ok is false until the whole section was read. Two readings of a file
// whose digests agree read the same outputs.
func (r *Reader) OutputsDigest() (digest [sha256.Size]byte, ok bool) {
	if r.full != nil && r.outputs < r.full.OutputCount {
		return digest, false
	}
	r.outHash.Sum(digest[:0])
	return digest, true
}

// Offset is the number of the file's bytes consumed so far (the reader buffers ahead of it).
func (r *Reader) Offset() int64 { return r.off }

// refuse builds the error about the field name of the current entry.
func (r *Reader) refuse(at int64, name string, sentinel, cause error) error {
	return &FormatError{Offset: at, Field: r.field(name), Err: sentinel, Cause: cause}
}

func (r *Reader) field(name string) string {
	if name == "" {
		return r.where.String()
	}
	return r.where.String() + " " + name
}

// fill reads len(dst) bytes of field name. Inside a diff it refuses to read past the
// diff's stated length.
func (r *Reader) fill(name string, dst []byte) error {
	if r.limit >= 0 && r.off+int64(len(dst)) > r.limit {
		return r.refuse(r.off, name, ErrMalformed,
			fmt.Errorf("runs past the end of the diff (offset %d) by its length", r.limit))
	}
	n, err := io.ReadFull(r.src, dst)
	r.off += int64(n)
	if r.hashing {
		r.outHash.Write(dst[:n])
	}
	switch {
	case err == nil:
		return nil
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return r.refuse(r.off, name, ErrTruncated, fmt.Errorf("%d of %d bytes present", n, len(dst)))
	default:
		return fmt.Errorf("snapshot: offset %d (%s): %w", r.off, r.field(name), err)
	}
}

func (r *Reader) u8(name string) (uint8, error) {
	err := r.fill(name, r.scratch[:1])
	return r.scratch[0], err
}

func (r *Reader) u16(name string) (uint16, error) {
	err := r.fill(name, r.scratch[:2])
	return binary.LittleEndian.Uint16(r.scratch[:2]), err
}

func (r *Reader) u32(name string) (uint32, error) {
	err := r.fill(name, r.scratch[:4])
	return binary.LittleEndian.Uint32(r.scratch[:4]), err
}

func (r *Reader) u64(name string) (uint64, error) {
	err := r.fill(name, r.scratch[:8])
	return binary.LittleEndian.Uint64(r.scratch[:8]), err
}

// length reads a u32 length of field name and checks it is in minLen..maxLen.
func (r *Reader) length(name string, minLen, maxLen uint32) (int, error) {
	at := r.off
	n, err := r.u32(name)
	if err == nil && (n < minLen || n > maxLen) {
		err = r.refuse(at, name, ErrMalformed, fmt.Errorf("%d not in %d..%d", n, minLen, maxLen))
	}
	return int(n), err
}

// fail makes err sticky and returns it.
func (r *Reader) fail(err error) error {
	r.err = err
	return err
}
