package mutation

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Widen copies a Go coverage profile and adds, for each function (declared or literal)
// that holds a block that ran, one block spanning the whole function, marked run.
// Go's profile leaves the case expressions of a switch and a function's constants out of
// every block, so gremlins would never run their mutants; with the profile widened it
// runs every mutant of a function the tests entered. A profile's file is found under root
// by its import path less modulePath.
func Widen(profile io.Reader, out io.Writer, modulePath, root string) error {
	lines, runFiles, err := readLines(profile)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	for file, blocks := range runFiles {
		rel, ok := strings.CutPrefix(file, modulePath+"/")
		if !ok {
			continue
		}
		spans, err := functionSpans(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		for _, f := range spans {
			if anyInside(f, blocks) {
				fmt.Fprintf(w, "%s:%d.%d,%d.%d 0 1\n", file, f.StartLine, f.StartCol, f.EndLine, f.EndCol)
			}
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("mutation: widened profile: %w", err)
	}
	return nil
}

// readLines returns the profile's lines and, by file, the blocks that ran.
func readLines(profile io.Reader) ([]string, map[string][]Block, error) {
	var lines []string
	run := map[string][]Block{}
	sc := bufio.NewScanner(profile)
	for sc.Scan() {
		line := sc.Text()
		lines = append(lines, line)
		if line == "" || strings.HasPrefix(line, "mode:") {
			continue
		}
		file, b, err := parseBlock(line)
		if err != nil {
			return nil, nil, err
		}
		if !strings.HasSuffix(line, " 0") {
			run[file] = append(run[file], b)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("mutation: coverage profile: %w", err)
	}
	return lines, run, nil
}

// functionSpans returns the span of every function of a Go file, from its func keyword
// to its closing brace.
func functionSpans(path string) ([]Block, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mutation: %w", err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("mutation: %w", err)
	}
	var spans []Block
	ast.Inspect(f, func(n ast.Node) bool {
		switch fn := n.(type) {
		case *ast.FuncDecl:
			if fn.Body != nil {
				spans = append(spans, span(fset, fn.Pos(), fn.End()))
			}
		case *ast.FuncLit:
			spans = append(spans, span(fset, fn.Pos(), fn.End()))
		}
		return true
	})
	return spans, nil
}

func span(fset *token.FileSet, from, to token.Pos) Block {
	a, b := fset.Position(from), fset.Position(to)
	return Block{StartLine: a.Line, StartCol: a.Column, EndLine: b.Line, EndCol: b.Column}
}

// anyInside reports whether one of the blocks starts inside the span.
func anyInside(span Block, blocks []Block) bool {
	for _, b := range blocks {
		if span.holds(b.StartLine, b.StartCol) {
			return true
		}
	}
	return false
}
