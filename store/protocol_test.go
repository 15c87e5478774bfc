package store

import (
	"encoding/json"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// TestProtocolRecordBytes pins the JSON of the indexer_meta protocol row: rows written
// by any version compare equal byte for byte (recordProtocol skips an equal record).
func TestProtocolRecordBytes(t *testing.T) {
	const want = `{"params":{"Version":2,"NetworkName":"shimmer","Bech32HRP":"smr","MinPoWScore":1500,` +
		`"BelowMaxDepth":15,"RentStructure":{"VByteCost":100,"VByteFactorData":1,"VByteFactorKey":10},` +
		`"TokenSupply":1813620509061365},"baseToken":{"name":"Shimmer","tickerSymbol":"SMR","unit":"SMR",` +
		`"subunit":"glow","decimals":6,"useMetricPrefix":false}}`
	rec := ProtocolRecordOf(chain.Shimmer())
	got, err := json.Marshal(rec)
	if err != nil || string(got) != want {
		t.Fatalf("marshal: %v\n got %s\nwant %s", err, got, want)
	}
	var back ProtocolRecord
	if err := json.Unmarshal(got, &back); err != nil || !back.equal(rec) || *back.BaseToken != chain.Shimmer().BaseToken {
		t.Fatalf("unmarshal: %v, %+v", err, back)
	}
	none, _ := json.Marshal(ProtocolRecord{})
	if string(none) != `{"params":{"Version":0,"NetworkName":"","Bech32HRP":"","MinPoWScore":0,"BelowMaxDepth":0,`+
		`"RentStructure":{"VByteCost":0,"VByteFactorData":0,"VByteFactorKey":0},"TokenSupply":0}}` {
		t.Fatalf("no base token: %s", none)
	}
}
