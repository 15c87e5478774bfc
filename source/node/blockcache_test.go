package node

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// A block is fetched once however many walks ask for it at once, kept until dropped,
// and a failed fetch is not kept; a fetch whose walk stopped is made again by the next.
func TestBlockCache(t *testing.T) {
	c := newBlockCache()
	ctx := context.Background()
	id := chain.MessageID{1}
	var fetches atomic.Int32
	gate := make(chan struct{})
	fetch := func() ([]byte, error) {
		fetches.Add(1)
		<-gate
		return []byte("block"), nil
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if raw, err := c.get(ctx, id, fetch); err != nil || string(raw) != "block" {
				t.Errorf("get: %q, %v", raw, err)
			}
		}()
	}
	close(gate)
	wg.Wait()
	if got := fetches.Load(); got != 1 {
		t.Fatalf("%d fetches for 8 gets at once, want 1", got)
	}
	c.drop([]chain.MessageID{id})
	if _, err := c.get(ctx, id, fetch); err != nil || fetches.Load() != 2 {
		t.Fatalf("after drop: %v, %d fetches, want a second fetch", err, fetches.Load())
	}

	other, boom := chain.MessageID{2}, errors.New("boom")
	if _, err := c.get(ctx, other, func() ([]byte, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Fatalf("failed fetch: %v", err)
	}
	if raw, err := c.get(ctx, other, func() ([]byte, error) { return []byte("again"), nil }); err != nil || string(raw) != "again" {
		t.Fatalf("a failure was kept: %q, %v", raw, err)
	}

	stopped, started, release := chain.MessageID{3}, make(chan struct{}), make(chan struct{})
	owner := make(chan error, 1)
	go func() {
		_, err := c.get(ctx, stopped, func() ([]byte, error) {
			close(started)
			<-release
			return nil, context.Canceled // the walk that fetched it stopped
		})
		owner <- err
	}()
	<-started
	waiter := make(chan string, 1)
	go func() {
		raw, err := c.get(ctx, stopped, func() ([]byte, error) { return []byte("mine"), nil })
		if err != nil {
			t.Errorf("waiter: %v", err)
		}
		waiter <- string(raw)
	}()
	close(release)
	if err := <-owner; !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped fetch: %v", err)
	}
	if got := <-waiter; got != "mine" {
		t.Fatalf("a walk waiting for a stopped fetch got %q, want its own fetch", got)
	}
}

// The cache holds at most blockCacheBytes: the oldest blocks go first.
func TestBlockCacheBound(t *testing.T) {
	c := newBlockCache()
	big := make([]byte, blockCacheBytes/4)
	for i := range 6 {
		if _, err := c.get(context.Background(), chain.MessageID{byte(i)}, func() ([]byte, error) { return big, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if c.size > blockCacheBytes || len(c.m) != 4 {
		t.Fatalf("%d bytes in %d blocks, want at most %d in 4", c.size, len(c.m), blockCacheBytes)
	}
	if _, ok := c.m[chain.MessageID{0}]; ok {
		t.Fatal("the oldest block was kept")
	}
}
