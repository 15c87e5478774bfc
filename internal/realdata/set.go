package realdata

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

func loadSet() (*Set, error) {
	var file map[string]fileMilestone
	if err := readStrict(milestonesFile, &file); err != nil {
		return nil, err
	}
	s := &Set{Milestones: map[uint32]*Milestone{}}
	var first *fileMilestoneData
	for key, fm := range file {
		m, err := convertMilestone(key, fm)
		if err != nil {
			return nil, fmt.Errorf("realdata: milestone %s: %w", key, err)
		}
		s.Milestones[m.Index] = m
		// The Set holds one copy of the parameters, so they must not differ between milestones.
		if first == nil {
			first = &fm.MilestoneData
		} else if !reflect.DeepEqual(first.ProtocolParams, fm.MilestoneData.ProtocolParams) ||
			!reflect.DeepEqual(first.NodeConfig, fm.MilestoneData.NodeConfig) {
			return nil, fmt.Errorf("realdata: milestones disagree on protocol parameters or node config")
		}
	}
	if first == nil {
		return nil, fmt.Errorf("realdata: %s holds no milestone", milestonesFile)
	}
	if err := s.setConfig(first); err != nil {
		return nil, fmt.Errorf("realdata: %w", err)
	}
	return s, nil
}

// setConfig copies the protocol parameters and node configuration.
func (s *Set) setConfig(md *fileMilestoneData) error {
	p := md.ProtocolParams
	s.Protocol = chain.ProtocolParameters{Version: p.Version, NetworkName: p.NetworkName, Bech32HRP: p.Bech32HRP,
		MinPoWScore: p.MinPoWScore, BelowMaxDepth: p.BelowMaxDepth, TokenSupply: uint64(p.TokenSupply),
		RentStructure: chain.RentStructure(p.RentStructure)}
	nc := md.NodeConfig
	s.KeyThreshold, s.BaseToken = nc.MilestonePublicKeyCount, chain.BaseToken(nc.BaseToken)
	for _, kr := range nc.MilestoneKeyRanges {
		key, err := hex.DecodeString(strings.TrimPrefix(kr.PublicKey, "0x"))
		if err != nil || len(key) != 32 || !strings.HasPrefix(kr.PublicKey, "0x") {
			return fmt.Errorf("milestone key %q is not 0x + 64 hex", kr.PublicKey)
		}
		r := chain.KeyRange{Start: kr.Start, End: kr.End}
		copy(r.PublicKey[:], key)
		s.KeyRanges = append(s.KeyRanges, r)
	}
	return nil
}

// convertMilestone builds a Milestone and checks that the file's key, "at" and payload agree.
func convertMilestone(key string, fm fileMilestone) (*Milestone, error) {
	md := fm.MilestoneData
	m, err := milestoneFromJSON(md.Payload)
	if err != nil {
		return nil, err
	}
	if key != strconv.FormatUint(uint64(m.Index), 10) || md.At.MilestoneIndex != m.Index || md.At.MilestoneTimestamp != m.Timestamp {
		return nil, fmt.Errorf("key, at (%d, %d) and payload (%d, %d) disagree",
			md.At.MilestoneIndex, md.At.MilestoneTimestamp, m.Index, m.Timestamp)
	}
	if err := exact(m.MilestoneID[:], md.MilestoneID, "milestone ID"); err != nil {
		return nil, err
	}
	if m.Cone, err = convertCone(fm.Cone); err != nil {
		return nil, err
	}
	for _, fo := range fm.Created {
		o, err := convertOutput(fo)
		if err != nil {
			return nil, fmt.Errorf("created: %w", err)
		}
		m.Created = append(m.Created, o)
	}
	for _, fs := range fm.Consumed {
		sp, err := convertSpent(fs)
		if err != nil {
			return nil, fmt.Errorf("consumed: %w", err)
		}
		m.Consumed = append(m.Consumed, sp)
	}
	return m, nil
}

func convertOutput(fo fileOutput) (Output, error) {
	o := Output{Booked: fo.Booked.MilestoneIndex, BookedTimestamp: fo.Booked.MilestoneTimestamp, JSON: fo.Output,
		RentKeyBytes: fo.RentStructure.NumKeyBytes, RentDataBytes: fo.RentStructure.NumDataBytes}
	if err := exact(o.OutputID[:32], fo.OutputID.TransactionID, "transaction ID"); err != nil {
		return o, err
	}
	o.OutputID[32], o.OutputID[33] = byte(fo.OutputID.Index), byte(fo.OutputID.Index>>8)
	if err := exact(o.BlockID[:], fo.BlockID, "block ID"); err != nil {
		return o, err
	}
	raw, err := SerializeOutput(fo.Output)
	if err != nil {
		return o, fmt.Errorf("output %x: %w", o.OutputID, err)
	}
	o.Raw = raw
	return o, nil
}

func convertSpent(fs fileSpent) (Spent, error) {
	o, err := convertOutput(fs.Output)
	if err != nil {
		return Spent{}, err
	}
	sp := Spent{Output: o, Spent: fs.SpentMetadata.Spent.MilestoneIndex, SpentTimestamp: fs.SpentMetadata.Spent.MilestoneTimestamp}
	return sp, exact(sp.SpentBy[:], fs.SpentMetadata.TransactionID, "spending transaction ID")
}
