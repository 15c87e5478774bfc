package realdata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

const (
	milestonesFile = "shimmer_ms_17339_17340.json"
	blocksFile     = "shimmer_blocks_ms_2418187.json"
)

var (
	setOnce sync.Once
	set     *Set
	setErr  error

	blocksOnce sync.Once
	blocks     []Block
	blocksErr  error
)

// Load parses shimmer_ms_17339_17340.json once and returns the shared result.
func Load() (*Set, error) {
	setOnce.Do(func() { set, setErr = loadSet() })
	return set, setErr
}

// Blocks2418187 parses shimmer_blocks_ms_2418187.json once and returns its 88 blocks in
// white-flag order (shared: do not modify).
func Blocks2418187() ([]Block, error) {
	blocksOnce.Do(func() { blocks, blocksErr = loadBlocks() })
	return blocks, blocksErr
}

// Dir returns testdata/realdata of the repository holding the working directory: the go.mod
// directory found walking up, so tests of any package find it.
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "realdata"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("realdata: no go.mod above the working directory")
		}
		dir = parent
	}
}

// readStrict reads a file of Dir and decodes it strictly into v.
func readStrict(name string, v any) error {
	dir, err := Dir()
	if err != nil {
		return err
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("realdata: %w", err)
	}
	if err := strictUnmarshal(data, v); err != nil {
		return fmt.Errorf("realdata: %s: %w", name, err)
	}
	return nil
}

func loadBlocks() ([]Block, error) {
	var file []fileBlock
	if err := readStrict(blocksFile, &file); err != nil {
		return nil, err
	}
	out := make([]Block, 0, len(file))
	for _, fb := range file {
		b, err := convertBlock(fb, fb.ID)
		if err != nil {
			return nil, fmt.Errorf("realdata: %s: %w", blocksFile, err)
		}
		out = append(out, b)
	}
	sortByWhiteFlag(out)
	return out, nil
}
