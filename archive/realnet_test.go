package archive_test

import (
	"testing"

	"github.com/stardust-indexer/stardust-indexer/source/node"
	"github.com/stardust-indexer/stardust-indexer/source/node/nodetest"
	"github.com/stardust-indexer/stardust-indexer/store/storetest"
	"github.com/stardust-indexer/stardust-indexer/testsupport/archivetest"
)

// TestExportImportShimmer: the real Shimmer milestones, ingested from the fake Hornet
// node, exported and imported into a fresh keyspace (verified against Shimmer's keys,
// the outputs they spend carried as created before the range): every table is equal.
func TestExportImportShimmer(t *testing.T) {
	fake, set := nodetest.Start(t)
	src, err := node.New(node.Config{URL: fake.URL()})
	if err != nil {
		t.Fatal(err)
	}
	orig, origCfg := storetest.New(t, testChunk)
	if err := ingestRange(orig, src, set.Lowest(), set.Highest(), 0); err != nil {
		t.Fatalf("ingest from the node: %v", err)
	}
	path := archivetest.ExportFile(t, orig, set.Lowest(), set.Highest())
	imported, importedCfg := storetest.New(t, testChunk)
	if err := importFiles(t, imported, path); err != nil {
		t.Fatalf("import: %v", err)
	}
	sameData(t, origCfg, importedCfg)
}
