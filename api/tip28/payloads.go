package tip28

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// milestoneInfo is the payload of milestone-info/latest and milestone-info/confirmed,
// as inx-mqtt sends it.
type milestoneInfo struct {
	Index       uint32 `json:"index"`
	Timestamp   uint32 `json:"timestamp"`
	MilestoneID string `json:"milestoneId"`
}

// outputPayload is an output and its TIP-25 metadata in the ledger at index at, the
// payload of the output topics (inx-mqtt's, the REST output answer's form). A creation
// is told as it was when made: unspent, even when the same milestone spent it.
func (b *Broker) outputPayload(ctx context.Context, lo *rest.LedgerOutput, at uint32, creation bool) ([]byte, error) {
	row := lo.Row
	if creation {
		row.SpentBy, row.SpentMilestoneIndex = "", nil
	}
	meta, err := rest.OutputMetadataAt(ctx, lo.ID, lo.Block, &row, lo.Booked, at, b.st.Milestone)
	if err != nil {
		return nil, err
	}
	out, err := tip25.OutputResponse(lo.Output, meta)
	if err != nil {
		return nil, fmt.Errorf("tip28: output %s: %w", lo.ID, err)
	}
	return json.Marshal(out)
}

// condAddress is an address an output's unlock condition names, and the condition's
// name in the unlock topics.
type condAddress struct {
	cond    string
	address chain.Address
}

// unlockAddresses are the addresses an output's unlock conditions name, as TIP-28's
// unlock topics tell them apart.
func unlockAddresses(o *chain.Output) []condAddress {
	var out []condAddress
	add := func(cond string, a *chain.Address) {
		if a != nil {
			out = append(out, condAddress{cond, *a})
		}
	}
	switch o.Kind {
	case chain.OutputBasic, chain.OutputNFT:
		add("address", o.Address)
		if r := o.StorageDepositReturn; r != nil {
			add("storage-return", &r.ReturnAddress)
		}
		if e := o.Expiration; e != nil {
			add("expiration", &e.ReturnAddress)
		}
	case chain.OutputAlias:
		add("state-controller", o.StateController)
		add("governor", o.Governor)
	case chain.OutputFoundry:
		add("immutable-alias", o.Address)
	}
	return out
}
