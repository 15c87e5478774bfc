package archive

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// readTo reads the open archive, and the ones after it, up to milestone index: the
// records of the window below index are decoded and held, those further below skipped.
func (s *Source) readTo(ctx context.Context, index uint32) (*chain.ConfirmedMilestone, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cm, err := s.step(index)
		if err != nil {
			return nil, s.fail(err)
		}
		if cm != nil && cm.Index == index {
			return cm, nil
		}
	}
}

// step reads one record (or the end of the open archive) on the way to index: cm is
// nil for a record skipped or an archive ended.
func (s *Source) step(index uint32) (cm *chain.ConfirmedMilestone, err error) {
	next := s.nextIndex()
	switch {
	case next > s.files[s.cur].header.To:
		return nil, s.nextFile()
	case !s.inWindow(next, index):
		return nil, s.r.Skip()
	}
	if cm, err = s.r.Next(); err == nil && cm.Index != index {
		s.ahead[cm.Index] = cm
	}
	return cm, err
}

// inWindow tells whether milestone i is held on the way to index: it may still be asked
// for by the requests in flight with the one for index.
func (s *Source) inWindow(i, index uint32) bool {
	return uint64(i)+uint64(s.limits.Window) >= uint64(index)
}

// forgetBelow drops the held milestones below index's window: no request in flight asks
// for them any more.
func (s *Source) forgetBelow(index uint32) {
	for i := range s.ahead {
		if !s.inWindow(i, index) {
			delete(s.ahead, i)
		}
	}
}

// nextFile reads the end of the open archive, whose range was read whole, and opens the
// next one (readTo only reads on to an index in a later archive).
func (s *Source) nextFile() error {
	err := s.r.Skip()
	switch {
	case err == nil:
		return fmt.Errorf("archive %s holds records after milestone %d", s.files[s.cur].path, s.files[s.cur].header.To)
	case !errors.Is(err, io.EOF):
		return err
	}
	return s.open(s.cur + 1)
}

// fail refuses this milestone and every later one: err, a source.Refusal.
func (s *Source) fail(err error) error {
	if !errors.As(err, new(*source.Refusal)) {
		err = source.Refuse(s.unexpected(err))
	}
	s.failure = err
	s.closeFile()
	return err
}

// unexpected turns an early io.EOF (the archive ended before the milestone asked for)
// into a refusal.
func (s *Source) unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("archive %s ended before the milestone asked for", s.files[s.cur].path)
	}
	return err
}

// seek makes the open reader one that reaches index by reading forward: the open one if
// it has not passed index yet and, when index is in a later archive, still holds
// milestones of index's window; else the archive fi of index, opened from its start.
func (s *Source) seek(fi int, index uint32) error {
	if s.r != nil && s.nextIndex() <= index &&
		(s.cur == fi || s.cur < fi && s.inWindow(s.files[s.cur].header.To, index)) {
		return nil
	}
	return s.open(fi)
}

// open opens archive fi, positioned at its first milestone.
func (s *Source) open(fi int) error {
	s.closeFile()
	f, err := os.Open(s.files[fi].path)
	if err != nil {
		return err
	}
	r, err := NewReader(f, s.files[fi].path)
	if err != nil {
		f.Close()
		return source.Refuse(err)
	}
	r.SetMaxRecord(s.limits.MaxRecord)
	s.cur, s.f, s.r = fi, f, r
	return nil
}

// nextIndex is the milestone the open reader reads next.
func (s *Source) nextIndex() uint32 { return s.r.header.From + uint32(s.r.record) }

func (s *Source) closeFile() {
	if s.r != nil {
		s.r.Close()
		s.f.Close()
	}
	s.r, s.f = nil, nil
}
