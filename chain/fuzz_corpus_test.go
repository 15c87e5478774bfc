package chain_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stardust-indexer/stardust-indexer/chain"
)

// The seed corpora of the fuzz targets: generated from the real Shimmer data and the
// fixtures (fuzz_seeds_*_test.go), written by `go generate ./chain/` (which runs
// TestWriteFuzzCorpus with -write-fuzz-corpus) and checked here to be up to date.
// Seed names say what they hold: real-* and fixture-* must be accepted, broken-*
// refused, mutated-* may go either way; other files are what fuzzing found.

var writeCorpus = flag.Bool("write-fuzz-corpus", false, "rewrite the generated seed corpora under testdata/fuzz")

// seed is one corpus file: its name and the fuzz function's single argument.
type seed struct {
	name  string
	value any // []byte or string
}

func corpora(t *testing.T) map[string][]seed {
	return map[string][]seed{
		"FuzzDecodeMessage":          messageSeeds(t),
		"FuzzDecodeOutput":           outputSeeds(t),
		"FuzzDecodeInput":            inputSeeds(t),
		"FuzzDecodeUnlock":           unlockSeeds(t),
		"FuzzDecodeMilestonePayload": milestoneSeeds(t),
		"FuzzParseID":                idSeeds(t),
		"FuzzParseAddress":           addressSeeds(t),
	}
}

var generatedPrefixes = []string{"real-", "fixture-", "broken-", "mutated-"}

func isGenerated(name string) bool {
	return slices.ContainsFunc(generatedPrefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}

// corpusFile renders a value in the "go test fuzz v1" format.
func corpusFile(v any) []byte {
	switch v := v.(type) {
	case []byte:
		return fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", v)
	case string:
		return fmt.Appendf(nil, "go test fuzz v1\nstring(%q)\n", v)
	}
	panic(fmt.Sprintf("unsupported corpus value %T", v))
}

func TestWriteFuzzCorpus(t *testing.T) {
	if !*writeCorpus {
		t.Skip("run with -args -write-fuzz-corpus (go generate ./chain/) to rewrite the corpora")
	}
	for target, seeds := range corpora(t) {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if isGenerated(e.Name()) {
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, s := range seeds {
			if err := os.WriteFile(filepath.Join(dir, s.name), corpusFile(s.value), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Logf("%s: %d seeds", target, len(seeds))
	}
}

// TestFuzzCorpusUpToDate: the files on disk are what the generator writes, no more.
func TestFuzzCorpusUpToDate(t *testing.T) {
	for target, seeds := range corpora(t) {
		dir := filepath.Join("testdata", "fuzz", target)
		want := map[string]bool{}
		for _, s := range seeds {
			want[s.name] = true
			got, err := os.ReadFile(filepath.Join(dir, s.name))
			if err != nil || string(got) != string(corpusFile(s.value)) {
				t.Errorf("%s/%s is missing or stale (%v): run go generate ./chain/", target, s.name, err)
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if isGenerated(e.Name()) && !want[e.Name()] {
				t.Errorf("%s/%s is no longer generated: run go generate ./chain/", target, e.Name())
			}
		}
	}
}

// TestFuzzSeedsSayWhatTheyAre checks every corpus file against its name.
func TestFuzzSeedsSayWhatTheyAre(t *testing.T) {
	checks := map[string]func([]byte) error{
		"FuzzDecodeMessage":          func(b []byte) error { return chain.ValidateMessage(nil, b) },
		"FuzzDecodeOutput":           func(b []byte) error { _, err := chain.DecodeOutput(b); return err },
		"FuzzDecodeInput":            func(b []byte) error { _, err := chain.DecodeInput(b); return err },
		"FuzzDecodeUnlock":           func(b []byte) error { _, err := chain.DecodeUnlock(b); return err },
		"FuzzDecodeMilestonePayload": func(b []byte) error { _, err := chain.DecodeMilestonePayload(b); return err },
		"FuzzParseAddress":           func(b []byte) error { _, err := chain.ParseAddress(string(b)); return err },
		"FuzzParseID":                parseAnyID,
	}
	for target, check := range checks {
		dir := filepath.Join("testdata", "fuzz", target)
		entries, err := os.ReadDir(dir)
		if err != nil || len(entries) == 0 {
			t.Fatalf("%s: no seeds (%v)", dir, err)
		}
		for _, e := range entries {
			err := check(readCorpusFile(t, filepath.Join(dir, e.Name())))
			switch name := e.Name(); {
			case (strings.HasPrefix(name, "real-") || strings.HasPrefix(name, "fixture-")) && err != nil:
				t.Errorf("%s/%s: refused: %v", target, name, err)
			case strings.HasPrefix(name, "broken-") && err == nil:
				t.Errorf("%s/%s: accepted", target, name)
			}
		}
	}
}

func parseAnyID(b []byte) error {
	for _, p := range idParsers() {
		if _, err := p.parse(string(b)); err == nil {
			return nil
		}
	}
	return errors.New("no parser accepts it")
}

// readCorpusFile reads the single []byte or string value of a "go test fuzz v1" file.
func readCorpusFile(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if len(lines) != 2 || lines[0] != "go test fuzz v1" {
		t.Fatalf("%s: want a header and one value, got %d lines", path, len(lines))
	}
	for _, prefix := range []string{"[]byte(", "string("} {
		if lit, ok := strings.CutPrefix(lines[1], prefix); ok {
			s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			return []byte(s)
		}
	}
	t.Fatalf("%s: no []byte or string value", path)
	return nil
}
