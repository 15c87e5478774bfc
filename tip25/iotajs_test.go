package tip25

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stardust-indexer/stardust-indexer/chain"
	"github.com/stardust-indexer/stardust-indexer/compat/iotajs"
)

// iotajsDoc is one document for compat/iotajs/check.js.
type iotajsDoc struct {
	Name string          `json:"name"`
	Kind string          `json:"kind"` // block, output or milestone
	JSON json.RawMessage `json:"json"`
	Hex  string          `json:"hex"`
	ID   string          `json:"id,omitempty"`
}

// TestIotaJS has @iota/iota.js serialize the JSON of every real block, output and milestone
// payload and of the fixture, and compare with the bytes; and deserialize the bytes back.
// With TIP25_IOTAJS_DOCUMENTS=path the documents are written there and kept.
func TestIotaJS(t *testing.T) {
	docs, counts := iotajsDocuments(t)
	file := filepath.Join(t.TempDir(), "documents.json")
	if keep := os.Getenv("TIP25_IOTAJS_DOCUMENTS"); keep != "" {
		file = keep // kept for running check.js alone (compat/iotajs/README.md)
	}
	if err := os.WriteFile(file, marshal(t, docs), 0o644); err != nil {
		t.Fatal(err)
	}
	out := iotajs.Run(t, 2*time.Minute, "check.js", file)
	want := strconv.Itoa(len(docs)) + " documents (" + counts + "): " + strconv.Itoa(len(docs)) + " matched, 0 mismatched"
	if !strings.Contains(string(out), want) {
		t.Fatalf("iota.js check: want %q in its report:\n%s", want, out)
	}
	t.Logf("%s", strings.TrimSpace(string(out)))
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// iotajsDocuments lists every real block, output and milestone payload and the fixture,
// and says how many of each kind as check.js counts them.
func iotajsDocuments(t *testing.T) ([]iotajsDoc, string) {
	var docs []iotajsDoc
	for _, b := range realBlocks(t) {
		id := chain.MessageIDOf(b.Raw)
		docs = append(docs, iotajsDoc{"real block " + id.String(), "block", blockJSON(t, b.Raw), hexOf(b.Raw), id.String()})
	}
	blocks, iotajs := fixtureBlocks(t)
	for _, name := range sortedNames(blocks) {
		if raw := blocks[name].Encode(); iotajs[name] {
			docs = append(docs, iotajsDoc{"fixture block " + name, "block", blockJSON(t, raw), hexOf(raw), chain.MessageIDOf(raw).String()})
		}
	}
	nBlocks := len(docs)
	for _, o := range realOutputs(t) {
		docs = append(docs, iotajsDoc{"real output " + hexOf(o.OutputID[:]), "output", outputJSON(t, o.Raw), hexOf(o.Raw), ""})
	}
	for _, name := range sortedNames(fixtureOutputs()) {
		raw := chain.EncodeOutput(fixtureOutputs()[name])
		docs = append(docs, iotajsDoc{"fixture output " + name, "output", outputJSON(t, raw), hexOf(raw), ""})
	}
	nOutputs := len(docs) - nBlocks
	for _, m := range realMilestones(t) {
		id := chain.MilestoneID(m.MilestoneID).String()
		docs = append(docs, iotajsDoc{"real milestone " + itoa(m.Index), "milestone", milestoneJSON(t, m.Payload), hexOf(m.Payload), id})
	}
	return docs, strconv.Itoa(nBlocks) + " block, " + strconv.Itoa(nOutputs) + " output, 2 milestone"
}
