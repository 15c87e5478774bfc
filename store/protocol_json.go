package store

import (
	"encoding/json"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// protocolJSON is the stored form of a ProtocolRecord. The store names the base token's
// fields itself: chain.BaseToken carries no JSON names, and a row must keep its bytes
// (recordProtocol compares them).
type protocolJSON struct {
	Params    chain.ProtocolParameters `json:"params"`
	BaseToken *baseTokenJSON           `json:"baseToken,omitempty"`
}

type baseTokenJSON struct {
	Name            string `json:"name"`
	TickerSymbol    string `json:"tickerSymbol"`
	Unit            string `json:"unit"`
	Subunit         string `json:"subunit,omitempty"`
	Decimals        uint32 `json:"decimals"`
	UseMetricPrefix bool   `json:"useMetricPrefix"`
}

// MarshalJSON writes the stored form.
func (r ProtocolRecord) MarshalJSON() ([]byte, error) {
	j := protocolJSON{Params: r.Params}
	if r.BaseToken != nil {
		bt := baseTokenJSON(*r.BaseToken)
		j.BaseToken = &bt
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the stored form.
func (r *ProtocolRecord) UnmarshalJSON(data []byte) error {
	var j protocolJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*r = ProtocolRecord{Params: j.Params}
	if j.BaseToken != nil {
		bt := chain.BaseToken(*j.BaseToken)
		r.BaseToken = &bt
	}
	return nil
}
