package archive_test

import (
	"errors"
	"os"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/archive"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/archivetest"
)

// corruptFixture ingests and exports milestones from..to once for the corruption tests.
func corruptFixture(t *testing.T) (plain []byte, offsets []int64) {
	t.Helper()
	st, _ := storetest.New(t, testChunk)
	if err := ingestRange(st, simChain(corruptTo), corruptFrom, corruptTo, 0); err != nil {
		t.Fatal(err)
	}
	plain = decompressed(t, archivetest.ExportFile(t, st, corruptFrom, corruptTo))
	return plain, recordOffsets(t, plain)
}

const corruptFrom, corruptTo = 2, 12

// TestImportRefusesCorruptRecords: a record cut short, a record with one flipped byte,
// each refused naming its record and offset; the milestones before it are imported,
// nothing of it or after it is.
func TestImportRefusesCorruptRecords(t *testing.T) {
	plain, offsets := corruptFixture(t)
	const bad = 6 // record 6: milestone corruptFrom+5
	for _, c := range []struct {
		name string
		data func() []byte
	}{
		{"truncated", func() []byte { return plain[:offsets[bad-1]+40] }},
		{"flipped byte", func() []byte {
			b := append([]byte(nil), plain...)
			b[offsets[bad-1]+200] ^= 0x10
			return b
		}},
		{"flipped length", func() []byte {
			b := append([]byte(nil), plain...)
			b[offsets[bad-1]+1] ^= 0x01
			return b
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			st, _ := storetest.New(t, testChunk)
			err := importFiles(t, st, compressed(t, c.data()))
			var corrupt *archive.CorruptError
			if !errors.As(err, &corrupt) || corrupt.Record != bad || corrupt.Offset != offsets[bad-1] {
				t.Fatalf("import: %v; want record %d at offset %d refused", err, bad, offsets[bad-1])
			}
			t.Log(err)
			assertHoldsUpTo(t, st, corruptFrom, corruptFrom+bad-2, corruptTo)
		})
	}
}

// TestImportRefusesDamagedFile: the compressed file itself cut short or with a flipped
// byte is refused at some record, and nothing of that record's milestone is written.
func TestImportRefusesDamagedFile(t *testing.T) {
	st, _ := storetest.New(t, testChunk)
	if err := ingestRange(st, simChain(corruptTo), corruptFrom, corruptTo, 0); err != nil {
		t.Fatal(err)
	}
	whole, err := os.ReadFile(archivetest.ExportFile(t, st, corruptFrom, corruptTo))
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), whole...)
	flipped[len(whole)/2] ^= 0x01
	for name, data := range map[string][]byte{"cut": whole[:len(whole)*2/3], "flipped": flipped} {
		t.Run(name, func(t *testing.T) {
			imp, _ := storetest.New(t, testChunk)
			err := importFiles(t, imp, writeFile(t, data))
			var corrupt *archive.CorruptError
			if !errors.As(err, &corrupt) || corrupt.Record < 1 {
				t.Fatalf("import: %v; want a milestone record refused", err)
			}
			t.Log(err)
			assertHoldsUpTo(t, imp, corruptFrom, corruptFrom+uint32(corrupt.Record)-2, corruptTo)
		})
	}
}
