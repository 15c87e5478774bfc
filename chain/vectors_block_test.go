package chain_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"testing"

	"golang.org/x/crypto/blake2b"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// stardust-wire.md section 10: the first transaction block of milestone 17339's cone,
// assembled from its field table.

const (
	workedOutput   = "030020d4b91500000000010000663e642e14320851d8b1c9a2cf0192d9eda9bf1f3087db6012b76ff00d2715a900"
	workedConsumed = "030020d4b91500000000010000ee3acd5fec2ed600ba00fe16f976a7b87952c1223d2659eb8daa70ee3602804400"
	workedPubKey   = "748f481b390bc60c8ffde1e5af54035a12cbdfaa2ef994c50eacf12e64af0012"
)

func workedBlock() []byte {
	return mustHex("02 04" +
		"1880f601afb0907cfc84712a7730df6bc7924bf8af8a70326300a1ceb7c685ab" +
		"39381eb9c51bb12f25f3d9c99c8770f5ce89a2f3d085bd36f639a438a211f4f1" +
		"874e2d50b95ecf932308dd530b234db9682793d7011572684c6d4dd99e8e8c1d" +
		"ec7939d0186b32ef9588217a4fbba950f8495c2fdc5af1c98c21f1fd5feec70f" +
		"ea000000 06000000 01 924f69eef8e259c7 0100" +
		"00 e36d010000000000000000000000000000000000000000000000000000000000 0000" +
		"d15f0de5d0a2c0be897b9f9ca5ce2aaace6c841a20410f2ed7472209da572c31" +
		"0100" + workedOutput + "00000000" +
		"0100 00 00" + workedPubKey +
		"da5577281792f688324d2ffb83ad168b9a5caaac09683bf6b1cbf91042b4b5e2" +
		"cee9df909a86ae5707d05ec5294ea00d543a23e5fd165b3ebec42c904631180f" +
		"29ec010000000040")
}

func TestWorkedExampleIDs(t *testing.T) {
	raw := workedBlock()
	if len(raw) != 376 {
		t.Fatalf("%d bytes", len(raw))
	}
	m, err := chain.DecodeMessage(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(chain.EncodeMessage(m), raw) {
		t.Fatal("re-encoding differs")
	}
	tx := m.TransactionOf()
	essenceHash := tx.EssenceHash()
	checks := []struct{ what, got, want string }{
		{"block ID", m.ID().String(), "0xf2174f3af8c862ba7b099c9ce56ecb5146c200521a8dbba9b0389ae645b10f1d"},
		{"transaction ID", tx.ID().String(), "0xd7fcbc49ec07037f48526f1f3ed464536c32ff1afdf545d5d61e88db029db759"},
		{"essence hash", "0x" + hex.EncodeToString(essenceHash[:]), "0x1172fb42606d8f7c4b9bffec2dc70abc9dacde8b070cd75a61f2b1040ab6db59"},
		{"output ID", chain.NewOutputID(tx.ID(), 0).String(), "0xd7fcbc49ec07037f48526f1f3ed464536c32ff1afdf545d5d61e88db029db7590000"},
		{"input", tx.Inputs[0].OutputID().String(), "0xe36d010000000000000000000000000000000000000000000000000000000000" + "0000"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.what, c.got, c.want)
		}
	}
	if !bytes.Equal(tx.Essence(), raw[138:268]) || !bytes.Equal(tx.Encode(), raw[134:368]) {
		t.Error("essence or transaction bytes are not the documented ranges")
	}
	if m.Nonce != 4611686018427513897 || tx.NetworkID != chain.Shimmer().ID() {
		t.Errorf("nonce %d, network ID %d", m.Nonce, tx.NetworkID)
	}
}

func TestWorkedExampleOutputAndAddresses(t *testing.T) {
	m, err := chain.DecodeMessage(workedBlock())
	if err != nil {
		t.Fatal(err)
	}
	tx := m.TransactionOf()
	out := tx.Outputs[0]
	if got := chain.EncodeOutput(out); !bytes.Equal(got, mustHex(workedOutput)) || out.Amount != 93312000000 {
		t.Fatalf("output bytes %x amount %d", got, out.Amount)
	}
	if got := out.Address.Bech32("smr"); got != "smr1qpnruepwzseqs5wck8y69ncpjtv7m2dlrucg0kmqz2mkluqdyu26jek008e" {
		t.Errorf("output address %s", got)
	}
	signer := chain.Ed25519Address(tx.Unlocks[0].PublicKey)
	if signer.Hex() != "0x00ee3acd5fec2ed600ba00fe16f976a7b87952c1223d2659eb8daa70ee36028044" ||
		signer.Bech32("smr") != "smr1qrhr4n2lashdvq96qrlpd7tk57u8j5kpyg7jvk0t3k48pm3kq2qyg4v9xyc" {
		t.Errorf("signer %s %s", signer.Hex(), signer.Bech32("smr"))
	}
	hash := tx.EssenceHash()
	if !ed25519.Verify(tx.Unlocks[0].PublicKey[:], hash[:], tx.Unlocks[0].Signature[:]) {
		t.Error("the signature does not verify over the essence hash")
	}
}

// The inputs commitment is BLAKE2b-256 over the hashes of the consumed outputs' bytes.
func TestWorkedExampleInputsCommitment(t *testing.T) {
	consumed, err := chain.DecodeOutput(mustHex(workedConsumed))
	if err != nil {
		t.Fatal(err)
	}
	if *consumed.Address != chain.Ed25519Address(hex32(workedPubKey)) {
		t.Fatal("the signer does not own the consumed output")
	}
	h := blake2b.Sum256(chain.EncodeOutput(consumed))
	want := hex32("d15f0de5d0a2c0be897b9f9ca5ce2aaace6c841a20410f2ed7472209da572c31")
	if blake2b.Sum256(h[:]) != want {
		t.Fatalf("inputs commitment %x", blake2b.Sum256(h[:]))
	}
	m, _ := chain.DecodeMessage(workedBlock())
	if m.TransactionOf().InputsCommitment != want {
		t.Fatal("the block carries another commitment")
	}
}
