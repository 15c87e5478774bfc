package rest

import (
	"slices"
	"strings"
)

// CacheClass is how long an answer of a route stays true, which sets its Cache-Control
// (docs/caching.md).
type CacheClass int

const (
	// cacheMoving: the answer changes with the next milestone (lists, balances, unspent
	// outputs, status); caches keep it for about a milestone interval. The default, so
	// that a route that names no class (route.cache) is never cached for long.
	CacheMoving CacheClass = iota
	// cacheImmutable: the answer never changes (blocks, milestones and what they applied).
	CacheImmutable
	// cacheSettled: immutable once the answer says it is final (a block's metadata once
	// a milestone referenced it, an output once spent), moving before.
	CacheSettled
	// cacheNoStore: never cached (probes, operations, admin, validation by POST).
	CacheNoStore
	// cacheSynced: a list of one milestone's rows, immutable once the milestone's sync
	// row exists (the ingest writes it after every other row of the milestone), moving
	// before: a list read while the milestone is being written may lack rows.
	CacheSynced
)

// Remembers says whether answers of rt may be remembered: those that can be immutable.
func Remembers(rt *Route) bool {
	return !rt.Admin && rt.Cache != CacheMoving && rt.Cache != CacheNoStore
}

// CanonicalInput is the route and its parsed parameters, sorted by name, each in its
// canonical form: what an answer depends on, however the query spelt it.
func CanonicalInput(pattern string, values map[string]any) string {
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range values {
			if !yield(name) {
				return
			}
		}
	})
	var b strings.Builder
	b.WriteString(pattern)
	for _, name := range names {
		b.WriteString("\x00" + name + "=" + canonical(values[name]))
	}
	return b.String()
}
