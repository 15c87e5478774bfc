// Package mutation turns a gremlins run of one package into a row of the mutation table:
// gremlins' own counts, and how many of its "not covered" mutants lie outside every block
// of Go's coverage profile. Gremlins marks a mutant covered only when a profile block that
// ran holds its position; constant declarations and the case expressions of a switch are
// in no block, so their mutants are "not covered" whatever the tests do, and are counted
// apart (Outside) so the table says which not-covered mutants a test could raise.
package mutation

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Statuses gremlins writes in its JSON output.
const (
	Killed     = "KILLED"
	Lived      = "LIVED"
	NotCovered = "NOT COVERED"
	TimedOut   = "TIMED OUT"
	NotViable  = "NOT VIABLE"
)

// Mutant is one mutation of gremlins' output: its file (relative to the package's
// directory), place, type and status.
type Mutant struct {
	File   string
	Line   int
	Column int
	Type   string
	Status string
}

// ReadGremlins reads the mutants of gremlins' JSON output (unleash -o).
func ReadGremlins(r io.Reader) ([]Mutant, error) {
	var out struct {
		Files []struct {
			Name      string `json:"file_name"`
			Mutations []struct {
				Type   string `json:"type"`
				Status string `json:"status"`
				Line   int    `json:"line"`
				Column int    `json:"column"`
			} `json:"mutations"`
		} `json:"files"`
	}
	if err := json.NewDecoder(r).Decode(&out); err != nil {
		return nil, fmt.Errorf("mutation: gremlins output: %w", err)
	}
	var ms []Mutant
	for _, f := range out.Files {
		for _, m := range f.Mutations {
			ms = append(ms, Mutant{File: f.Name, Line: m.Line, Column: m.Column, Type: m.Type, Status: m.Status})
		}
	}
	return ms, nil
}

// Block is one block of a Go coverage profile, run or not.
type Block struct {
	StartLine, StartCol, EndLine, EndCol int
}

// holds reports whether the position lies in the block, by the rule gremlins uses.
func (b Block) holds(line, col int) bool {
	switch {
	case line < b.StartLine || line > b.EndLine:
		return false
	case line > b.StartLine && line < b.EndLine:
		return true
	case b.StartLine == b.EndLine:
		return col >= b.StartCol && col <= b.EndCol
	case line == b.StartLine:
		return col >= b.StartCol
	default:
		return col <= b.EndCol
	}
}

// ReadProfile reads the blocks of a Go coverage profile by file path (as the profile
// names it: import path and file name).
func ReadProfile(r io.Reader) (map[string][]Block, error) {
	blocks := map[string][]Block{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "mode:") {
			continue
		}
		file, b, err := parseBlock(line)
		if err != nil {
			return nil, err
		}
		blocks[file] = append(blocks[file], b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mutation: coverage profile: %w", err)
	}
	return blocks, nil
}

// parseBlock parses "path/file.go:sl.sc,el.ec stmts count".
func parseBlock(line string) (string, Block, error) {
	colon := strings.LastIndex(line, ":")
	if colon < 0 {
		return "", Block{}, fmt.Errorf("mutation: coverage profile line %q: %w", line, errBadLine)
	}
	var b Block
	span, _, _ := strings.Cut(line[colon+1:], " ")
	from, to, ok := strings.Cut(span, ",")
	if !ok {
		return "", Block{}, fmt.Errorf("mutation: coverage profile line %q: %w", line, errBadLine)
	}
	var err error
	if b.StartLine, b.StartCol, err = linecol(from); err != nil {
		return "", Block{}, fmt.Errorf("mutation: coverage profile line %q: %w", line, err)
	}
	if b.EndLine, b.EndCol, err = linecol(to); err != nil {
		return "", Block{}, fmt.Errorf("mutation: coverage profile line %q: %w", line, err)
	}
	return line[:colon], b, nil
}

var errBadLine = errors.New("not file:line.col,line.col statements count")

func linecol(s string) (int, int, error) {
	l, c, ok := strings.Cut(s, ".")
	if !ok {
		return 0, 0, errBadLine
	}
	line, err := strconv.Atoi(l)
	if err != nil {
		return 0, 0, fmt.Errorf("line %q: %w", l, err)
	}
	col, err := strconv.Atoi(c)
	if err != nil {
		return 0, 0, fmt.Errorf("column %q: %w", c, err)
	}
	return line, col, nil
}
