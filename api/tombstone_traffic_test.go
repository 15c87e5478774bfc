package api

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/store"
)

// tombTraffic is the ledger traffic of the tombstone benchmark: every milestone a
// spammer creates perMS basic outputs and spends those of the milestone before, and
// wallets receive two outputs they keep (one to a quiet wallet, one to one of 50
// others). Milestones are 5 s apart, from tombFirst; all of them lie in one
// ms_range_id partition.
type tombTraffic struct {
	name       string
	perMS      int
	milestones uint32
}

// tombChunk is the production partition size; tombFirst lies in partition 10.
const (
	tombChunk   = 250_000
	tombFirst   = 10*tombChunk + 1
	tombWallets = 50
)

// tombKeep are the tables the benchmark writes of each milestone's write set: the
// unspent set (the rows under test), the milestone rows (times, ledger index). The
// output tables and their views are left out: they are not read here, and their view
// writes would lengthen the run.
var tombKeep = map[string]bool{"unspent_outputs": true, "unspent_outputs_by_address": true,
	"milestones": true, "milestones_by_id": true, "milestones_by_bucket": true}

func tombAddress(seed string) chain.Address {
	return chain.Address{Kind: chain.AddressEd25519, ID: sha256.Sum256([]byte(seed))}
}

func tombTime(index uint32) time.Time {
	return time.Unix(1_700_000_000+5*int64(index-tombFirst), 0).UTC()
}

// tombOutput is output j of kind "spam" or "wallet" created in milestone index.
func tombOutput(kind string, index uint32, j int, owner chain.Address) chain.LedgerOutput {
	var seed [40]byte
	copy(seed[:], kind)
	binary.BigEndian.PutUint32(seed[32:], index)
	binary.BigEndian.PutUint32(seed[36:], uint32(j))
	tx := chain.TransactionID(sha256.Sum256(seed[:]))
	return chain.LedgerOutput{OutputID: chain.NewOutputID(tx, 0), MessageID: chain.MessageID(tx),
		Output:         chain.Output{Kind: chain.OutputBasic, Amount: 1_000_000, Address: &owner},
		MilestoneIndex: index, Timestamp: tombTime(index)}
}

// milestone builds milestone index of the traffic.
func (tt tombTraffic) milestone(index uint32) *chain.ConfirmedMilestone {
	at := tombTime(index)
	cm := &chain.ConfirmedMilestone{Index: index, Timestamp: at,
		MilestoneID: chain.MilestoneID(sha256.Sum256(binary.BigEndian.AppendUint32(nil, index))),
		Milestone:   &chain.MilestonePayload{Index: index, Timestamp: uint32(at.Unix()), ProtocolVersion: 2}}
	spammer := tombAddress("spammer")
	for j := range tt.perMS {
		cm.Created = append(cm.Created, tombOutput("spam", index, j, spammer))
		if index > tombFirst {
			cm.Consumed = append(cm.Consumed, chain.LedgerSpent{LedgerOutput: tombOutput("spam", index-1, j, spammer),
				SpentMilestoneIndex: index, SpentTimestamp: at})
		}
	}
	cm.Created = append(cm.Created, tombOutput("wallet", index, 0, tombAddress("wallet-quiet")),
		tombOutput("wallet", index, 1, tombAddress(fmt.Sprintf("wallet-%d", index%tombWallets))))
	return cm
}

// write writes the traffic through the store's milestone builder and returns the
// deletes it issued to unspent_outputs.
func (tt tombTraffic) write(t *testing.T, st *store.Store) int {
	ctx := context.Background()
	deletes := 0
	for index := uint32(tombFirst); index < tombFirst+tt.milestones; index++ {
		ws := st.MilestoneWrites(tt.milestone(index), tombFirst, nil)
		var writes []store.Write
		for _, w := range ws.Writes {
			if tombKeep[w.Table()] {
				writes = append(writes, w)
				if w.Table() == "unspent_outputs" && w.Deletes() {
					deletes++
				}
			}
		}
		writes = append(writes, ws.Hints.Writes(store.Timestamp(index, store.PhaseConfirmed))...)
		if err := st.Apply(ctx, writes, 16); err != nil {
			t.Fatalf("milestone %d: %v", index, err)
		}
		if err := st.WriteSync(ctx, index, 1, 0); err != nil {
			t.Fatalf("sync %d: %v", index, err)
		}
	}
	return deletes
}
