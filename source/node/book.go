package node

import (
	"context"
	"slices"
	"sync"
)

// warmWalks is how far below a milestone the Source must be walking for the
// milestone's cone to be walked from bytes alone (see fromBytes): the walks of the
// milestones before it mark the blocks the cone ends at, so the walk stops there
// without asking. A walk with no walk below it (the first milestones the Source reads)
// would follow the past until its budget stops it.
const warmWalks = 8

// settleSpan is how far below a milestone the walks are waited for: a cone ends at
// blocks of the few milestones before it, and a walk far below (a gap being filled)
// does not hold up the walks at the tip.
const settleSpan = 256

// bookSpan bounds the milestones the book remembers walked: the oldest records go first.
const bookSpan = 4096

// recentCones is how many of the latest cones the budget looks at.
const recentCones = 64

// walkBook records the cone walks of a Source: which milestones are being walked, which
// were walked to the end, and how large their cones were. It is shared by the members of
// a Source, whose walks run at once and out of order.
type walkBook struct {
	mu       sync.Mutex
	active   map[uint32]int  // walks running, per milestone
	reserved map[uint32]int  // walks about to start, per milestone
	walked   map[uint32]bool // milestones walked to the end (at most bookSpan: order)
	order    []uint32        // walked, oldest first
	cones    []int           // the sizes of the latest recentCones cones walked
	changed  chan struct{}   // closed and replaced whenever a walk ends
}

func newWalkBook() *walkBook {
	return &walkBook{active: make(map[uint32]int), reserved: make(map[uint32]int), walked: make(map[uint32]bool), changed: make(chan struct{})}
}

// start records that a walk of index begins. It tells whether a milestone up to
// warmWalks below index was walked or is being walked, and returns the function that
// records the walk's end: its cone's size when it succeeded, negative when it failed.
func (b *walkBook) start(index uint32) (warm bool, end func(coneSize int)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.active[index]++
	if b.reserved[index] > 0 {
		b.unreserve(index)
	}
	for d := uint32(1); d <= warmWalks && d < index && !warm; d++ {
		warm = b.walked[index-d] || b.active[index-d] > 0 || b.reserved[index-d] > 0
	}
	var once sync.Once
	return warm, func(coneSize int) { once.Do(func() { b.end(index, coneSize) }) }
}

// reserve records a walk of index that is about to begin, before the goroutine that
// walks it runs: the milestones read ahead start at once in no order, and askers race,
// so a walk that starts before its predecessors' would find none of them. The walk's
// start takes the reservation over; the returned function ends a reservation no walk
// took (the milestone was read ahead, or failed before its walk).
func (b *walkBook) reserve(index uint32) (release func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.reserved[index] > 0 || b.active[index] > 0 {
		return func() {} // an asker whose milestone is read ahead: that walk holds the place
	}
	b.reserved[index]++
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.reserved[index] > 0 {
				b.unreserve(index)
				b.wake()
			}
		})
	}
}

// unreserve takes one reservation of index, under mu.
func (b *walkBook) unreserve(index uint32) {
	if b.reserved[index]--; b.reserved[index] <= 0 {
		delete(b.reserved, index)
	}
}

// wake tells the settling walks that the book changed, under mu.
func (b *walkBook) wake() {
	close(b.changed)
	b.changed = make(chan struct{})
}

func (b *walkBook) end(index uint32, coneSize int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.active[index]--; b.active[index] <= 0 {
		delete(b.active, index)
	}
	if coneSize >= 0 {
		b.record(index, coneSize)
	}
	b.wake()
}

// settle waits until no walk of a milestone up to settleSpan below index runs or is
// reserved: then every block of index's past that their cones hold is marked reached.
func (b *walkBook) settle(ctx context.Context, index uint32) error {
	for {
		b.mu.Lock()
		running := false
		for _, m := range []map[uint32]int{b.active, b.reserved} {
			for i := range m {
				running = running || (i < index && uint64(i)+settleSpan >= uint64(index))
			}
		}
		changed := b.changed
		b.mu.Unlock()
		if !running {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// record notes that index was walked to the end with a cone of coneSize blocks, under
// mu.
func (b *walkBook) record(index uint32, coneSize int) {
	if !b.walked[index] {
		b.walked[index] = true
		b.order = append(b.order, index)
		if len(b.order) > bookSpan {
			delete(b.walked, b.order[0])
			b.order = slices.Delete(b.order, 0, 1)
		}
	}
	b.cones = append(b.cones, coneSize)
	if len(b.cones) > recentCones {
		b.cones = slices.Delete(b.cones, 0, 1)
	}
}

// budget is how many blocks a walk from bytes alone may fetch before it stops: four
// times the largest recent cone, and never fewer than 256. A walk that reaches into
// history no walk of the Source marked stops there, and its milestone is walked with
// the metadata instead.
func (b *walkBook) budget() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	largest := 0
	for _, n := range b.cones {
		largest = max(largest, n)
	}
	return max(256, 4*largest)
}
