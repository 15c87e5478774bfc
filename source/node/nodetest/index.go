package nodetest

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/stardust-indexer/stardust-indexer/internal/realdata"
)

// index is the view of a realdata.Set the handlers answer from. It only changes when a
// growing node adds or forgets milestones (grow.go); mu guards that.
type index struct {
	mu         sync.RWMutex
	blocks     map[[32]byte]*realdata.Block
	outside    map[[32]byte]bool // parents of cone blocks that no cone holds
	milestones map[uint32]*realdata.Milestone
	byID       map[[32]byte]uint32
	outputs    map[[34]byte]*outputState
	set        *realdata.Set
	lowest     uint32
	highest    uint32
}

// outputState joins an output's creation record with its spending record, if any.
type outputState struct {
	out   realdata.Output
	spent *realdata.Spent
}

func newIndex(set *realdata.Set) (*index, error) {
	if len(set.Milestones) == 0 {
		return nil, fmt.Errorf("nodetest: empty set")
	}
	ix := &index{blocks: map[[32]byte]*realdata.Block{}, outside: map[[32]byte]bool{},
		milestones: set.Milestones, byID: map[[32]byte]uint32{}, outputs: map[[34]byte]*outputState{},
		set: set, lowest: set.Lowest(), highest: set.Highest()}
	for idx, m := range set.Milestones {
		ix.byID[m.MilestoneID] = idx
		for i := range m.Cone {
			ix.blocks[m.Cone[i].ID] = &m.Cone[i]
		}
		for i := range m.Created {
			if err := ix.addOutput(m.Created[i], nil); err != nil {
				return nil, err
			}
		}
		for i := range m.Consumed {
			if err := ix.addOutput(m.Consumed[i].Output, &m.Consumed[i]); err != nil {
				return nil, err
			}
		}
	}
	ix.findOutside()
	return ix, nil
}

// addOutput merges one record; an output met twice (created here, spent later) must agree.
func (ix *index) addOutput(o realdata.Output, spent *realdata.Spent) error {
	st := ix.outputs[o.OutputID]
	if st == nil {
		st = &outputState{out: o}
		ix.outputs[o.OutputID] = st
	} else if !bytes.Equal(st.out.Raw, o.Raw) || st.out.Booked != o.Booked || st.out.BlockID != o.BlockID {
		return fmt.Errorf("nodetest: output %x: records disagree", o.OutputID)
	}
	if spent != nil {
		st.spent = spent
	}
	return nil
}

// findOutside collects the parents no cone holds: blocks referenced by earlier milestones.
func (ix *index) findOutside() {
	for _, b := range ix.blocks {
		for _, p := range b.Parents {
			if ix.blocks[p] == nil {
				ix.outside[p] = true
			}
		}
	}
}

func (ix *index) block(id [32]byte) *realdata.Block {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.blocks[id]
}

func (ix *index) isOutside(id [32]byte) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.outside[id]
}

func (ix *index) milestone(i uint32) *realdata.Milestone {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.milestones[i]
}

func (ix *index) milestoneIndex(id [32]byte) (uint32, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	i, ok := ix.byID[id]
	return i, ok
}

// output is a copy: a milestone added later may record the output's spend.
func (ix *index) output(id [34]byte) (outputState, bool) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	st := ix.outputs[id]
	if st == nil {
		return outputState{}, false
	}
	return *st, true
}

func (ix *index) bounds() (lowest, highest uint32) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.lowest, ix.highest
}

func (ix *index) lowestIndex() uint32 {
	lowest, _ := ix.bounds()
	return lowest
}
