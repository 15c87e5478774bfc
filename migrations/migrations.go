// Package migrations holds the versioned CQL schema (the Stardust schema proposal, with the
// deviations listed in docs/schema.md) and applies it with golang-migrate.
package migrations

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/gocql/gocql"
	"github.com/golang-migrate/migrate/v4"
	"github.com/golang-migrate/migrate/v4/database/cassandra"
	"github.com/golang-migrate/migrate/v4/source/iofs"
)

//go:embed cql/*.cql
var files embed.FS

// ErrChangedMigration means an applied migration file differs from the one this binary embeds.
var ErrChangedMigration = errors.New("applied migration was changed")

// File is one embedded up-migration.
type File struct {
	Version uint
	Name    string
	SHA256  string
}

// Files lists the embedded up-migrations in version order.
func Files() ([]File, error) { return listFiles(files) }

func listFiles(fsys fs.FS) ([]File, error) {
	entries, err := fs.ReadDir(fsys, "cql")
	if err != nil {
		return nil, err
	}
	var out []File
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".up.cql") {
			continue
		}
		v, err := strconv.ParseUint(strings.SplitN(e.Name(), "_", 2)[0], 10, 32)
		if err != nil {
			return nil, fmt.Errorf("migration %s: bad version prefix", e.Name())
		}
		body, err := fs.ReadFile(fsys, "cql/"+e.Name())
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		out = append(out, File{Version: uint(v), Name: e.Name(), SHA256: hex.EncodeToString(sum[:])})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// Up applies every pending migration to the session's keyspace. It first refuses to run
// when a migration already applied there was changed since (golang-migrate itself only
// records version numbers), and records the checksum of each file it applied.
func Up(ctx context.Context, session *gocql.Session, keyspace string) error {
	return UpFrom(ctx, session, keyspace, files)
}

// Source returns the embedded migrations (a folder "cql" of NNNNNN_name.up/down.cql).
func Source() fs.FS { return files }

// UpFrom is Up with migrations read from fsys (same layout as Source).
func UpFrom(ctx context.Context, session *gocql.Session, keyspace string, fsys fs.FS) error {
	want, err := listFiles(fsys)
	if err != nil {
		return err
	}
	if err := ensureChecksumTable(ctx, session); err != nil {
		return err
	}
	if err := verifyChecksums(ctx, session, want); err != nil {
		return err
	}
	if err := runMigrate(session, keyspace, fsys); err != nil {
		return err
	}
	return recordChecksums(ctx, session, want)
}

func runMigrate(session *gocql.Session, keyspace string, fsys fs.FS) error {
	src, err := iofs.New(fsys, "cql")
	if err != nil {
		return err
	}
	drv, err := cassandra.WithInstance(session, &cassandra.Config{
		KeyspaceName: keyspace, MultiStatementEnabled: true,
		MultiStatementMaxSize: cassandra.DefaultMultiStatementMaxSize,
	})
	if err != nil {
		return fmt.Errorf("migrate driver: %w", err)
	}
	m, err := migrate.NewWithInstance("iofs", src, keyspace, drv)
	if err != nil {
		return err
	}
	if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		return fmt.Errorf("migrate up: %w", err)
	}
	return nil
}

const checksumTable = `CREATE TABLE IF NOT EXISTS schema_checksums (
	version bigint, name text, sha256 text, PRIMARY KEY (version))`

func ensureChecksumTable(ctx context.Context, s *gocql.Session) error {
	return s.Query(checksumTable).WithContext(ctx).Exec()
}

func verifyChecksums(ctx context.Context, s *gocql.Session, want []File) error {
	byVersion := map[uint]File{}
	for _, f := range want {
		byVersion[f.Version] = f
	}
	iter := s.Query(`SELECT version, name, sha256 FROM schema_checksums`).WithContext(ctx).Iter()
	var (
		version   int64
		name, sum string
	)
	for iter.Scan(&version, &name, &sum) {
		f, ok := byVersion[uint(version)]
		if !ok {
			continue // applied by a newer binary: golang-migrate reports the unknown version
		}
		if f.SHA256 != sum {
			_ = iter.Close()
			return fmt.Errorf("%w: %s (applied %s, sha256 %s; this binary has %s, sha256 %s)",
				ErrChangedMigration, f.Name, name, sum[:12], f.Name, f.SHA256[:12])
		}
	}
	return iter.Close()
}

func recordChecksums(ctx context.Context, s *gocql.Session, files []File) error {
	for _, f := range files {
		err := s.Query(`INSERT INTO schema_checksums (version, name, sha256) VALUES (?, ?, ?) IF NOT EXISTS`,
			int64(f.Version), f.Name, f.SHA256).WithContext(ctx).MapScan(map[string]any{})
		if err != nil {
			return fmt.Errorf("recording checksum of %s: %w", f.Name, err)
		}
	}
	return nil
}
