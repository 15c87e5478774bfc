package realdata

import "encoding/json"

// The structs below mirror the files' JSON exactly; they are decoded strictly, so a field this
// package does not know is an error.

type fileMilestone struct {
	MilestoneData fileMilestoneData    `json:"milestone_data"`
	Cone          map[string]fileBlock `json:"cone"`
	Created       []fileOutput         `json:"created"`
	Consumed      []fileSpent          `json:"consumed"`
}

type fileMilestoneData struct {
	At             fileAt          `json:"at"`
	Payload        json.RawMessage `json:"payload"`
	MilestoneID    bin             `json:"milestone_id"`
	ProtocolParams fileProtocol    `json:"protocol_params"`
	NodeConfig     fileNodeConfig  `json:"node_config"`
}

type fileAt struct {
	MilestoneIndex     uint32 `json:"milestone_index"`
	MilestoneTimestamp uint32 `json:"milestone_timestamp"`
}

type fileBlock struct {
	ID       bin           `json:"_id"`      // second file
	BlockID  bin           `json:"block_id"` // first file
	Raw      bin           `json:"raw"`
	Metadata fileBlockMeta `json:"metadata"`
}

type fileBlockMeta struct {
	Parents                    []bin  `json:"parents"`
	IsSolid                    bool   `json:"is_solid"`
	ShouldPromote              bool   `json:"should_promote"`
	ShouldReattach             bool   `json:"should_reattach"`
	ReferencedByMilestoneIndex uint32 `json:"referenced_by_milestone_index"`
	MilestoneIndex             uint32 `json:"milestone_index"`
	InclusionState             string `json:"inclusion_state"`
	ConflictReason             string `json:"conflict_reason"`
	WhiteFlagIndex             uint32 `json:"white_flag_index"`
}

type fileOutput struct {
	OutputID struct {
		TransactionID bin    `json:"transaction_id"`
		Index         uint16 `json:"index"`
	} `json:"output_id"`
	BlockID       bin             `json:"block_id"`
	Booked        fileAt          `json:"booked"`
	Output        json.RawMessage `json:"output"`
	RentStructure struct {
		NumKeyBytes  uint32 `json:"num_key_bytes"`
		NumDataBytes uint32 `json:"num_data_bytes"`
	} `json:"rent_structure"`
}

type fileSpent struct {
	Output        fileOutput `json:"output"`
	SpentMetadata struct {
		TransactionID bin    `json:"transaction_id"`
		Spent         fileAt `json:"spent"`
	} `json:"spent_metadata"`
}

type fileProtocol struct {
	Version       uint8  `json:"version"`
	NetworkName   string `json:"network_name"`
	Bech32HRP     string `json:"bech32_hrp"`
	MinPoWScore   uint32 `json:"min_pow_score"`
	BelowMaxDepth uint8  `json:"below_max_depth"`
	RentStructure struct {
		VByteCost       uint32 `json:"v_byte_cost"`
		VByteFactorData uint8  `json:"v_byte_factor_data"`
		VByteFactorKey  uint8  `json:"v_byte_factor_key"`
	} `json:"rent_structure"`
	TokenSupply flexUint `json:"token_supply"`
}

type fileNodeConfig struct {
	MilestonePublicKeyCount int `json:"milestone_public_key_count"`
	MilestoneKeyRanges      []struct {
		PublicKey string `json:"public_key"` // 0x hex here, not $binary
		Start     uint32 `json:"start"`
		End       uint32 `json:"end"`
	} `json:"milestone_key_ranges"`
	BaseToken struct {
		Name            string `json:"name"`
		TickerSymbol    string `json:"ticker_symbol"`
		Unit            string `json:"unit"`
		Subunit         string `json:"subunit"`
		Decimals        uint32 `json:"decimals"`
		UseMetricPrefix bool   `json:"use_metric_prefix"`
	} `json:"base_token"`
}
