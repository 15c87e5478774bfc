package archive

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/source"
)

// Source serves the milestones of archive files (source.Source): contiguous ranges,
// read in order. The pipeline asks for milestones in order, FetchAhead at once, so a
// request may come before those just below it: the records of the window below the
// milestone asked for (Limits.Window) are decoded and held until asked for, the records
// further below are skipped undecoded, and nothing below the window is kept. A milestone
// asked for again once passed (after a database outage) reopens the archive.
type Source struct {
	files   []fileInfo
	network chain.Network
	limits  Limits

	mu      sync.Mutex
	cur     int // index in files of the open archive
	f       *os.File
	r       *Reader
	ahead   map[uint32]*chain.ConfirmedMilestone
	failure error // a corrupt or refused record: every later milestone is refused too
}

type fileInfo struct {
	path   string
	header Header
}

var _ source.Source = (*Source)(nil)

// Open reads the headers of the archives: one network, contiguous ranges in the order
// given. keys verify the milestones; nil means the built-in keys of the network the
// headers name (chain.KnownKeys: Shimmer's or IOTA's). The default Limits apply.
func Open(paths []string, keys *chain.MilestoneKeys) (*Source, error) {
	return OpenLimited(paths, keys, Limits{})
}

// OpenLimited is Open with limits on what reading holds (zero fields: the defaults).
func OpenLimited(paths []string, keys *chain.MilestoneKeys, limits Limits) (*Source, error) {
	if len(paths) == 0 {
		return nil, errors.New("archive: no files")
	}
	s := &Source{cur: -1, ahead: map[uint32]*chain.ConfirmedMilestone{}, limits: limits.withDefaults()}
	for i, p := range paths {
		h, err := ReadHeader(p)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			prev := s.files[i-1].header
			if h.Network != prev.Network {
				return nil, fmt.Errorf("archive %s is of network %s, %s of %s", p, h.Network.Name, paths[0], prev.Network.Name)
			}
			if h.From != prev.To+1 {
				return nil, fmt.Errorf("archive %s starts at milestone %d, the one before it ends at %d: "+
					"give contiguous archives in order", p, h.From, prev.To)
			}
		}
		s.files = append(s.files, fileInfo{p, h})
	}
	net, err := networkOf(s.files[0].header, keys)
	s.network = net
	return s, err
}

// ReadHeader reads the header of the archive at path.
func ReadHeader(path string) (Header, error) {
	f, err := os.Open(path)
	if err != nil {
		return Header{}, err
	}
	defer f.Close()
	r, err := NewReader(f, path)
	if err != nil {
		return Header{}, err
	}
	defer r.Close()
	return r.Header(), nil
}

// networkOf is the network a header names, verified with keys or the built-in ones
// (chain.KnownKeys).
func networkOf(h Header, keys *chain.MilestoneKeys) (chain.Network, error) {
	n := chain.Network{Name: h.Network.Name, HRP: h.Network.HRP}
	if h.Protocol != nil {
		n.Params = h.Protocol.Params
		if h.Protocol.BaseToken != nil {
			n.BaseToken = *h.Protocol.BaseToken
		}
	}
	switch {
	case keys != nil:
		n.Keys = *keys
	default:
		known, ok := chain.KnownKeys(n.Name)
		if !ok {
			return n, fmt.Errorf("archive of network %q: no built-in milestone keys; give them (-milestone-keys)", n.Name)
		}
		n.Keys = known
	}
	if fmt.Sprint(n.ID()) != h.Network.NetworkID {
		return n, fmt.Errorf("archive header: network %q has ID %d, the header says %s", n.Name, n.ID(), h.Network.NetworkID)
	}
	return n, nil
}

// Range is the milestones the archives hold.
func (s *Source) Range() (from, to uint32) {
	return s.files[0].header.From, s.files[len(s.files)-1].header.To
}

// Network is the network the archives' headers name.
func (s *Source) Network(context.Context) (chain.Network, error) { return s.network, nil }

// Latest is the last milestone of the last archive.
func (s *Source) Latest(context.Context) (uint32, error) {
	_, to := s.Range()
	return to, nil
}

// Unreferenced returns nothing: an archive holds confirmed milestones only.
func (s *Source) Unreferenced(context.Context, uint32) ([]chain.UnreferencedMessage, error) {
	return nil, nil
}

// Milestone returns milestone index verified, reading the archives up to it. A corrupt,
// truncated or over-cap record is a source.Refusal (naming the file, record and offset),
// for this milestone and every later one: nothing of it was handed on.
func (s *Source) Milestone(ctx context.Context, index uint32) (*chain.VerifiedMilestone, error) {
	return source.Verified(ctx, index, s.network, s.confirmed)
}

// confirmed reads milestone index from the archives, unverified.
func (s *Source) confirmed(ctx context.Context, index uint32) (*chain.ConfirmedMilestone, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if cm, ok := s.ahead[index]; ok {
		delete(s.ahead, index)
		return cm, nil
	}
	fi := s.fileOf(index)
	if fi < 0 {
		return nil, fmt.Errorf("%w: milestone %d is not in the archives", source.ErrNotFound, index)
	}
	if s.failure != nil {
		return nil, s.failure
	}
	s.forgetBelow(index)
	if err := s.seek(fi, index); err != nil {
		return nil, err
	}
	return s.readTo(ctx, index)
}

func (s *Source) fileOf(index uint32) int {
	for i, f := range s.files {
		if index >= f.header.From && index <= f.header.To {
			return i
		}
	}
	return -1
}

// Close closes the open archive.
func (s *Source) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeFile()
	return nil
}
