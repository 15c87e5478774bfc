package migrations

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/migrate"
)

// ErrDirtyMigration means golang-migrate stopped in the middle of a migration on the
// keyspace (its schema_migrations row is dirty): what that step created is unknown, so
// the keyspace is not adopted.
var ErrDirtyMigration = errors.New("keyspace left mid-migration by golang-migrate")

// ErrNewerSchema means the keyspace holds migrations this binary does not embed: a newer
// binary migrated it.
var ErrNewerSchema = errors.New("keyspace migrated by a newer binary")

// adopt takes over a keyspace that golang-migrate migrated (schema_migrations, one row:
// the version applied and whether it stopped half-way): each file up to that version that
// gocqlx_migrate does not list yet is recorded there as applied whole, with its checksum,
// so it never runs again. The files are all checked against the checksums
// schema_checksums recorded before any is recorded: a file whose contents differ is
// refused. A run cut short records the rest on the next. applied is what gocqlx_migrate
// lists; the files recorded here join it.
func adopt(ctx context.Context, s gocqlx.Session, keyspace string, want []File, applied map[string]*migrate.Info) error {
	legacy, err := tableExists(ctx, s, keyspace, "schema_migrations")
	if err != nil || !legacy {
		return err
	}
	version, err := legacyVersion(ctx, s)
	if err != nil {
		return err
	}
	if n := len(want); n > 0 && version > want[n-1].Version {
		return fmt.Errorf("%w: golang-migrate applied version %d, this binary embeds up to %d", ErrNewerSchema,
			version, want[n-1].Version)
	}
	sums, err := legacyChecksums(ctx, s, keyspace)
	if err != nil {
		return err
	}
	var adopted []File
	for _, f := range want {
		if f.Version > version {
			break
		}
		if sum, ok := sums[f.Version]; ok && sum != f.SHA256 {
			return fmt.Errorf("%w: %s (applied by golang-migrate with sha256 %.12s; this binary has %.12s)",
				ErrChangedMigration, f.Name, sum, f.SHA256)
		}
		adopted = append(adopted, f)
	}
	return recordMissing(ctx, s, adopted, applied)
}

// recordMissing records the files applied does not list yet, in gocqlx_migrate and in
// applied.
func recordMissing(ctx context.Context, s gocqlx.Session, files []File, applied map[string]*migrate.Info) error {
	for _, f := range files {
		if applied[f.Name] != nil {
			continue
		}
		info, err := recordApplied(ctx, s, f)
		if err != nil {
			return err
		}
		applied[f.Name] = info
	}
	return nil
}

func tableExists(ctx context.Context, s gocqlx.Session, keyspace, table string) (bool, error) {
	var n int
	err := s.Session.Query(`SELECT COUNT(*) FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?`,
		keyspace, table).WithContext(ctx).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("migrations: looking for %s: %w", table, err)
	}
	return n > 0, nil
}

// legacyVersion is the version golang-migrate applied (0: none); a dirty one is refused.
func legacyVersion(ctx context.Context, s gocqlx.Session) (uint, error) {
	var (
		version int64
		dirty   bool
	)
	iter := s.Session.Query(`SELECT version, dirty FROM schema_migrations LIMIT 1`).WithContext(ctx).Iter()
	found := iter.Scan(&version, &dirty)
	if err := iter.Close(); err != nil {
		return 0, fmt.Errorf("migrations: reading schema_migrations: %w", err)
	}
	if found && dirty {
		return 0, fmt.Errorf("%w: version %d (clean the step by hand, then set dirty = false)", ErrDirtyMigration, version)
	}
	return uint(max(version, 0)), nil
}

// legacyChecksums are the sha256 of each file golang-migrate applied, by version, as
// schema_checksums recorded them (none when the table is missing).
func legacyChecksums(ctx context.Context, s gocqlx.Session, keyspace string) (map[uint]string, error) {
	sums := map[uint]string{}
	if ok, err := tableExists(ctx, s, keyspace, "schema_checksums"); err != nil || !ok {
		return sums, err
	}
	iter := s.Session.Query(`SELECT version, sha256 FROM schema_checksums`).WithContext(ctx).Iter()
	var (
		version int64
		sum     string
	)
	for iter.Scan(&version, &sum) {
		sums[uint(version)] = sum
	}
	if err := iter.Close(); err != nil {
		return nil, fmt.Errorf("migrations: reading schema_checksums: %w", err)
	}
	return sums, nil
}

// recordApplied writes f into gocqlx_migrate as gocqlx's migrate writes a file it applied
// whole: its name, md5 and every statement done.
func recordApplied(ctx context.Context, s gocqlx.Session, f File) (*migrate.Info, error) {
	now := time.Now()
	info := &migrate.Info{Name: f.Name, Checksum: f.MD5, Done: f.Statements, StartTime: now, EndTime: now}
	err := s.Session.Query(`INSERT INTO gocqlx_migrate (name, checksum, done, start_time, end_time) VALUES (?, ?, ?, ?, ?)`,
		info.Name, info.Checksum, info.Done, info.StartTime, info.EndTime).WithContext(ctx).Exec()
	if err != nil {
		return nil, fmt.Errorf("migrations: recording %s as applied: %w", f.Name, err)
	}
	return info, nil
}
