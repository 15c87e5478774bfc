package tables

import (
	"encoding/hex"
	"math/big"
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/chain"
)

// outputJSON is a decoded output (TIP-18 fields). Amounts are decimal strings: uint64
// and uint256 do not survive JSON numbers.
type outputJSON struct {
	Type                 string            `json:"type"`
	Amount               string            `json:"amount"`
	NativeTokens         []nativeTokenJSON `json:"nativeTokens,omitempty"`
	Address              string            `json:"address,omitempty"`
	StorageDepositReturn *returnJSON       `json:"storageDepositReturn,omitempty"`
	Timelock             *uint32           `json:"timelock,omitempty"`
	Expiration           *expirationJSON   `json:"expiration,omitempty"`
	Sender               string            `json:"sender,omitempty"`
	Issuer               string            `json:"issuer,omitempty"`
	Tag                  string            `json:"tag,omitempty"`
	Metadata             string            `json:"metadata,omitempty"`
	ImmutableMetadata    string            `json:"immutableMetadata,omitempty"`
	AliasID              string            `json:"aliasId,omitempty"`
	StateIndex           *uint32           `json:"stateIndex,omitempty"`
	StateMetadata        string            `json:"stateMetadata,omitempty"`
	StateController      string            `json:"stateController,omitempty"`
	Governor             string            `json:"governor,omitempty"`
	FoundryCounter       *uint32           `json:"foundryCounter,omitempty"`
	FoundryID            string            `json:"foundryId,omitempty"`
	SerialNumber         *uint32           `json:"serialNumber,omitempty"`
	TokenScheme          *tokenSchemeJSON  `json:"tokenScheme,omitempty"`
	NFTID                string            `json:"nftId,omitempty"`
	LegacyType           *uint8            `json:"legacyType,omitempty"`
}

type nativeTokenJSON struct {
	ID     string `json:"id"`
	Amount string `json:"amount"`
}

type returnJSON struct {
	ReturnAddress string `json:"returnAddress"`
	Amount        string `json:"amount"`
}

type expirationJSON struct {
	ReturnAddress string `json:"returnAddress"`
	UnixTime      uint32 `json:"unixTime"`
}

type tokenSchemeJSON struct {
	Minted    string `json:"mintedTokens"`
	Melted    string `json:"meltedTokens"`
	MaxSupply string `json:"maximumSupply"`
}

func newOutputJSON(o *chain.Output, hrp string) *outputJSON {
	j := &outputJSON{Type: o.Kind.String(), Amount: strconv.FormatUint(o.Amount, 10),
		Address: addressText(o.Address, hrp), Sender: addressText(o.Sender, hrp), Issuer: addressText(o.Issuer, hrp),
		Tag: HexText(o.Tag), Metadata: HexText(o.Metadata), ImmutableMetadata: HexText(o.ImmutableMetadata),
		Timelock: o.Timelock}
	for _, t := range o.NativeTokens {
		j.NativeTokens = append(j.NativeTokens, nativeTokenJSON{ID: t.ID.String(), Amount: bigText(t.Amount)})
	}
	if r := o.StorageDepositReturn; r != nil {
		j.StorageDepositReturn = &returnJSON{ReturnAddress: addressText(&r.ReturnAddress, hrp), Amount: strconv.FormatUint(r.Amount, 10)}
	}
	if e := o.Expiration; e != nil {
		j.Expiration = &expirationJSON{ReturnAddress: addressText(&e.ReturnAddress, hrp), UnixTime: e.UnixTime}
	}
	j.kindFields(o, hrp)
	return j
}

func (j *outputJSON) kindFields(o *chain.Output, hrp string) {
	switch o.Kind {
	case chain.OutputAlias:
		j.AliasID, j.StateIndex, j.FoundryCounter = o.AliasID.String(), &o.StateIndex, &o.FoundryCounter
		j.StateMetadata = HexText(o.StateMetadata)
		j.StateController, j.Governor = addressText(o.StateController, hrp), addressText(o.Governor, hrp)
		j.Address = "" // the state controller, already shown as such
	case chain.OutputFoundry:
		j.FoundryID, j.SerialNumber = o.FoundryID.String(), &o.SerialNumber
		j.TokenScheme = &tokenSchemeJSON{Minted: bigText(o.TokenScheme.Minted), Melted: bigText(o.TokenScheme.Melted),
			MaxSupply: bigText(o.TokenScheme.MaxSupply)}
	case chain.OutputNFT:
		j.NFTID = o.NFTID.String()
	case chain.OutputLegacy:
		j.LegacyType = &o.LegacyType
	}
}

// decodeOutputJSON decodes a stored output blob; a blob that does not decode is
// corrupt data, reported as a server error.
func decodeOutputJSON(b []byte, hrp string) (*outputJSON, error) {
	o, err := chain.DecodeOutput(b)
	if err != nil {
		return nil, err
	}
	return newOutputJSON(&o, hrp), nil
}

// addressText shows an address in bech32 under the network's HRP (hex while no network
// is recorded).
func addressText(a *chain.Address, hrp string) string {
	switch {
	case a == nil:
		return ""
	case hrp == "":
		return a.Hex()
	}
	return rest.AddressNames.Text(a, hrp)
}

func HexText(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return "0x" + hex.EncodeToString(b)
}

func bigText(v *big.Int) string {
	if v == nil {
		return "0"
	}
	return v.String()
}
