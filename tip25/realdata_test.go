package tip25

import (
	"bytes"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The real data's sizes; the round trips below must cover all of it.
const (
	realBlockCount  = 38 + 43 + 88
	realOutputCount = 32 + 12 + 8 + 8
)

func TestRealBlocksRoundTrip(t *testing.T) {
	blocks := realBlocks(t)
	if len(blocks) != realBlockCount {
		t.Fatalf("%d real blocks, want %d", len(blocks), realBlockCount)
	}
	for _, b := range blocks {
		js := blockJSON(t, b.Raw)
		back, err := DecodeBlock(js)
		if err != nil {
			t.Errorf("block %x: %v\n%s", b.ID, err, js)
			continue
		}
		if !bytes.Equal(back.Encode(), b.Raw) {
			t.Errorf("block %x: JSON -> decode -> encode differs from the raw bytes", b.ID)
		}
	}
}

// blockJSON decodes raw block bytes with the chain codec and renders their JSON.
func blockJSON(t *testing.T, raw []byte) []byte {
	t.Helper()
	return renderedJSON(t, raw, chain.DecodeMessage, Block)
}

func TestRealOutputsRoundTrip(t *testing.T) {
	outputs := realOutputs(t)
	if len(outputs) != realOutputCount {
		t.Fatalf("%d real outputs, want %d", len(outputs), realOutputCount)
	}
	for _, rec := range outputs {
		js := outputJSON(t, rec.Raw)
		back, err := DecodeOutput(js)
		if err != nil {
			t.Errorf("output %x: %v\n%s", rec.OutputID, err, js)
			continue
		}
		if !bytes.Equal(chain.EncodeOutput(back), rec.Raw) {
			t.Errorf("output %x: JSON -> decode -> encode differs from its bytes", rec.OutputID)
		}
	}
}

func outputJSON(t *testing.T, raw []byte) []byte {
	t.Helper()
	return renderedJSON(t, raw, chain.DecodeOutput, Output)
}

func TestRealMilestonesRoundTrip(t *testing.T) {
	for _, m := range realMilestones(t) {
		js := milestoneJSON(t, m.Payload)
		back, err := DecodeMilestone(js)
		if err != nil {
			t.Fatalf("milestone %d: %v\n%s", m.Index, err, js)
		}
		if !bytes.Equal(back.Encode(), m.Payload) {
			t.Errorf("milestone %d: JSON -> decode -> encode differs from the payload bytes", m.Index)
		}
		if back.ID() != m.MilestoneID {
			t.Errorf("milestone %d: ID %s, want %x", m.Index, back.ID(), m.MilestoneID)
		}
	}
}

func milestoneJSON(t *testing.T, payload []byte) []byte {
	t.Helper()
	return renderedJSON(t, payload, chain.DecodeMilestonePayload, Milestone)
}

// renderedJSON decodes raw with the chain codec and marshals the value's TIP-25 form.
func renderedJSON[T, J any](t *testing.T, raw []byte, decode func([]byte) (T, error), form func(T) (J, error)) []byte {
	t.Helper()
	v, err := decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	j, err := form(v)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, j)
}
