package archive_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"compress/gzip"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/cql"
	"github.com/stardust-indexer/stardust-indexer/ingest"
	"github.com/stardust-indexer/stardust-indexer/source"
	"github.com/stardust-indexer/stardust-indexer/source/sim"
	"github.com/stardust-indexer/stardust-indexer/store"
	"github.com/stardust-indexer/stardust-indexer/testcontainers"
)

// testChunk is small so a few dozen milestones span several ms_range_id partitions.
const testChunk = 10

// bookkeeping tables differ between runs by design (who and when), not by content;
// sync differs by logged_by, compared on its own.
var bookkeeping = []string{"indexer_meta", "leases", "gocqlx_migrate", "sync"}

func simChain(tip uint32) *sim.Sim {
	return sim.New(sim.Options{Seed: 42, Tip: tip, MessagesPerMilestone: 12, MilestoneInterval: 20 * time.Minute})
}

// ingestRange runs a pipeline over milestones from..to of src.
func ingestRange(st *store.Store, src source.Source, from, to uint32, loggedBy int8) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	p := ingest.New(src, st, ingest.Config{NodeID: 1, Start: from, StopAt: to, LoggedBy: loggedBy}, nil, nil)
	return p.Run(ctx)
}

// importFiles ingests archives into st as `indexer import` does.
func importFiles(t *testing.T, st *store.Store, paths ...string) error {
	t.Helper()
	src, err := archive.Open(paths, keysOf(paths[0]))
	if err != nil {
		return err
	}
	defer src.Close()
	from, to := src.Range()
	return ingestRange(st, src, from, to, 7)
}

// keysOf is the keys `indexer import` passes for the archives starting with path: the
// sim's for an archive of the sim network, else nil (the built-in keys of its network).
func keysOf(path string) *chain.MilestoneKeys {
	if h, err := archive.ReadHeader(path); err == nil && h.Network.Name == sim.NetworkName {
		return simKeys()
	}
	return nil
}

// sameData compares every table and view of two keyspaces but the bookkeeping ones.
func sameData(t *testing.T, aCfg, bCfg cql.Config) {
	t.Helper()
	if testcontainers.AssertSameData(t, aCfg, bCfg, bookkeeping...) == 0 {
		t.Fatal("nothing to compare: both keyspaces are empty")
	}
}

// decompressed reads an archive file's decompressed stream.
func decompressed(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return gunzip(t, b)
}

// compressed writes b, gzip-compressed, to a new file.
func compressed(t *testing.T, b []byte) string {
	t.Helper()
	return writeFile(t, gzipped(b))
}

func writeFile(t *testing.T, b []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bad.sdxa.gz")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// recordOffsets parses the framing of a decompressed archive independently of the
// reader: the offset of each milestone record (index 0 is record 1).
func recordOffsets(t *testing.T, b []byte) []int64 {
	t.Helper()
	off := len(archive.Magic) + 2
	off += 4 + int(binary.LittleEndian.Uint32(b[off:])) + 4
	var out []int64
	for {
		n := int(binary.LittleEndian.Uint32(b[off:]))
		if n == 0 {
			return out
		}
		out = append(out, int64(off))
		off += 4 + n + 4
	}
}

// simKeys is the keys of the sim network, which an archive has no built-in keys for.
func simKeys() *chain.MilestoneKeys {
	keys := sim.Network().Keys
	return &keys
}

// simArchive writes milestones from..to of a sim chain (no database) into an archive.
func simArchive(t testing.TB, from, to uint32) []byte {
	t.Helper()
	src := simChain(to)
	var buf bytes.Buffer
	w, err := archive.NewWriter(&buf, archive.Header{Network: store.RecordOf(sim.Network()), From: from, To: to})
	if err != nil {
		t.Fatal(err)
	}
	for i := from; i <= to; i++ {
		cm, err := src.Confirmed(context.Background(), i)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(cm); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gunzip(t testing.TB, b []byte) []byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(gz)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func gzipped(b []byte) []byte {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.Write(b)
	gz.Close()
	return buf.Bytes()
}
