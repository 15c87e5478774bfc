package ops

import (
	"runtime"
	"testing"
)

// The registry exports the live heap the last GC marked, beside heap in use.
func TestRegistryExportsTheLiveHeap(t *testing.T) {
	runtime.GC()
	families, err := NewRegistry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "go_gc_heap_live_bytes" {
			continue
		}
		if v := f.GetMetric()[0].GetGauge().GetValue(); v <= 0 {
			t.Fatalf("go_gc_heap_live_bytes = %g after a GC", v)
		}
		return
	}
	t.Fatal("no go_gc_heap_live_bytes among the registry's metrics")
}
