package tip28

import (
	"strings"
	"testing"
)

func TestParseTopic(t *testing.T) {
	const (
		addr   = "smr1qr4602uf226wm0gz6zaceut585emfyvxd2s3ta7uajfmcp60usk9uqtllx7"
		output = "0x03ea6c370ebc0f0c36f4431d2f51d6ea84891658a70876946627dd20ad726ee00000"
		id     = "0x03ea6c370ebc0f0c36f4431d2f51d6ea84891658a70876946627dd20ad726ee0"
	)
	served := map[string]topic{
		"milestone-info/latest":                      {kind: kindLatest},
		"milestone-info/confirmed":                   {kind: kindConfirmed},
		"milestones":                                 {kind: kindMilestones},
		"outputs/" + output:                          {kind: kindOutput, id: output},
		"outputs/unlock/address/" + addr:             {kind: kindUnlock, cond: "address", id: addr},
		"outputs/unlock/+/" + addr + "/spent":        {kind: kindUnlock, cond: "+", id: addr, spent: true},
		"outputs/unlock/immutable-alias/" + addr:     {kind: kindUnlock, cond: "immutable-alias", id: addr},
		"transactions/" + id + "/included-block":     {kind: kindIncluded, id: id},
		"block-metadata/" + id:                       {kind: kindBlockMetadata, id: id},
		"outputs/unlock/storage-return/" + addr + "": {kind: kindUnlock, cond: "storage-return", id: addr},
	}
	for s, want := range served {
		got, ok := parseTopic(s, "smr")
		if !ok || got != want {
			t.Errorf("parseTopic(%q) = %+v, %t; want %+v", s, got, ok, want)
		}
		if got.String() != s {
			t.Errorf("topic %q names itself %q", s, got.String())
		}
	}
	refused := []string{"#", "+", "blocks", "receipts", "milestone-info/+", "outputs/#", "outputs/nft/" + id,
		"outputs/" + strings.ToUpper(output[2:]), "outputs/" + output[:20], "block-metadata/" + id + "00",
		"outputs/unlock/owner/" + addr, "outputs/unlock/address/" + strings.ToUpper(addr),
		"outputs/unlock/address/rms1qr4602uf226wm0gz6zaceut585emfyvxd2s3ta7uajfmcp60usk9uqtllx7",
		"outputs/unlock/address/" + addr + "/unspent", "outputs/unlock/" + anyConditionLevel + "/" + addr,
		"transactions/" + id, "transactions/" + id + "/block", "block-metadata/referenced", ""}
	for _, s := range refused {
		if got, ok := parseTopic(s, "smr"); ok {
			t.Errorf("parseTopic(%q) = %+v: served, want refused", s, got)
		}
	}
}
