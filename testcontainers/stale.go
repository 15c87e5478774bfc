package testcontainers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/migrations"
)

// DefaultStaleAge is the age past which a test keyspace is taken for one a killed run left
// behind: twice the longest -timeout the Makefile gives a test binary (90 minutes), after
// which `go test` ends the binary and its keyspaces with it. STALE_KEYSPACE_AGE (a Go
// duration) replaces it; 0 turns the cleanup off.
const DefaultStaleAge = 3 * time.Hour

// testKeyspaceName matches the names uniqueKeyspace gives: "t_", the creation time in Unix
// seconds (absent from names of earlier versions), the test's name, the process ID, a
// sequence number.
var testKeyspaceName = regexp.MustCompile(`^t_(?:([0-9]{10})_)?[a-z0-9_]*_[0-9]{1,5}_[0-9]+$`)

// schemaKeyspace is a keyspace as system_schema lists it: its name and when its schema
// row was written (its creation, for a keyspace never altered).
type schemaKeyspace struct {
	name    string
	written time.Time
}

// createdAt is when a test keyspace was created: the time its name carries, else its
// schema row's write time; ok is false for a keyspace that is not a test's.
func createdAt(k schemaKeyspace) (time.Time, bool) {
	m := testKeyspaceName.FindStringSubmatch(k.name)
	switch {
	case m == nil:
		return time.Time{}, false
	case m[1] != "":
		sec, err := strconv.ParseInt(m[1], 10, 64)
		return time.Unix(sec, 0), err == nil
	case k.written.IsZero():
		return time.Time{}, false
	}
	return k.written, true
}

// staleKeyspaces selects the test keyspaces created more than maxAge before now. A time
// in the future (another host's clock) is never stale.
func staleKeyspaces(all []schemaKeyspace, now time.Time, maxAge time.Duration) []string {
	var out []string
	for _, k := range all {
		if at, ok := createdAt(k); ok && !at.After(now) && now.Sub(at) > maxAge {
			out = append(out, k.name)
		}
	}
	return out
}

// listKeyspaces reads every keyspace's name and schema write time.
func listKeyspaces(ctx context.Context, s *cql.Session) ([]schemaKeyspace, error) {
	it := s.Gocql().Query("SELECT keyspace_name, writetime(durable_writes) FROM system_schema.keyspaces").
		WithContext(ctx).Iter()
	var out []schemaKeyspace
	var name string
	var micros *int64
	for it.Scan(&name, &micros) {
		k := schemaKeyspace{name: name}
		if micros != nil && *micros > 0 {
			k.written = time.UnixMicro(*micros)
		}
		out = append(out, k)
	}
	if err := it.Close(); err != nil {
		return nil, fmt.Errorf("listing keyspaces: %w", err)
	}
	return out, nil
}

// DropStaleKeyspaces drops the test keyspaces on cfg's cluster created more than maxAge
// ago, and returns their names. Test processes running beside this one make keyspaces
// younger than that, so they are left alone; two processes dropping the same stale
// keyspace both succeed (IF EXISTS). The drops go through a schema session (one
// coordinator, a minute a statement: a migrated keyspace's tables and views take seconds);
// one that fails is reported and the others are still tried.
func DropStaleKeyspaces(ctx context.Context, cfg cql.Config, maxAge time.Duration) ([]string, error) {
	admin := cfg
	admin.Keyspace = ""
	s, err := cql.OpenSchema(admin)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	all, err := listKeyspaces(ctx, s)
	if err != nil {
		return nil, err
	}
	stale := staleKeyspaces(all, time.Now(), maxAge)
	// Processes starting together share out the drops instead of all taking the same first.
	rand.Shuffle(len(stale), func(i, j int) { stale[i], stale[j] = stale[j], stale[i] })
	var dropped []string
	var errs []error
	for _, name := range stale {
		if ctx.Err() != nil {
			errs = append(errs, ctx.Err())
			break
		}
		if err := migrations.DropKeyspace(ctx, s.Gocql(), name); err != nil {
			errs = append(errs, fmt.Errorf("dropping stale test keyspace %s: %w", name, err))
			continue
		}
		dropped = append(dropped, name)
	}
	return dropped, errors.Join(errs...)
}

// staleAge is DefaultStaleAge or STALE_KEYSPACE_AGE.
func staleAge() (time.Duration, error) {
	env := os.Getenv("STALE_KEYSPACE_AGE")
	if env == "" {
		return DefaultStaleAge, nil
	}
	d, err := time.ParseDuration(env)
	if err != nil {
		return 0, fmt.Errorf("STALE_KEYSPACE_AGE: %w", err)
	}
	return d, nil
}

var staleOnce sync.Once

// dropStaleOnce runs DropStaleKeyspaces on the test cluster the first time a test of this
// process makes a keyspace there; a failure is logged, never fatal.
func dropStaleOnce(t testing.TB, cfg cql.Config) {
	t.Helper()
	staleOnce.Do(func() {
		age, err := staleAge()
		if err != nil || age <= 0 {
			if err != nil {
				t.Logf("stale test keyspaces left alone: %v", err)
			}
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // what is left waits for the next run
		defer cancel()
		dropped, err := DropStaleKeyspaces(ctx, cfg, age)
		if len(dropped) > 0 {
			t.Logf("dropped %d test keyspaces older than %s: %v", len(dropped), age, dropped)
		}
		if err != nil {
			t.Logf("dropping stale test keyspaces: %v", err)
		}
	})
}
