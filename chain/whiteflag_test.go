package chain_test

import (
	"slices"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// White-flag order (TIP-2) on hand-made DAGs. Blocks are named by one byte; a block's
// parents are listed in the order the walk must follow.

type dag map[byte][]byte

func id(b byte) chain.MessageID { return chain.MessageID{b} }

func ids(bs ...byte) []chain.MessageID {
	out := make([]chain.MessageID, len(bs))
	for i, b := range bs {
		out[i] = id(b)
	}
	return out
}

func (d dag) order(roots ...byte) []chain.MessageID {
	return chain.WhiteFlagOrder(ids(roots...), func(m chain.MessageID) ([]chain.MessageID, bool) {
		ps, ok := d[m[0]]
		if !ok || m != id(m[0]) {
			return nil, false
		}
		return ids(ps...), true
	})
}

func TestWhiteFlagOrder(t *testing.T) {
	// 'x' and 'y' are outside the cone (referenced by earlier milestones).
	diamond := dag{'a': {'x'}, 'b': {'a'}, 'c': {'a', 'y'}, 'r': {'b', 'c'}}
	cases := []struct {
		name  string
		d     dag
		roots []byte
		want  []byte
	}{
		{"diamond", diamond, []byte{'r'}, []byte{'a', 'b', 'c', 'r'}},
		{"diamond from two tips", diamond, []byte{'c', 'b'}, []byte{'a', 'c', 'b'}},
		{"root outside the cone", diamond, []byte{'x', 'b'}, []byte{'a', 'b'}},
		{"nothing in the cone", diamond, []byte{'x', 'y'}, nil},
		{"parents in listed order", dag{'p': {'c', 'a', 'b'}, 'a': nil, 'b': nil, 'c': nil}, []byte{'p'}, []byte{'c', 'a', 'b', 'p'}},
		{"shared ancestor once", dag{'a': nil, 'b': {'a'}, 'c': {'a', 'b'}, 'd': {'b', 'c'}}, []byte{'d', 'a'}, []byte{'a', 'b', 'c', 'd'}},
		{"repeated root", dag{'a': nil}, []byte{'a', 'a'}, []byte{'a'}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.d.order(c.roots...); !slices.Equal(got, ids(c.want...)) {
				t.Fatalf("order %v, want %v", names(got), string(c.want))
			}
		})
	}
}

func names(order []chain.MessageID) string {
	s := make([]byte, len(order))
	for i, m := range order {
		s[i] = m[0]
	}
	return string(s)
}

// A chain of 10000 blocks, each the only parent of the next: the walk must not recurse.
func TestWhiteFlagDeepChain(t *testing.T) {
	const n = 10000
	chainID := func(i int) chain.MessageID { return chain.MessageID{0xcc, byte(i), byte(i >> 8)} }
	asked := 0
	order := chain.WhiteFlagOrder([]chain.MessageID{chainID(n - 1)}, func(m chain.MessageID) ([]chain.MessageID, bool) {
		asked++
		i := int(m[1]) | int(m[2])<<8
		switch {
		case m[0] != 0xcc || i >= n:
			return nil, false
		case i == 0:
			return []chain.MessageID{{0xee}}, true // outside the cone
		}
		return []chain.MessageID{chainID(i - 1)}, true
	})
	if len(order) != n {
		t.Fatalf("%d blocks ordered, want %d", len(order), n)
	}
	for i, m := range order {
		if m != chainID(i) {
			t.Fatalf("position %d holds %x", i, m)
		}
	}
	if asked != n+1 {
		t.Fatalf("inCone asked %d times, want once per block (%d)", asked, n+1)
	}
}
