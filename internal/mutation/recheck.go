package mutation

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// The token each mutation type puts in place of the one it finds (gremlins' mappings).
var mutations = map[string]map[token.Token]token.Token{
	"ARITHMETIC_BASE": {token.ADD: token.SUB, token.MUL: token.QUO, token.QUO: token.MUL,
		token.REM: token.MUL, token.SUB: token.ADD},
	"CONDITIONALS_BOUNDARY": {token.GEQ: token.GTR, token.GTR: token.GEQ, token.LEQ: token.LSS,
		token.LSS: token.LEQ},
	"CONDITIONALS_NEGATION": {token.EQL: token.NEQ, token.GEQ: token.LSS, token.GTR: token.LEQ,
		token.LEQ: token.GTR, token.LSS: token.GEQ, token.NEQ: token.EQL},
	"INCREMENT_DECREMENT": {token.DEC: token.INC, token.INC: token.DEC},
	"INVERT_NEGATIVES":    {token.SUB: token.ADD},
}

var errNoMutation = errors.New("no token there that the mutation changes")

// Mutate applies one gremlins mutation to a Go source: the token at line:col becomes the
// one the mutation type maps it to.
func Mutate(src []byte, line, col int, typ string) ([]byte, error) {
	fset := token.NewFileSet()
	file := fset.AddFile("src.go", -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, 0)
	for {
		pos, tok, _ := s.Scan()
		if tok == token.EOF {
			return nil, fmt.Errorf("mutation: %s at %d:%d: %w", typ, line, col, errNoMutation)
		}
		p := fset.Position(pos)
		if p.Line != line || p.Column != col {
			continue
		}
		to, ok := mutations[typ][tok]
		if !ok {
			return nil, fmt.Errorf("mutation: %s at %d:%d on %s: %w", typ, line, col, tok, errNoMutation)
		}
		off := file.Offset(pos)
		out := append([]byte{}, src[:off]...)
		out = append(out, to.String()...)
		return append(out, src[off+len(tok.String()):]...), nil
	}
}

// Recheck runs again, each against the package's tests (go test with an overlay that puts
// the mutated file in place; the sources are not touched), the mutants of a gremlins run
// that lived, and returns the run's mutants with their new statuses. Tests only added
// since the run cannot bring a killed mutant back, so the others keep theirs.
func Recheck(ctx context.Context, dir string, ms []Mutant, timeout time.Duration) ([]Mutant, error) {
	tmp, err := os.MkdirTemp("", "mutation-recheck-")
	if err != nil {
		return nil, fmt.Errorf("mutation: %w", err)
	}
	defer os.RemoveAll(tmp)
	out := append([]Mutant{}, ms...)
	for i, m := range out {
		if m.Status != Lived {
			continue
		}
		status, err := runMutant(ctx, dir, m, tmp, timeout)
		if err != nil {
			return nil, err
		}
		out[i].Status = status
	}
	return out, nil
}

func runMutant(ctx context.Context, dir string, m Mutant, tmp string, timeout time.Duration) (string, error) {
	path, err := filepath.Abs(filepath.Join(dir, m.File))
	if err != nil {
		return "", fmt.Errorf("mutation: %w", err)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("mutation: %w", err)
	}
	mutated, err := Mutate(src, m.Line, m.Column, m.Type)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	overlay, err := writeOverlay(tmp, path, mutated)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "test", "-overlay="+overlay, "-failfast", "./"+dir)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return TimedOut, nil
	case err == nil:
		return Lived, nil
	case errors.As(err, &exit) && exit.ExitCode() == 1 && !bytes.Contains(stderr.Bytes(), []byte("[build failed]")):
		return Killed, nil
	case errors.As(err, &exit):
		return NotViable, nil
	}
	return "", fmt.Errorf("mutation: go test: %w", err)
}

// writeOverlay writes the mutated file and a go build overlay that puts it at path.
func writeOverlay(tmp, path string, mutated []byte) (string, error) {
	file := filepath.Join(tmp, "mutant.go")
	if err := os.WriteFile(file, mutated, 0o600); err != nil {
		return "", fmt.Errorf("mutation: %w", err)
	}
	b, err := json.Marshal(map[string]map[string]string{"Replace": {path: file}})
	if err != nil {
		return "", fmt.Errorf("mutation: %w", err)
	}
	overlay := filepath.Join(tmp, "overlay.json")
	if err := os.WriteFile(overlay, b, 0o600); err != nil {
		return "", fmt.Errorf("mutation: %w", err)
	}
	return overlay, nil
}

// WriteGremlins writes mutants in gremlins' JSON output format (the files and their
// mutations; Score reads nothing else).
func WriteGremlins(ms []Mutant, w *os.File) error {
	type mutation struct {
		Type   string `json:"type"`
		Status string `json:"status"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
	type file struct {
		Name      string     `json:"file_name"`
		Mutations []mutation `json:"mutations"`
	}
	var files []file
	at := map[string]int{}
	for _, m := range ms {
		i, ok := at[m.File]
		if !ok {
			i = len(files)
			at[m.File] = i
			files = append(files, file{Name: m.File})
		}
		files[i].Mutations = append(files[i].Mutations, mutation{m.Type, m.Status, m.Line, m.Column})
	}
	if err := json.NewEncoder(w).Encode(map[string]any{"files": files}); err != nil {
		return fmt.Errorf("mutation: %w", err)
	}
	return nil
}
