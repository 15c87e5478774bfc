package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Reader reads an archive's milestones in order, each checked whole (checksum, then
// decoding) before Next returns it.
type Reader struct {
	name   string
	gz     *gzip.Reader
	r      *bufio.Reader
	header Header
	record int   // records read so far (the header is record 0)
	offset int64 // decompressed bytes read so far
	done   bool
}

// NewReader reads and checks the header; name labels errors (the file's name).
func NewReader(r io.Reader, name string) (*Reader, error) {
	ar := &Reader{name: name}
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, ar.corrupt(0, fmt.Errorf("not a gzip stream: %w", err))
	}
	gz.Multistream(false)
	ar.gz, ar.r = gz, bufio.NewReaderSize(gz, 64<<10)
	if err := ar.readHeader(); err != nil {
		return nil, ar.corrupt(0, err)
	}
	return ar, nil
}

// Header is the archive's header.
func (r *Reader) Header() Header { return r.header }

func (r *Reader) corrupt(at int64, err error) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = fmt.Errorf("truncated: %w", err)
	case errors.Is(err, io.EOF):
		err = fmt.Errorf("truncated: %w", io.ErrUnexpectedEOF)
	}
	return &CorruptError{File: r.name, Record: r.record, Offset: at, Err: err}
}

func (r *Reader) readHeader() error {
	magic, err := r.read(len(Magic) + 6)
	if err != nil {
		return err
	}
	if string(magic[:len(Magic)]) != Magic {
		return errors.New("not a stardust-indexer archive (bad magic)")
	}
	if v := binary.LittleEndian.Uint16(magic[len(Magic):]); v != Version {
		return fmt.Errorf("format version %d, this indexer reads %d", v, Version)
	}
	n := binary.LittleEndian.Uint32(magic[len(Magic)+2:])
	if n > maxHeader {
		return fmt.Errorf("header of %d bytes (at most %d)", n, maxHeader)
	}
	head, err := r.read(int(n) + 4)
	if err != nil {
		return err
	}
	crc := crc32.Update(crc32.Checksum(magic[len(Magic):], castagnoli), castagnoli, head[:n])
	if crc != binary.LittleEndian.Uint32(head[n:]) {
		return errors.New("header checksum mismatch")
	}
	if err := json.Unmarshal(head[:n], &r.header); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if r.header.From == 0 || r.header.To < r.header.From || r.header.Network.Name == "" {
		return fmt.Errorf("header: range %d..%d of network %q", r.header.From, r.header.To, r.header.Network.Name)
	}
	return nil
}

// read reads exactly n bytes (growing the buffer only as bytes arrive).
func (r *Reader) read(n int) ([]byte, error) {
	var buf bytes.Buffer
	got, err := io.CopyN(&buf, r.r, int64(n))
	r.offset += got
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Next returns the next milestone, io.EOF after the last one (once the end marker and
// the compressed stream's own checksum were checked), or a *CorruptError.
func (r *Reader) Next() (*chain.ConfirmedMilestone, error) {
	if r.done {
		return nil, io.EOF
	}
	at := r.offset
	r.record++
	cm, end, err := r.next()
	if err != nil {
		return nil, r.corrupt(at, err)
	}
	if end {
		r.done = true
		return nil, io.EOF
	}
	if want := r.header.From + uint32(r.record-1); cm.Index != want || cm.Index > r.header.To {
		return nil, r.corrupt(at, fmt.Errorf("milestone %d where %d was due (range %d..%d)",
			cm.Index, want, r.header.From, r.header.To))
	}
	return cm, nil
}

// next reads one record or the end marker.
func (r *Reader) next() (cm *chain.ConfirmedMilestone, end bool, err error) {
	head, err := r.read(4)
	if err != nil {
		return nil, false, err
	}
	n := binary.LittleEndian.Uint32(head)
	if n == 0 {
		return nil, true, r.end(head)
	}
	if n > maxRecord {
		return nil, false, fmt.Errorf("record of %d bytes (at most %d)", n, maxRecord)
	}
	rest, err := r.read(int(n) + 4)
	if err != nil {
		return nil, false, err
	}
	crc := crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, rest[:n])
	if crc != binary.LittleEndian.Uint32(rest[n:]) {
		return nil, false, errors.New("checksum mismatch")
	}
	cm, err = decodeMilestone(rest[:n])
	return cm, false, err
}

// end checks the end marker: the record count, every milestone of the range present,
// nothing after, and the compressed stream's own checksum.
func (r *Reader) end(head []byte) error {
	rest, err := r.read(8)
	if err != nil {
		return err
	}
	if crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, rest[:4]) != binary.LittleEndian.Uint32(rest[4:]) {
		return errors.New("end marker checksum mismatch")
	}
	count, want := binary.LittleEndian.Uint32(rest), uint64(r.header.To-r.header.From)+1
	if uint64(count) != want || uint64(r.record-1) != want {
		return fmt.Errorf("end marker after %d records counts %d, the range %d..%d has %d",
			r.record-1, count, r.header.From, r.header.To, want)
	}
	if extra, err := r.r.ReadByte(); err == nil {
		return fmt.Errorf("data after the end marker (byte %#x)", extra)
	} else if !errors.Is(err, io.EOF) {
		return err // the gzip trailer's checksum or length did not match
	}
	return nil
}

// Close releases the decompressor (not the underlying reader).
func (r *Reader) Close() error { return r.gz.Close() }
