package tables

import (
	"strconv"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// MessageJSON is a decoded message; Payload is one of the *JSON payload types below.
type MessageJSON struct {
	ID              string   `json:"messageId"`
	ProtocolVersion uint8    `json:"protocolVersion"`
	Parents         []string `json:"parents"`
	Payload         any      `json:"payload,omitempty"`
	Nonce           string   `json:"nonce"`
}

type taggedDataJSON struct {
	Type string `json:"type"` // "taggedData"
	Tag  string `json:"tag,omitempty"`
	Data string `json:"data,omitempty"`
}

type transactionJSON struct {
	Type             string          `json:"type"` // "transaction"
	ID               string          `json:"transactionId"`
	NetworkID        string          `json:"networkId"`
	Inputs           []inputJSON     `json:"inputs"`
	InputsCommitment string          `json:"inputsCommitment"`
	Outputs          []*outputJSON   `json:"outputs"`
	Payload          *taggedDataJSON `json:"payload,omitempty"`
	Unlocks          []unlockJSON    `json:"unlocks"`
}

type inputJSON struct {
	TransactionID string `json:"transactionId"`
	Index         uint16 `json:"transactionOutputIndex"`
	OutputID      string `json:"outputId"`
}

type unlockJSON struct {
	Type      string  `json:"type"`
	Reference *uint16 `json:"reference,omitempty"`
	PublicKey string  `json:"publicKey,omitempty"`
	Signature string  `json:"signature,omitempty"`
}

func newMessageJSON(id string, m *chain.Message, hrp string) (*MessageJSON, error) {
	payload, err := payloadJSON(m.Payload, hrp)
	return &MessageJSON{ID: id, ProtocolVersion: m.ProtocolVersion, Parents: idTexts(m.Parents),
		Payload: payload, Nonce: strconv.FormatUint(m.Nonce, 10)}, err
}

// milestonePayloadJSON is a milestone payload in its TIP-25 form, with the payload kind
// named as this API names the other payloads ("milestone"; TIP-25 says 7).
type milestonePayloadJSON struct {
	*tip25.MilestoneJSON
	Type string `json:"type"`
}

// payloadJSON renders a payload.
func payloadJSON(p chain.Payload, hrp string) (any, error) {
	switch p := p.(type) {
	case *chain.TaggedData:
		return newTaggedDataJSON(p), nil
	case *chain.MilestonePayload:
		mj, err := tip25.Milestone(p)
		return &milestonePayloadJSON{MilestoneJSON: mj, Type: "milestone"}, err
	case *chain.Transaction:
		return newTransactionJSON(p, hrp), nil
	}
	return nil, nil
}

func newTaggedDataJSON(td *chain.TaggedData) *taggedDataJSON {
	if td == nil {
		return nil
	}
	return &taggedDataJSON{Type: "taggedData", Tag: HexText(td.Tag), Data: HexText(td.Data)}
}

func newTransactionJSON(tx *chain.Transaction, hrp string) *transactionJSON {
	j := &transactionJSON{Type: "transaction", ID: tx.ID().String(), NetworkID: strconv.FormatUint(tx.NetworkID, 10),
		InputsCommitment: HexText(tx.InputsCommitment[:]), Payload: newTaggedDataJSON(tx.Payload),
		Inputs: make([]inputJSON, len(tx.Inputs)), Outputs: make([]*outputJSON, len(tx.Outputs)),
		Unlocks: make([]unlockJSON, len(tx.Unlocks))}
	for i, in := range tx.Inputs {
		j.Inputs[i] = newInputJSON(in)
	}
	for i := range tx.Outputs {
		j.Outputs[i] = newOutputJSON(&tx.Outputs[i], hrp)
	}
	for i, u := range tx.Unlocks {
		j.Unlocks[i] = newUnlockJSON(u)
	}
	return j
}

func newInputJSON(in chain.Input) inputJSON {
	return inputJSON{TransactionID: in.TransactionID.String(), Index: in.Index, OutputID: in.OutputID().String()}
}

func newUnlockJSON(u chain.Unlock) unlockJSON {
	j := unlockJSON{Type: u.Kind.String()}
	if u.Kind == chain.UnlockSignature {
		j.PublicKey, j.Signature = HexText(u.PublicKey[:]), HexText(u.Signature[:])
	} else {
		j.Reference = &u.Reference
	}
	return j
}

func idTexts(ids []chain.MessageID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}
