package migrations

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gocql/gocql"
)

// Replication describes a keyspace's replication. With DataCenters empty it is
// SimpleStrategy with Factor; otherwise NetworkTopologyStrategy with one factor per DC.
type Replication struct {
	Factor      int
	DataCenters map[string]int
}

var (
	identifier = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9_]{0,47}$`)
	dcName     = regexp.MustCompile(`^[a-zA-Z0-9_.-]+$`)
)

// ValidKeyspace reports whether name is a safe, unquoted CQL identifier.
func ValidKeyspace(name string) error {
	if !identifier.MatchString(name) {
		return fmt.Errorf("keyspace %q: want a letter then letters, digits or _ (max 48)", name)
	}
	return nil
}

// CQL renders the replication map. DDL cannot take bind markers, so the values are
// checked (identifier, positive factors) before they are formatted in.
func (r Replication) CQL() (string, error) {
	if len(r.DataCenters) == 0 {
		if r.Factor < 1 {
			return "", fmt.Errorf("replication factor %d: want >= 1", r.Factor)
		}
		return fmt.Sprintf("{'class': 'SimpleStrategy', 'replication_factor': %d}", r.Factor), nil
	}
	dcs := make([]string, 0, len(r.DataCenters))
	for dc := range r.DataCenters {
		dcs = append(dcs, dc)
	}
	sort.Strings(dcs)
	parts := []string{"'class': 'NetworkTopologyStrategy'"}
	for _, dc := range dcs {
		if !dcName.MatchString(dc) || r.DataCenters[dc] < 1 {
			return "", fmt.Errorf("replication %q: %d: want a DC name and a factor >= 1", dc, r.DataCenters[dc])
		}
		parts = append(parts, fmt.Sprintf("'%s': %d", dc, r.DataCenters[dc]))
	}
	return "{" + strings.Join(parts, ", ") + "}", nil
}

// CreateKeyspace creates the keyspace if it does not exist yet.
func CreateKeyspace(ctx context.Context, s *gocql.Session, name string, r Replication) error {
	if err := ValidKeyspace(name); err != nil {
		return err
	}
	repl, err := r.CQL()
	if err != nil {
		return err
	}
	q := fmt.Sprintf("CREATE KEYSPACE IF NOT EXISTS %s WITH replication = %s", name, repl)
	return s.Query(q).WithContext(ctx).Exec()
}

// DropKeyspace removes the keyspace and all its data (tests only).
func DropKeyspace(ctx context.Context, s *gocql.Session, name string) error {
	if err := ValidKeyspace(name); err != nil {
		return err
	}
	return s.Query("DROP KEYSPACE IF EXISTS " + name).WithContext(ctx).Exec()
}

// Apply creates the keyspace if it does not exist yet and applies every pending
// migration to it (Up). open gives a session for schema changes on a keyspace ("" for
// none, to create one); Apply closes what it opens. `indexer migrate` and the test
// keyspaces go through here, each with sessions bound to one coordinator.
func Apply(ctx context.Context, keyspace string, r Replication, open func(keyspace string) (*gocql.Session, error)) error {
	admin, err := open("")
	if err != nil {
		return err
	}
	err = CreateKeyspace(ctx, admin, keyspace, r)
	admin.Close()
	if err != nil {
		return fmt.Errorf("creating keyspace %s: %w", keyspace, err)
	}
	s, err := open(keyspace)
	if err != nil {
		return err
	}
	defer s.Close()
	return Up(ctx, s, keyspace)
}
