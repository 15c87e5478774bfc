package main

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/ingest/bootstrap"
	"github.com/stardust-indexer/stardust-indexer/snapshotexport"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
)

// An export's file appears under its name only once complete: while it is written only
// the temporary file exists, and a failed write leaves neither.
func TestWriteComplete(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.bin")
	failed := errors.New("write failed")
	for _, fail := range []bool{false, true} {
		err := writeComplete(out, func(f *os.File) error {
			if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s exists while it is written (%v)", out, err)
			}
			if _, err := f.WriteString("data"); err != nil {
				return err
			}
			if fail {
				return failed
			}
			return nil
		})
		_, statErr := os.Stat(out)
		switch {
		case fail && (!errors.Is(err, failed) || !errors.Is(statErr, fs.ErrNotExist)):
			t.Errorf("failed write: %v, %s: %v; want the error and no file", err, out, statErr)
		case !fail && (err != nil || statErr != nil):
			t.Errorf("write: %v, %s: %v; want the file", err, out, statErr)
		}
		if _, err := os.Stat(out + ".partial"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the temporary file is left (%v)", err)
		}
		_ = os.Remove(out)
	}
}

// `indexer export -snapshot` on a keyspace bootstrapped from the real Shimmer file writes
// that file again, byte for byte, and leaves nothing else in its directory; a refused
// export (-at below the bootstrap) leaves no file at all.
func TestExportSnapshotCommand(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	st, cfg := storetest.NewOrSkip(t, 1000)
	original := "../../source/snapshot/testdata/snapshot_dev_full_17338.bin"
	if _, err := bootstrap.Run(ctx, st, bootstrap.Config{Full: original, Node: "test"}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := []string{"-keyspace", cfg.Keyspace, "-cql-hosts", strings.Join(cfg.Hosts, ",")}
	out := filepath.Join(dir, "export.bin")
	if err := cmdExport(ctx, append([]string{"-snapshot", out}, db...)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(original)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the export (%d bytes) is not the bootstrapped file (%d bytes)", len(got), len(want))
	}
	err = cmdExport(ctx, append([]string{"-snapshot", filepath.Join(dir, "refused.bin"), "-at", "17337"}, db...))
	if !errors.Is(err, snapshotexport.ErrTargetRange) {
		t.Errorf("-at 17337: %v; want ErrTargetRange", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].Name() != "export.bin" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("the directory holds %v; want export.bin only", names)
	}
}

// An export writes an archive or a snapshot: flags of both are refused before any
// connection.
func TestExportFlagsOfOneKind(t *testing.T) {
	for _, args := range [][]string{{"-snapshot", "x.bin", "-from", "5"}, {"-snapshot", "x.bin", "-out", "a.sdxa.gz"},
		{"-from", "5", "-out", "a.sdxa.gz", "-at", "7"}} {
		if err := cmdExport(context.Background(), args); err == nil || !strings.Contains(err.Error(), "not both") {
			t.Errorf("export %v: %v; want a refusal of mixed flags", args, err)
		}
	}
}
