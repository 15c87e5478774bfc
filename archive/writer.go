package archive

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Writer streams milestones into an archive: one record per milestone, each written
// as soon as it is given. Close writes the end marker; an archive without it is refused
// as truncated.
type Writer struct {
	gz      *gzip.Writer
	buf     *bufio.Writer
	records uint32
	next    uint32
	to      uint32
}

// NewWriter writes the header of an archive of milestones h.From..h.To to w.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	if h.From == 0 || h.To < h.From {
		return nil, fmt.Errorf("archive: range %d..%d: want 1 <= from <= to", h.From, h.To)
	}
	head, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	gz := gzip.NewWriter(w)
	aw := &Writer{gz: gz, buf: bufio.NewWriterSize(gz, 1<<20), next: h.From, to: h.To}
	var b []byte
	b = append(b, Magic...)
	b = binary.LittleEndian.AppendUint16(b, Version)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(head)))
	b = append(b, head...)
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[len(Magic):], castagnoli))
	_, err = aw.buf.Write(b)
	return aw, err
}

// Write appends the record of cm, which must be the next milestone of the range.
func (w *Writer) Write(cm *chain.ConfirmedMilestone) error {
	if cm.Index != w.next || cm.Index > w.to {
		return fmt.Errorf("archive: milestone %d given, want %d (range ..%d)", cm.Index, w.next, w.to)
	}
	w.next++
	w.records++
	return w.frame(encodeMilestone(cm))
}

// frame writes length ‖ body ‖ CRC32C(length ‖ body).
func (w *Writer) frame(body []byte) error {
	head := binary.LittleEndian.AppendUint32(nil, uint32(len(body)))
	crc := crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, body)
	if _, err := w.buf.Write(head); err != nil {
		return err
	}
	if _, err := w.buf.Write(body); err != nil {
		return err
	}
	_, err := w.buf.Write(binary.LittleEndian.AppendUint32(nil, crc))
	return err
}

// Close writes the end marker (after every milestone of the range) and flushes the
// compressed stream; it does not close the underlying writer.
func (w *Writer) Close() error {
	if w.next != w.to+1 {
		return fmt.Errorf("archive: closed after milestone %d, the range ends at %d", w.next-1, w.to)
	}
	end := binary.LittleEndian.AppendUint32(nil, 0)
	end = binary.LittleEndian.AppendUint32(end, w.records)
	end = binary.LittleEndian.AppendUint32(end, crc32.Checksum(end, castagnoli))
	if _, err := w.buf.Write(end); err != nil {
		return err
	}
	if err := w.buf.Flush(); err != nil {
		return err
	}
	return w.gz.Close()
}
