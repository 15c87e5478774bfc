package generations

import "testing"

// A key stays for at least limit new keys after it was put and is gone after 2 x limit.
func TestKeysStayOneGenerationAndLeaveAfterTwo(t *testing.T) {
	m := New[int, string](3)
	m.Put(0, "zero")
	for k := 1; k <= 3; k++ {
		m.Put(k, "")
	}
	if v, ok := m.Get(0); !ok || v != "zero" {
		t.Fatalf("key 0 after 3 new keys (limit 3): %q %t; want still held", v, ok)
	}
	for k := 4; k <= 6; k++ {
		m.Put(k, "")
	}
	if _, ok := m.Get(0); ok {
		t.Fatal("key 0 after 6 new keys (limit 3): still held; want dropped with its generation")
	}
	if m.Len() > 6 {
		t.Fatalf("%d keys held; want at most 2 x limit", m.Len())
	}
}

// Putting a key again moves it to the young generation: it outlives the old one, and is
// counted once.
func TestPutAgainKeepsAKeyYoung(t *testing.T) {
	m := New[int, int](2)
	m.Put(1, 1)
	m.Put(2, 2)
	m.Put(3, 3) // 1 and 2 are old now
	m.Put(1, 10)
	if m.Len() != 3 {
		t.Fatalf("%d keys held; want 3 (key 1 counted once)", m.Len())
	}
	m.Put(4, 4) // the generation holding 1 becomes old, the one holding 2 is dropped
	if v, ok := m.Get(1); !ok || v != 10 {
		t.Fatalf("key 1: %d %t; want 10, held", v, ok)
	}
	if _, ok := m.Get(2); ok {
		t.Fatal("key 2, put once two generations ago: still held")
	}
	m.Put(4, 40)
	if v, _ := m.Get(4); v != 40 || m.Len() != 3 {
		t.Fatalf("key 4 put twice: %d, %d held; want 40, 3", v, m.Len())
	}
}

func TestDeleteAndClear(t *testing.T) {
	m := New[string, bool](2)
	m.Put("a", true)
	m.Put("b", true)
	m.Put("c", true)
	m.Delete("a")
	m.Delete("c")
	if _, ok := m.Get("a"); ok || m.Len() != 1 {
		t.Fatalf("after deleting an old and a young key: a held %t, %d held; want gone, 1", ok, m.Len())
	}
	m.Clear()
	if _, ok := m.Get("b"); ok || m.Len() != 0 {
		t.Fatalf("after Clear: b held %t, %d held", ok, m.Len())
	}
}
