package generations

import (
	"encoding/binary"
	"runtime"
	"testing"
)

// The heap a cache of 2^15 keys of 32 bytes holds after 40 times its size of new keys,
// side by side: one map whose oldest key is deleted for each new one (a ring), and Map.
// Run: go test ./internal/generations -run '^$' -bench Churn -benchtime 1x
func BenchmarkChurnRing(b *testing.B) {
	const size = 1 << 15
	for b.Loop() {
		before := liveHeap()
		m, ring := make(map[[32]byte]uint32, size), make([][32]byte, size)
		for i := range 40 * size {
			delete(m, ring[i%size])
			ring[i%size] = key(i)
			m[key(i)] = uint32(i)
		}
		b.ReportMetric(float64(liveHeap()-before)/1e6, "MB-held")
		runtime.KeepAlive(m)
		runtime.KeepAlive(ring)
	}
}

func BenchmarkChurnGenerations(b *testing.B) {
	const size = 1 << 15
	for b.Loop() {
		before := liveHeap()
		m := New[[32]byte, uint32](size / 2)
		for i := range 40 * size {
			m.Put(key(i), uint32(i))
		}
		b.ReportMetric(float64(liveHeap()-before)/1e6, "MB-held")
		runtime.KeepAlive(m)
	}
}

func key(i int) (k [32]byte) {
	binary.LittleEndian.PutUint64(k[:], uint64(i)*0x9e3779b97f4a7c15)
	binary.LittleEndian.PutUint64(k[8:], uint64(i))
	return k
}

func liveHeap() uint64 {
	runtime.GC()
	var s runtime.MemStats
	runtime.ReadMemStats(&s)
	return s.HeapAlloc
}
