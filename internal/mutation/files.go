package mutation

import (
	"github.com/stardust-indexer/stardust-indexer/internal/readfile"
)

// ScoreFiles is Score over gremlins' JSON output and a coverage profile, both files.
func ScoreFiles(pkg, pkgPath, gremlinsJSON, profile string) (Row, error) {
	ms, err := readfile.With("mutation", gremlinsJSON, ReadGremlins)
	if err != nil {
		return Row{}, err
	}
	blocks, err := readfile.With("mutation", profile, ReadProfile)
	if err != nil {
		return Row{}, err
	}
	return Score(pkg, pkgPath, ms, blocks), nil
}
