package snapshottest

import (
	"errors"
	"io"
)

// MemFile is an in-memory io.WriteSeeker.
type MemFile struct {
	Buf []byte
	Pos int64
}

func (f *MemFile) Write(p []byte) (int, error) {
	if end := f.Pos + int64(len(p)); end > int64(len(f.Buf)) {
		f.Buf = append(f.Buf, make([]byte, end-int64(len(f.Buf)))...)
	}
	copy(f.Buf[f.Pos:], p)
	f.Pos += int64(len(p))
	return len(p), nil
}

func (f *MemFile) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += f.Pos
	case io.SeekEnd:
		offset += int64(len(f.Buf))
	}
	if offset < 0 {
		return 0, errors.New("memFile: negative position")
	}
	f.Pos = offset
	return offset, nil
}
