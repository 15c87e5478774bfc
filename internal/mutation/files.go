package mutation

import (
	"fmt"

	"github.com/stardust-indexer/stardust-indexer/internal/readfile"
)

// ScoreFiles is Score over gremlins' JSON output and a coverage profile, both files.
func ScoreFiles(pkg, pkgPath, gremlinsJSON, profile string) (Row, error) {
	ms, err := readfile.With(gremlinsJSON, ReadGremlins)
	if err != nil {
		return Row{}, fmt.Errorf("mutation: %w", err)
	}
	blocks, err := readfile.With(profile, ReadProfile)
	if err != nil {
		return Row{}, fmt.Errorf("mutation: %w", err)
	}
	return Score(pkg, pkgPath, ms, blocks), nil
}
