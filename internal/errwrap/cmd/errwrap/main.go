// Command errwrap runs the errwrap analyzer: go run ./internal/errwrap/cmd/errwrap ./...
package main

import (
	"golang.org/x/tools/go/analysis/singlechecker"

	"github.com/stardust-indexer/stardust-indexer/internal/errwrap"
)

func main() { singlechecker.Main(errwrap.Analyzer) }
