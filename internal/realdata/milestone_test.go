package realdata

import (
	"bytes"
	"strings"
	"testing"
)

// madeUpMilestone is a milestone payload in Chronicle's model with the given options JSON.
func madeUpMilestone(options, sigKind string) string {
	id := ej(rep(0xaa, 32))
	return `{"essence":{"index":5,"timestamp":"6","protocol_version":2,"previous_milestone_id":` + id +
		`,"parents":[` + ej(rep(0xbb, 32)) + `],"inclusion_merkle_root":` + ej(rep(0xcc, 32)) +
		`,"applied_merkle_root":` + ej(rep(0xdd, 32)) + `,"metadata":` + ej([]byte{0xee}) + `,"options":[` + options + `]},` +
		`"signatures":[{"kind":"` + sigKind + `","public_key":` + ej(rep(1, 32)) + `,"signature":` + ej(rep(2, 64)) + `}]}`
}

func TestSerializeMilestoneMadeUp(t *testing.T) {
	opt := `{"kind":"parameters","target_milestone_index":9,"protocol_version":3,"binary_parameters":` + ej([]byte{0x0f}) + `}`
	payload, essence, err := SerializeMilestonePayload([]byte(madeUpMilestone(opt, "ed25519")))
	if err != nil {
		t.Fatal(err)
	}
	wantEssence := h(t, "05000000 06000000 02", strings.Repeat("aa", 32), "01"+strings.Repeat("bb", 32),
		strings.Repeat("cc", 32), strings.Repeat("dd", 32), "0100 ee", "01 01 09000000 03 0100 0f")
	want := append(append(h(t, "07000000"), wantEssence...), h(t, "01 00", strings.Repeat("01", 32), strings.Repeat("02", 64))...)
	if !bytes.Equal(essence, wantEssence) || !bytes.Equal(payload, want) {
		t.Errorf("\n got %x\nwant %x", payload, want)
	}
	if _, _, err := SerializeMilestonePayload([]byte(madeUpMilestone("", "ed25519"))); err != nil {
		t.Errorf("no options: %v", err)
	}
}

func TestSerializeMilestoneRejects(t *testing.T) {
	cases := map[string]string{
		"receipt":        madeUpMilestone(`{"kind":"receipt","migrated_at":1,"last":true,"funds":[],"transaction":{}}`, "ed25519"),
		"unknown option": madeUpMilestone(`{"kind":"colour"}`, "ed25519"),
		"option field":   madeUpMilestone(`{"kind":"parameters","target_milestone_index":9,"protocol_version":3,"binary_parameters":`+ej(nil)+`,"x":1}`, "ed25519"),
		"signature kind": madeUpMilestone("", "bls"),
		"unknown field":  strings.Replace(madeUpMilestone("", "ed25519"), `"index":5`, `"index":5,"x":1`, 1),
	}
	for name, js := range cases {
		_, _, err := SerializeMilestonePayload([]byte(js))
		t.Logf("%s: %v", name, err)
		if err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
