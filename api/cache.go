package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/stardust-indexer/stardust-indexer/api/rest"
	"github.com/stardust-indexer/stardust-indexer/tip25"
)

// DefaultMovingMaxAge is Config.MovingMaxAge's default: Stardust's milestone interval.
const DefaultMovingMaxAge = 5 * time.Second

// immutableMaxAge is a year, the longest max-age caches are asked to honour (RFC 9111).
const immutableMaxAge = 365 * 24 * time.Hour

// classOf is rt's cache class for the answer out (nil: before an answer exists).
func classOf(rt *rest.Route, out any) rest.CacheClass {
	if rt.Admin {
		return rest.CacheNoStore
	}
	c := rt.Cache
	if c != rest.CacheSettled || out == nil {
		return c
	}
	if final(out) {
		return rest.CacheImmutable
	}
	return rest.CacheMoving
}

// answerClass is the cache class of the answer out of rt: classOf, with a synced
// route's list immutable only once its milestone has its sync row (one read; moving
// when it cannot be read).
func (s *Server) answerClass(ctx context.Context, rt *rest.Route, out any) rest.CacheClass {
	c := classOf(rt, out)
	if c != rest.CacheSynced {
		return c
	}
	index, ok := listedMilestone(out)
	if !ok {
		return rest.CacheMoving
	}
	synced, err := s.st.Synced(ctx, index, index)
	if _, done := synced[index]; err != nil || !done {
		return rest.CacheMoving
	}
	return rest.CacheImmutable
}

// listedMilestone is the milestone whose rows a synced route's answer lists.
func listedMilestone(out any) (uint32, bool) {
	switch a := out.(type) {
	case *tip25.UTXOChangesJSON:
		return a.Index, true
	case milestoneListing:
		return a.ListedMilestone(), true
	}
	return 0, false
}

// milestoneListing is an answer of a synced route: it lists one milestone's rows.
type milestoneListing interface{ ListedMilestone() uint32 }

// final says whether an answer of a settled route no longer changes: bytes (a block's
// or an output's serialized form) never do; a block's metadata does until a milestone
// references the block; other answers say so themselves (settling).
func final(out any) bool {
	switch a := out.(type) {
	case rest.RawBytes, rest.MediaBytes:
		return true
	case *tip25.BlockMetadataJSON:
		return a.ReferencedByMilestoneIndex != 0
	case settling:
		return a.Final()
	}
	return false
}

// settling is an answer of a settled route that says whether it changes no more.
type settling interface{ Final() bool }

// cacheControl is the Cache-Control value of class: public, or private when a read
// token guards the API (a shared cache must not serve one client's answer to another).
func (s *Server) cacheControl(class rest.CacheClass) string {
	scope := "public"
	if s.guard.hasRead {
		scope = "private"
	}
	switch class {
	case rest.CacheImmutable:
		return scope + ", max-age=" + seconds(immutableMaxAge) + ", immutable"
	case rest.CacheNoStore:
		return "no-store"
	}
	return scope + ", max-age=" + seconds(s.movingMaxAge())
}

func (s *Server) movingMaxAge() time.Duration {
	if s.cfg.MovingMaxAge <= 0 {
		return DefaultMovingMaxAge
	}
	return s.cfg.MovingMaxAge
}

// seconds is d in whole seconds, at least 1.
func seconds(d time.Duration) string {
	return strconv.FormatInt(max(int64(d/time.Second), 1), 10)
}

// setCacheHeaders sets Cache-Control for class and the Vary fields rt's answers depend
// on beyond the path (gzip adds Accept-Encoding).
func (s *Server) setCacheHeaders(w http.ResponseWriter, rt *rest.Route, class rest.CacheClass) {
	h := w.Header()
	h.Set("Cache-Control", s.cacheControl(class))
	if rt.AltMedia != "" {
		h.Add("Vary", "Accept")
	}
	if s.guard.hasRead && !rt.Admin && !probes[rt.Pattern] {
		h.Add("Vary", "Authorization")
	}
}

// setErrorCache sets the Cache-Control of an error answer of rt: a read route's 404 may
// stop being one when the next milestone is indexed, so caches keep it as briefly as a
// moving answer; every other error (and a refusing route's 404) is not stored.
func (s *Server) setErrorCache(w http.ResponseWriter, rt *rest.Route, status int) {
	class := rest.CacheNoStore
	if status == http.StatusNotFound && rt.Refuse == nil && classOf(rt, nil) != rest.CacheNoStore {
		class = rest.CacheMoving
	}
	w.Header().Set("Cache-Control", s.cacheControl(class))
}

// noStoreByDefault marks every answer no-store before it is served; the serve path
// replaces it for read answers, so that answers refused before a route runs (limits,
// read token, unknown paths) are never cached.
func noStoreByDefault(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
