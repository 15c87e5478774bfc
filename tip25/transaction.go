package tip25

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// TransactionJSON is a transaction payload (type 6).
type TransactionJSON struct {
	Type    uint8        `json:"type"`
	Essence EssenceJSON  `json:"essence"`
	Unlocks []UnlockJSON `json:"unlocks"`
}

// EssenceJSON is the regular transaction essence (type 1); Payload is the optional
// tagged data, omitted when absent.
type EssenceJSON struct {
	Type             uint8           `json:"type"`
	NetworkID        string          `json:"networkId"`
	Inputs           []InputJSON     `json:"inputs"`
	InputsCommitment string          `json:"inputsCommitment"`
	Outputs          []OutputJSON    `json:"outputs"`
	Payload          *TaggedDataJSON `json:"payload,omitempty"`
}

// InputJSON is a UTXO input (type 0).
type InputJSON struct {
	Type                   uint8  `json:"type"`
	TransactionID          string `json:"transactionId"`
	TransactionOutputIndex uint16 `json:"transactionOutputIndex"`
}

// UnlockJSON is a signature unlock {type 0, signature} or a reference, alias or NFT unlock
// {type 1/2/3, reference}.
type UnlockJSON struct {
	Type      uint8          `json:"type"`
	Signature *SignatureJSON `json:"signature,omitempty"`
	Reference *uint16        `json:"reference,omitempty"`
}

// SignatureJSON is an Ed25519 signature block (type 0), in unlocks and milestones.
type SignatureJSON struct {
	Type      uint8  `json:"type"`
	PublicKey string `json:"publicKey"`
	Signature string `json:"signature"`
}

// Transaction returns the TIP-25 form of a transaction payload.
func Transaction(tx *chain.Transaction) (*TransactionJSON, error) {
	e := EssenceJSON{Type: chain.EssenceRegular, NetworkID: u64(tx.NetworkID),
		Inputs: make([]InputJSON, len(tx.Inputs)), InputsCommitment: hexOf(tx.InputsCommitment[:]),
		Outputs: make([]OutputJSON, len(tx.Outputs))}
	for i, in := range tx.Inputs {
		e.Inputs[i] = InputJSON{Type: chain.InputUTXO, TransactionID: hexOf(in.TransactionID[:]), TransactionOutputIndex: in.Index}
	}
	for i, o := range tx.Outputs {
		oj, err := Output(o)
		if err != nil {
			return nil, fmt.Errorf("transaction output %d: %w", i, err)
		}
		e.Outputs[i] = *oj
	}
	if tx.Payload != nil {
		e.Payload = TaggedData(tx.Payload)
	}
	j := &TransactionJSON{Type: chain.PayloadTransaction, Essence: e, Unlocks: make([]UnlockJSON, len(tx.Unlocks))}
	for i, u := range tx.Unlocks {
		uj, err := unlock(u)
		if err != nil {
			return nil, fmt.Errorf("transaction unlock %d: %w", i, err)
		}
		j.Unlocks[i] = uj
	}
	return j, nil
}

func unlock(u chain.Unlock) (UnlockJSON, error) {
	switch u.Kind {
	case chain.UnlockSignature:
		return UnlockJSON{Type: uint8(u.Kind), Signature: signature(u.PublicKey, u.Signature)}, nil
	case chain.UnlockReference, chain.UnlockAlias, chain.UnlockNFT:
		return UnlockJSON{Type: uint8(u.Kind), Reference: ptr(u.Reference)}, nil
	}
	return UnlockJSON{}, fmt.Errorf("%w: unlock type %d", ErrUnknownType, uint8(u.Kind))
}

func signature(key [32]byte, sig [64]byte) *SignatureJSON {
	return &SignatureJSON{Type: chain.SignatureEd25519, PublicKey: hexOf(key[:]), Signature: hexOf(sig[:])}
}
