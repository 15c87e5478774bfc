package snapshot

import (
	"fmt"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// place is where the reader found an entry: its first byte and its name ("header",
// "output 17", "diff 2", "diff 2 created 5", "SEP 3"), built only when an error needs it.
type place struct {
	offset int64
	diff   int64 // -1 outside diffs
	part   string
	item   int64 // -1 for a part without items
}

func (p place) String() string {
	s := p.part
	if p.item >= 0 {
		s = fmt.Sprintf("%s %d", s, p.item)
	}
	if p.diff < 0 {
		return s
	}
	if s == "" {
		return fmt.Sprintf("diff %d", p.diff)
	}
	return fmt.Sprintf("diff %d %s", p.diff, s)
}

// Ledger decodes the output strictly (chain.DecodeOutput). A snapshot's ledger holds only
// the outputs a Stardust transaction creates, so any other type (the Chrysalis outputs,
// the treasury output, which the header carries on its own) is refused with
// ErrOutputType; bytes that do not decode are refused with ErrMalformed. For an output the
// reader returned, the error gives the offset of its bytes in the file.
func (o *Output) Ledger() (chain.LedgerOutput, error) {
	out, err := o.Decode()
	if err != nil {
		return chain.LedgerOutput{}, err
	}
	return chain.LedgerOutput{
		OutputID:       o.OutputID,
		MessageID:      o.BlockID,
		Output:         out,
		MilestoneIndex: o.BookedIndex,
		Timestamp:      unixTime(o.BookedTimestamp),
	}, nil
}

// LedgerSpent decodes the output as Ledger does and adds the spend; index and timestamp
// are those of the milestone whose diff holds it (the file does not repeat them).
func (s *Spent) LedgerSpent(index, timestamp uint32) (chain.LedgerSpent, error) {
	lo, err := s.Ledger()
	if err != nil {
		return chain.LedgerSpent{}, err
	}
	return chain.LedgerSpent{LedgerOutput: lo, SpentBy: s.SpentBy,
		SpentMilestoneIndex: index, SpentTimestamp: unixTime(timestamp)}, nil
}

// Ledger decodes the diff's created and consumed outputs; the consumed ones are spent at
// the diff's milestone.
func (d *Diff) Ledger() ([]chain.LedgerOutput, []chain.LedgerSpent, error) {
	created := make([]chain.LedgerOutput, len(d.Created))
	for i := range d.Created {
		lo, err := d.Created[i].Ledger()
		if err != nil {
			return nil, nil, err
		}
		created[i] = lo
	}
	consumed := make([]chain.LedgerSpent, len(d.Consumed))
	for i := range d.Consumed {
		ls, err := d.Consumed[i].LedgerSpent(d.Milestone.Index, d.Milestone.Timestamp)
		if err != nil {
			return nil, nil, err
		}
		consumed[i] = ls
	}
	return created, consumed, nil
}

// Decode decodes the output's bytes; malformed bytes or an output type other than basic,
// alias, foundry or NFT are refused with a FormatError.
func (o *Output) Decode() (chain.Output, error) {
	if len(o.Raw) == 0 {
		return chain.Output{}, o.refuse(ErrMalformed, fmt.Errorf("no output bytes"))
	}
	if k := chain.OutputKind(o.Raw[0]); k < chain.OutputBasic || k > chain.OutputNFT {
		return chain.Output{}, o.refuse(ErrOutputType, fmt.Errorf("type %d", o.Raw[0]))
	}
	out, err := chain.DecodeOutput(o.Raw)
	if err != nil {
		return chain.Output{}, o.refuse(ErrMalformed, err)
	}
	return out, nil
}

// refuse reports the output's bytes: at their offset when the reader found them.
func (o *Output) refuse(sentinel, cause error) error {
	if o.at.part == "" {
		return &FormatError{Offset: -1, Field: "output bytes", Err: sentinel, Cause: cause}
	}
	return &FormatError{Offset: o.at.offset + outputHeadLen, Field: o.at.String() + " bytes",
		Err: sentinel, Cause: cause}
}

// unixTime is a milestone timestamp (unix seconds) as the chain types hold it.
func unixTime(sec uint32) time.Time { return time.Unix(int64(sec), 0).UTC() }
