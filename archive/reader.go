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
	name      string
	gz        *gzip.Reader
	r         *bufio.Reader
	header    Header
	record    int   // records read so far (the header is record 0)
	offset    int64 // decompressed bytes read so far
	done      bool
	maxRecord uint32
}

// NewReader reads and checks the header; name labels errors (the file's name). Records
// are capped at DefaultMaxRecord (SetMaxRecord).
func NewReader(r io.Reader, name string) (*Reader, error) {
	ar := &Reader{name: name, maxRecord: DefaultMaxRecord}
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

// SetMaxRecord caps the record bodies read (0: DefaultMaxRecord): a record declaring more
// is a *TooLargeError, refused before any of its body is read.
func (r *Reader) SetMaxRecord(n uint32) { r.maxRecord = Limits{MaxRecord: n}.withDefaults().MaxRecord }

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
// the compressed stream's own checksum were checked), a *CorruptError or a *TooLargeError.
func (r *Reader) Next() (*chain.ConfirmedMilestone, error) {
	at, n, err := r.begin()
	if err != nil {
		return nil, err
	}
	body, err := r.read(int(n) + 4)
	if err == nil {
		err = checkSum(recordCRC(n, body[:n]), body[n:])
	}
	var cm *chain.ConfirmedMilestone
	if err == nil {
		cm, err = decodeMilestone(body[:n])
	}
	if err != nil {
		return nil, r.corrupt(at, err)
	}
	if want := r.header.From + uint32(r.record-1); cm.Index != want || cm.Index > r.header.To {
		return nil, r.corrupt(at, fmt.Errorf("milestone %d where %d was due (range %d..%d)",
			cm.Index, want, r.header.From, r.header.To))
	}
	return cm, nil
}

// Skip passes over the next record as Next reads it, but neither holds nor decodes it:
// its bytes stream through the read buffer into its checksum, which is checked. io.EOF
// after the last record, as Next.
func (r *Reader) Skip() error {
	at, n, err := r.begin()
	if err != nil {
		return err
	}
	crc, err := r.discard(n)
	var sum []byte
	if err == nil {
		sum, err = r.read(4)
	}
	if err == nil {
		err = checkSum(crc, sum)
	}
	if err != nil {
		return r.corrupt(at, err)
	}
	return nil
}

// discard streams a body of n bytes through the read buffer and returns the record's
// checksum over its length and those bytes.
func (r *Reader) discard(n uint32) (uint32, error) {
	crc := recordCRC(n, nil)
	for left := int(n); left > 0; {
		b, err := r.r.Peek(min(left, r.r.Size()))
		crc = crc32.Update(crc, castagnoli, b)
		d, _ := r.r.Discard(len(b))
		r.offset, left = r.offset+int64(d), left-d
		if err != nil {
			return crc, err
		}
	}
	return crc, nil
}

// begin reads the length of the next record and checks it against the cap; after the
// last record it reads the end marker (io.EOF).
func (r *Reader) begin() (at int64, n uint32, err error) {
	if r.done {
		return 0, 0, io.EOF
	}
	at = r.offset
	r.record++
	head, err := r.read(4)
	if err != nil {
		return at, 0, r.corrupt(at, err)
	}
	switch n = binary.LittleEndian.Uint32(head); {
	case n == 0:
		if err := r.end(head); err != nil {
			return at, 0, r.corrupt(at, err)
		}
		r.done = true
		return at, 0, io.EOF
	case n > r.maxRecord:
		return at, n, &TooLargeError{File: r.name, Record: r.record, Offset: at, Declared: n, Max: r.maxRecord}
	}
	return at, n, nil
}

// recordCRC is the checksum of a record: CRC32C of its length and body.
func recordCRC(n uint32, body []byte) uint32 {
	return crc32.Update(crc32.Checksum(binary.LittleEndian.AppendUint32(nil, n), castagnoli), castagnoli, body)
}

func checkSum(crc uint32, sum []byte) error {
	if crc != binary.LittleEndian.Uint32(sum) {
		return errors.New("checksum mismatch")
	}
	return nil
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
