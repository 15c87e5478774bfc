// Package migrations holds the versioned CQL schema (the Stardust schema proposal, with the
// deviations listed in docs/schema.md) and applies it with gocqlx's migrate, which records
// each applied file with its checksum in gocqlx_migrate. A keyspace migrated by
// golang-migrate before is adopted in place (adopt.go).
package migrations

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/gocql/gocql"
	"github.com/scylladb/gocqlx/v2"
	"github.com/scylladb/gocqlx/v2/migrate"
)

// ErrChangedMigration means an applied migration file differs from the one this binary embeds.
var ErrChangedMigration = errors.New("applied migration was changed")

// Up applies every pending migration to the session's keyspace. It first refuses to run
// when a migration already applied there was changed since, naming the file.
func Up(ctx context.Context, session *gocql.Session, keyspace string) error {
	return UpFrom(ctx, session, keyspace, files)
}

// UpFrom is Up with migrations read from fsys (same layout as Source).
func UpFrom(ctx context.Context, session *gocql.Session, keyspace string, fsys fs.FS) error {
	want, err := listFiles(fsys)
	if err != nil {
		return err
	}
	s := gocqlx.NewSession(session)
	applied, err := appliedByName(ctx, s)
	if err != nil {
		return err
	}
	if err := adopt(ctx, s, keyspace, want, applied); err != nil {
		return err
	}
	if err := verifyApplied(want, applied); err != nil {
		return err
	}
	dir, err := fs.Sub(fsys, "cql")
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if err := migrate.FromFS(ctx, s, dir); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// verifyApplied refuses a keyspace where a file this binary embeds was applied with other
// contents (gocqlx's migrate refuses too, in words only), or where a file is applied that
// it does not embed. It takes applied's entries as it checks them.
func verifyApplied(want []File, applied map[string]*migrate.Info) error {
	for _, f := range want {
		if a, ok := applied[f.Name]; ok && f.MD5 != a.Checksum {
			return fmt.Errorf("%w: %s (applied with md5 %s; this binary has md5 %s)", ErrChangedMigration, a.Name, a.Checksum, f.MD5)
		}
		delete(applied, f.Name)
	}
	for name := range applied {
		return fmt.Errorf("%w: %s is applied, this binary does not embed it", ErrNewerSchema, name)
	}
	return nil
}

// appliedByName are the files gocqlx_migrate lists, by name.
func appliedByName(ctx context.Context, s gocqlx.Session) (map[string]*migrate.Info, error) {
	applied, err := migrate.List(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("migrations: listing applied: %w", err)
	}
	byName := make(map[string]*migrate.Info, len(applied))
	for _, a := range applied {
		byName[a.Name] = a
	}
	return byName, nil
}
