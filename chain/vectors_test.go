package chain_test

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// Test vectors from the TIPs and stardust-wire.md (sections 2, 4, 7).

func TestNetworkIDVectors(t *testing.T) {
	for name, want := range map[string]uint64{
		"shimmer":      14364762045254553490,
		"iota-mainnet": 9374574019616453254,
		"testnet-1":    1856588631910923207,
	} {
		if got := chain.NetworkIDFromName(name); got != want {
			t.Errorf("%s: %d, want %d", name, got, want)
		}
	}
	wire := binary.LittleEndian.AppendUint64(nil, chain.NetworkIDFromName("shimmer"))
	if !bytes.Equal(wire, mustHex("924f69eef8e259c7")) {
		t.Errorf("shimmer on the wire: %x", wire)
	}
	if chain.Shimmer().ID() != 14364762045254553490 || chain.IOTAMainnet().ID() != 9374574019616453254 {
		t.Error("Network.ID")
	}
}

// TIP-24's example block: tag "IOTA", data "hello world".
func TestTIP24ExampleBlock(t *testing.T) {
	want := mustHex("02 02" +
		"210fc7bb818639ac48a4c6afa2f1581a8b9525e20fda68927f2b2ff836f73578" +
		"db0fa54c29f7fd928d92ca43f193dee47f591549f597a811c8fa67ab031ebd9c" +
		"18000000 05000000 04 494f5441 0b000000 68656c6c6f20776f726c64 ce6d000000000000")
	m := &chain.Message{ProtocolVersion: 2, Nonce: 28110,
		Parents: []chain.MessageID{
			hex32("210fc7bb818639ac48a4c6afa2f1581a8b9525e20fda68927f2b2ff836f73578"),
			hex32("db0fa54c29f7fd928d92ca43f193dee47f591549f597a811c8fa67ab031ebd9c"),
		},
		Payload: &chain.TaggedData{Tag: []byte("IOTA"), Data: []byte("hello world")}}
	if got := chain.EncodeMessage(m); !bytes.Equal(got, want) {
		t.Fatalf("encoding:\n got %x\nwant %x", got, want)
	}
	back, err := chain.DecodeMessage(want)
	if err != nil {
		t.Fatal(err)
	}
	if back.Nonce != 28110 || string(back.Tag()) != "IOTA" || string(back.Payload.(*chain.TaggedData).Data) != "hello world" {
		t.Fatalf("decoded %+v", back)
	}
}

// TIP-4's example tree: the root, and the inner nodes, each the MTH of its leaves.
func TestMerkleTIP4Vectors(t *testing.T) {
	leaves := []chain.MessageID{
		hex32("52fdfc072182654f163f5f0f9a621d729566c74d10037c4d7bbb0407d1e2c649"),
		hex32("81855ad8681d0d86d1e91e00167939cb6694d2c422acd208a0072939487f6999"),
		hex32("eb9d18a44784045d87f3c67cf22746e995af5a25367951baa2ff6cd471c483f1"),
		hex32("5fb90badb37c5821b6d95526a41a9504680b4e7c8b763a1b1d49d4955c848621"),
		hex32("6325253fec738dd7a9e28bf921119c160f0702448615bbda08313f6a8eb668d2"),
		hex32("0bf5059875921e668a5bdf2c7fc4844592d2572bcd0668d2d6c52f5054e2d083"),
		hex32("6bf84c7174cb7476364cc3dbd968b0f7172ed85794bb358b0c3b525da1786f9f"),
	}
	cases := []struct {
		from, to int
		want     string
	}{
		{0, 7, "bf67ce7ba23e8c0951b5abaec4f5524360d2c26d971ff226d3359fa70cdb0beb"},
		{0, 4, "03bcbb3cf4314eab2f5ae68c767ff0a5fec4573c865728231f71d596fd867b56"},
		{0, 2, "ae4505f4cfae93586e23958ca88d35d2f34d43def49786b6d0d4224b819f4cda"},
		{2, 4, "54d51291aca22ce5b04cd3e6584fa3026ebe86ef86f0a6dfb47ab843801d4b38"},
		{4, 7, "ce22d5bc728023e7ab6a9eb8f58baf62b9565fc8baeef4b377daa6709dbe598c"},
		{4, 6, "e14c8af1258005cd0dbed88f0c5885c6988f319bb8f24272a7495592b873c169"},
		{0, 1, "3d1399c64ff0ae6a074afa4cd2ce4eab8d5c499c1da6afdd1d84b7447cc00544"},
		{6, 7, "7ec774ebc33ed4ca298e8a1cf1f569e36c6784467d63b055efd7612abe2858a4"},
	}
	for _, c := range cases {
		if got := chain.MerkleRoot(leaves[c.from:c.to]); got != hex32(c.want) {
			t.Errorf("MTH(leaves[%d:%d]) = %x, want %s", c.from, c.to, got, c.want)
		}
	}
	empty := hex32("0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8")
	if chain.MerkleRoot(nil) != empty || chain.MerkleRoot([]chain.MessageID{}) != empty {
		t.Error("MTH of no leaves must be BLAKE2b-256 of the empty string")
	}
}

func TestMerkleShape(t *testing.T) {
	ids := make([]chain.MessageID, 9)
	for i := range ids {
		ids[i] = chain.MessageID{byte(i)}
	}
	// 9 leaves split 8 + 1; 3 leaves split 2 + 1.
	if chain.MerkleRoot(ids) == chain.MerkleRoot(ids[:8]) || chain.MerkleRoot(ids[:3]) == chain.MerkleRoot(ids[:2]) {
		t.Fatal("every leaf must count")
	}
	swapped := append([]chain.MessageID{ids[1], ids[0]}, ids[2:]...)
	if chain.MerkleRoot(swapped) == chain.MerkleRoot(ids) {
		t.Fatal("the root must depend on the order")
	}
}
