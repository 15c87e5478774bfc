// Package generations holds the bounded map the long-lived caches share (the node
// source's outputs and reached blocks, the hint writer): two generations of entries, so
// the memory a cache holds is fixed by its limit and reached soon after start, however
// long the process runs and however entries are removed.
package generations

// Map keeps the entries put into it in two generations. New keys go into the young
// generation; after limit new keys it becomes the old one, and the old one is dropped
// whole. A key is therefore kept for at least limit and at most 2 x limit new keys
// after it was last put.
//
// Dropping a generation whole, never deleting to make room, is the point: a Go map with
// keys deleted and added at a steady rate keeps growing its table for a while (its
// deleted slots are reused only in part), while a map that is filled and then dropped
// costs the same every generation. Map is not safe for concurrent use: its owner locks.
type Map[K comparable, V any] struct {
	young, old map[K]V
	added      int // new keys put into young
	limit      int
}

// New returns an empty Map of generations of limit new keys (at least 1).
func New[K comparable, V any](limit int) *Map[K, V] {
	limit = max(limit, 1)
	return &Map[K, V]{young: make(map[K]V, limit), old: map[K]V{}, limit: limit}
}

// Get returns the value of k in either generation.
func (m *Map[K, V]) Get(k K) (V, bool) {
	if v, ok := m.young[k]; ok {
		return v, true
	}
	v, ok := m.old[k]
	return v, ok
}

// Put sets k to v in the young generation, moving k out of the old one if it was there.
func (m *Map[K, V]) Put(k K, v V) {
	if _, ok := m.young[k]; ok {
		m.young[k] = v
		return
	}
	if m.added >= m.limit {
		m.old, m.young, m.added = m.young, make(map[K]V, m.limit), 0
	}
	delete(m.old, k)
	m.young[k] = v
	m.added++
}

// Delete removes k from both generations.
func (m *Map[K, V]) Delete(k K) {
	delete(m.young, k)
	delete(m.old, k)
}

// Len is the keys held in both generations.
func (m *Map[K, V]) Len() int { return len(m.young) + len(m.old) }

// Clear drops every entry.
func (m *Map[K, V]) Clear() {
	m.young, m.old, m.added = make(map[K]V, m.limit), map[K]V{}, 0
}
