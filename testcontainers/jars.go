package testcontainers

import (
	"context"
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

//go:embed cassandra
var assets embed.FS

// CassandraVersion is the server version the pom fetches.
const CassandraVersion = "5.0.8"

// jarDir returns the folder holding every runtime jar of the Cassandra server,
// fetching them with Maven the first time. Maven keeps its own cache in ~/.m2,
// so a second fetch (another cache dir) is offline-fast.
func jarDir(ctx context.Context) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("user cache dir: %w", err)
	}
	dir := filepath.Join(cache, "stardust-indexer", "cassandra-"+CassandraVersion)
	lib := filepath.Join(dir, "lib")
	if _, err := os.Stat(filepath.Join(dir, "complete")); err == nil {
		return lib, nil
	}
	if err := fetchJars(ctx, dir, lib); err != nil {
		return "", err
	}
	return lib, os.WriteFile(filepath.Join(dir, "complete"), nil, 0o644)
}

func fetchJars(ctx context.Context, dir, lib string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	pom, err := assets.ReadFile("cassandra/pom.xml")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "pom.xml"), pom, 0o644); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "mvn", "-B", "-q", "-f", filepath.Join(dir, "pom.xml"),
		"dependency:copy-dependencies", "-DoutputDirectory="+lib, "-DincludeScope=runtime")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("fetching Cassandra %s jars with Maven (needs mvn on PATH): %w\n%s",
			CassandraVersion, err, out)
	}
	return nil
}
