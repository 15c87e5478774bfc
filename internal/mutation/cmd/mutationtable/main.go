// Command mutationtable serves scripts/mutate.sh: "mutationtable -header" prints the head
// of the mutation table, "mutationtable <dir> <import path> <gremlins.json> <cover.out>"
// one package's row, and "mutationtable -widen <cover.out> <module path>" widens a
// coverage profile in place to whole functions (mutation.Widen), the module's root being
// the current directory. "mutationtable -recheck <dir> <before.json> <after.json> <timeout>"
// runs again the mutants that lived in a gremlins run (mutation.Recheck).
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"time"

	"github.com/stardust-indexer/stardust-indexer/internal/mutation"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "mutationtable:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 1 && args[0] == "-header":
		fmt.Println(mutation.Header())
		return nil
	case len(args) == 3 && args[0] == "-widen":
		return widen(args[1], args[2])
	case len(args) == 5 && args[0] == "-recheck":
		return recheck(args[1], args[2], args[3], args[4])
	case len(args) == 4:
		row, err := mutation.ScoreFiles(args[0], args[1], args[2], args[3])
		if err != nil {
			return err
		}
		fmt.Println(row.Format())
		return nil
	}
	return fmt.Errorf("usage: mutationtable -header | dir importpath gremlins.json cover.out | -widen cover.out modulepath | -recheck dir before.json after.json timeout: %w", os.ErrInvalid)
}

func widen(profile, modulePath string) error {
	in, err := os.ReadFile(profile)
	if err != nil {
		return fmt.Errorf("widen: %w", err)
	}
	var out bytes.Buffer
	if err := mutation.Widen(bytes.NewReader(in), &out, modulePath, "."); err != nil {
		return err
	}
	if err := os.WriteFile(profile, out.Bytes(), 0o644); err != nil {
		return fmt.Errorf("widen: %w", err)
	}
	return nil
}

func recheck(dir, before, after, timeout string) error {
	d, err := time.ParseDuration(timeout)
	if err != nil {
		return fmt.Errorf("recheck: %w", err)
	}
	in, err := os.Open(before)
	if err != nil {
		return fmt.Errorf("recheck: %w", err)
	}
	defer in.Close()
	ms, err := mutation.ReadGremlins(in)
	if err != nil {
		return err
	}
	if ms, err = mutation.Recheck(context.Background(), dir, ms, d); err != nil {
		return err
	}
	out, err := os.Create(after)
	if err != nil {
		return fmt.Errorf("recheck: %w", err)
	}
	if err := mutation.WriteGremlins(ms, out); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("recheck: %w", err)
	}
	return nil
}
