package ingest

import (
	"context"
	"sync"
	"time"
)

// writesContext is the context milestone writes run under: it ends StopGrace after ctx
// does (or when stop is called), so the milestones being written when the pipeline is
// told to stop finish with their sync rows instead of being cut off half written.
func (p *Pipeline) writesContext(ctx context.Context) (wctx context.Context, stop func()) {
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	var mu sync.Mutex // the grace timer is set on ctx's goroutine and stopped on stop's
	var timer *time.Timer
	stopWatching := context.AfterFunc(ctx, func() {
		p.log.Info("stopping: finishing the milestones being written", "grace", p.cfg.StopGrace)
		mu.Lock()
		defer mu.Unlock()
		timer = time.AfterFunc(p.cfg.StopGrace, cancel)
	})
	return wctx, func() {
		stopWatching()
		mu.Lock()
		if timer != nil {
			timer.Stop()
		}
		mu.Unlock()
		cancel()
	}
}
