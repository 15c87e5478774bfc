package mutation

import (
	"fmt"
	"os"
)

// ScoreFiles is Score over gremlins' JSON output and a coverage profile, both files.
func ScoreFiles(pkg, pkgPath, gremlinsJSON, profile string) (Row, error) {
	g, err := os.Open(gremlinsJSON)
	if err != nil {
		return Row{}, fmt.Errorf("mutation: %w", err)
	}
	defer g.Close()
	ms, err := ReadGremlins(g)
	if err != nil {
		return Row{}, err
	}
	p, err := os.Open(profile)
	if err != nil {
		return Row{}, fmt.Errorf("mutation: %w", err)
	}
	defer p.Close()
	blocks, err := ReadProfile(p)
	if err != nil {
		return Row{}, err
	}
	return Score(pkg, pkgPath, ms, blocks), nil
}
