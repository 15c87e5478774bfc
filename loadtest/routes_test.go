package loadtest

import (
	"math/rand"
	"strings"
	"testing"
)

// Without milestones found, the milestone routes are left out like any route whose
// keys were not found, instead of drawing from an empty list.
func TestMixWithoutMilestones(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, rt := range Mix(&IDs{Messages: []string{"0x01"}}) {
		if strings.HasPrefix(rt.Name, "/milestones") {
			t.Fatalf("route %s in the mix without milestones", rt.Name)
		}
		rt.Path(r)
	}
	found := 0
	for _, rt := range Mix(&IDs{Milestones: []uint32{7}}) {
		if strings.HasPrefix(rt.Name, "/milestones") {
			found++
			if p := rt.Path(r); !strings.Contains(p, "7") {
				t.Fatalf("%s: %s", rt.Name, p)
			}
		}
	}
	if found != 2 {
		t.Fatalf("%d milestone routes with a milestone found, want 2", found)
	}
}
